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
     * With {@code cluster} settings, a node of a replicated cluster: it joins the other nodes through
     * the seeds, and its metadata and blocks live on the replicas the layout gives them, whichever
     * node is asked. Null settings give exactly {@link #singleNode(NodeConfig, MaintenanceConfig)}:
     * a cluster of one over local storage, and no RPC port is opened.
     */
    public static ClusterNode node(NodeConfig config, MaintenanceConfig maintenance, @Nullable ClusterSettings cluster) {
        return node(config, maintenance, cluster, MembershipTiming.defaults());
    }

    /** As {@link #node(NodeConfig, MaintenanceConfig, ClusterSettings)}, with this membership timing. */
    public static ClusterNode node(NodeConfig config, MaintenanceConfig maintenance,
            @Nullable ClusterSettings cluster, MembershipTiming timing) {
        return node(config, maintenance, cluster, timing, ReclaimConfig.DEFAULTS);
    }

    /**
     * As {@link #node(NodeConfig, MaintenanceConfig, ClusterSettings, MembershipTiming)}, a cluster node freeing
     * chunks as {@code reclaim} says (a cluster of one ignores it).
     */
    public static ClusterNode node(NodeConfig config, MaintenanceConfig maintenance,
            @Nullable ClusterSettings cluster, MembershipTiming timing, ReclaimConfig reclaim) {
        return node(config, maintenance, cluster, timing, reclaim, null);
    }

    /**
     * As {@link #node(NodeConfig, MaintenanceConfig, ClusterSettings, MembershipTiming, ReclaimConfig)}; with
     * {@code raft} settings, a cluster node in the Raft mode ({@link ReplicationMode#RAFT}): its metadata commands
     * go through the Raft log of their group, applied at commit on every member. Without them, leaderless. A
     * cluster of one ignores them. Call it on the thread that starts the application (Ratis, which the Raft mode
     * runs on, keeps the context class loader of the thread that first uses it).
     */
    public static ClusterNode node(NodeConfig config, MaintenanceConfig maintenance,
            @Nullable ClusterSettings cluster, MembershipTiming timing, ReclaimConfig reclaim,
            @Nullable RaftSettings raft) {
        if (cluster == null) {
            return new SingleNode(config, maintenance);
        }
        return ClusteredNode.start(config, maintenance, cluster, timing, reclaim, raft);
    }
}
