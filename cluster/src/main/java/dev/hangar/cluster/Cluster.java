package dev.hangar.cluster;

/** The module's entry point: builds the {@link ClusterNode} this process runs. */
public final class Cluster {
    private Cluster() {}

    /** A node without cluster settings: a cluster of one over local storage. */
    public static ClusterNode singleNode(NodeConfig config) {
        return new SingleNode(config);
    }
}
