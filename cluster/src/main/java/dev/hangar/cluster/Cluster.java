package dev.hangar.cluster;

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
}
