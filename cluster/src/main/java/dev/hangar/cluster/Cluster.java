package dev.hangar.cluster;

import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.MembershipTiming;
import org.jspecify.annotations.Nullable;

/** The module's entry point: builds the {@link ClusterNode} this process runs. */
public final class Cluster {
    private Cluster() {}

    /** A node without cluster settings: a cluster of one over local storage. */
    public static ClusterNode singleNode(NodeConfig config) {
        return new SingleNode(config);
    }

    /** A cluster of one whose compaction and scrub follow {@code maintenance}. */
    public static ClusterNode singleNode(NodeConfig config, MaintenanceConfig maintenance) {
        return new SingleNode(config, maintenance);
    }

    /**
     * A node over local storage that, with {@code cluster} settings, also runs the cluster control
     * plane ({@link ClusterControl}: membership and layout). Data is not replicated yet: the node
     * serves its own local data either way. Null settings give exactly {@link #singleNode(NodeConfig,
     * MaintenanceConfig)}: no RPC port is opened.
     */
    public static ClusterNode singleNode(
            NodeConfig config, MaintenanceConfig maintenance, @Nullable ClusterSettings cluster) {
        return singleNode(config, maintenance, cluster, MembershipTiming.defaults());
    }

    /** As {@link #singleNode(NodeConfig, MaintenanceConfig, ClusterSettings)}, with this membership timing. */
    public static ClusterNode singleNode(NodeConfig config, MaintenanceConfig maintenance,
            @Nullable ClusterSettings cluster, MembershipTiming timing) {
        if (cluster == null) {
            return new SingleNode(config, maintenance);
        }
        ClusterControl control = ClusterControl.start(cluster, config.dataDirectory(), timing);
        try {
            return new SingleNode(config, maintenance, control);
        } catch (RuntimeException e) {
            control.close();
            throw e;
        }
    }
}
