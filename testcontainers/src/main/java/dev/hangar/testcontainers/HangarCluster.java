package dev.hangar.testcontainers;

import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import org.testcontainers.containers.Network;
import org.testcontainers.lifecycle.Startable;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A Hangar cluster of containers (three by default) on a network of its own: one zone per node, the root key
 * pair, cluster secret and administration token shared, formed by {@code bootstrap-expect}. {@link #start()}
 * returns once every node is ready and the cluster answers S3 requests through each of them.
 *
 * <pre>{@code
 * @Container
 * static HangarCluster cluster = new HangarCluster("hangar:0.1.0-SNAPSHOT");
 *
 * URI anyNode = cluster.getNodes().get(1).getS3Endpoint();
 * }</pre>
 */
public class HangarCluster implements Startable {
    private static final Duration FORMATION = Duration.ofMinutes(3);

    private final Network network = Network.newNetwork();
    private final List<HangarContainer> nodes = new ArrayList<>();
    private final String adminToken;

    public HangarCluster(String image) {
        this(DockerImageName.parse(image), 3, "leaderless");
    }

    /**
     * @param size the number of nodes, at least 3 (the replication factor)
     * @param replication {@code leaderless} or {@code raft}
     */
    public HangarCluster(DockerImageName image, int size, String replication) {
        if (size < 3) {
            throw new IllegalArgumentException("a cluster has at least 3 nodes (its replication factor), not " + size);
        }
        SecureRandom random = new SecureRandom();
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        byte[] token = new byte[32];
        random.nextBytes(token);
        this.adminToken = HexFormat.of().formatHex(token);
        String seeds = java.util.stream.IntStream.rangeClosed(1, size).mapToObj(i -> "node" + i + ":3901")
                .collect(Collectors.joining(","));
        for (int i = 1; i <= size; i++) {
            String id = "node" + i;
            nodes.add(new HangarContainer(image)
                    .withNetwork(network)
                    .withNetworkAliases(id)
                    .withEnv("HANGAR_CLUSTER_SECRET", HexFormat.of().formatHex(secret))
                    .withEnv("HANGAR_ADMIN_TOKEN", adminToken)
                    .withEnv("HANGAR_CLUSTER_NODE_ID", id)
                    .withEnv("HANGAR_CLUSTER_ZONE", "zone-" + i)
                    .withEnv("HANGAR_CLUSTER_REPLICATION", replication)
                    .withEnv("HANGAR_CLUSTER_ADVERTISED_ADDRESS", id)
                    .withEnv("HANGAR_CLUSTER_SEEDS", seeds)
                    .withEnv("HANGAR_CLUSTER_BOOTSTRAP_EXPECT", Integer.toString(size)));
        }
    }

    /** The nodes, in order; each has the S3 and management endpoints of a single container. */
    public List<HangarContainer> getNodes() {
        return List.copyOf(nodes);
    }

    /** The administration token every node takes. */
    public String getAdminToken() {
        return adminToken;
    }

    @Override
    public void start() {
        // In parallel: each node waits for the others before its layout forms.
        nodes.parallelStream().forEach(HangarContainer::start);
        long deadline = System.nanoTime() + FORMATION.toNanos();
        for (HangarContainer node : nodes) {
            awaitAnswer(node, deadline);
        }
    }

    @Override
    public void stop() {
        nodes.forEach(HangarContainer::stop);
        network.close();
    }

    private static void awaitAnswer(HangarContainer node, long deadline) {
        RuntimeException last = null;
        try (S3Client s3 = node.newS3Client()) {
            while (System.nanoTime() < deadline) {
                try {
                    s3.listBuckets();
                    return;
                } catch (RuntimeException notYet) {
                    last = notYet;
                    sleep();
                }
            }
        }
        URI endpoint = node.getS3Endpoint();
        throw new IllegalStateException("the cluster did not answer S3 requests through " + endpoint + " within "
                + FORMATION + "; the node's log:\n" + node.getLogs(), last);
    }

    private static void sleep() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }
}
