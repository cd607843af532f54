package dev.hangar.bench.lab;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * Hangar nodes as containers of the local image, as the lab and the image's own test start them: never
 * pulled, configured by {@code HANGAR_*} variables only, S3 (9000) and management (9001) ports published,
 * ready when the management port answers its health check over HTTP (the image has no shell for
 * Testcontainers' in-container checks).
 */
public final class NodeContainers {
    public static final int S3_PORT = 9000;
    public static final int MANAGEMENT_PORT = 9001;

    /** The secrets a test cluster's nodes share. */
    public record Secrets(String accessKey, String secretKey, String adminToken, String clusterSecret) {}

    private NodeContainers() {
    }

    /**
     * The variables of a cluster node: the shared secrets, its id and zone, the replication policy, a small
     * heap, no fsync (test data on scratch volumes) and no website port.
     */
    public static Map<String, String> clusterEnv(Secrets secrets, String id, String zone, String replication) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("JAVA_TOOL_OPTIONS", "-Xmx256m");
        env.put("HANGAR_ROOT_ACCESS_KEY", secrets.accessKey());
        env.put("HANGAR_ROOT_SECRET_KEY", secrets.secretKey());
        env.put("HANGAR_ADMIN_TOKEN", secrets.adminToken());
        env.put("HANGAR_CLUSTER_SECRET", secrets.clusterSecret());
        env.put("HANGAR_CLUSTER_NODE_ID", id);
        env.put("HANGAR_CLUSTER_ZONE", zone);
        env.put("HANGAR_CLUSTER_REPLICATION", replication);
        env.put("HANGAR_STORAGE_SYNC", "none");
        env.put("HANGAR_WEBSITE_ENABLED", "false");
        return env;
    }

    /** A container of {@code image} on {@code network} under {@code alias}. */
    public static GenericContainer<?> node(String image, Network network, String alias, Map<String, String> env,
            Duration startup) {
        return new GenericContainer<>(DockerImageName.parse(image))
                .withImagePullPolicy(any -> false)
                .withNetwork(network)
                .withNetworkAliases(alias)
                .withEnv(env)
                .withExposedPorts(S3_PORT, MANAGEMENT_PORT)
                .waitingFor(Wait.forHttp("/actuator/health").forPort(MANAGEMENT_PORT)
                        .forStatusCodeMatching(status -> status == 200 || status == 503)
                        .withStartupTimeout(startup));
    }

    /** The last {@code lines} lines of every container's output, for failure messages. */
    public static String logs(Map<String, ? extends GenericContainer<?>> nodes, int lines) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, ? extends GenericContainer<?>> node : nodes.entrySet()) {
            String log;
            try {
                log = node.getValue().getLogs();
            } catch (RuntimeException notStarted) {
                log = "(no log: " + notStarted + ")";
            }
            List<String> all = log.lines().toList();
            text.append("---- ").append(node.getKey()).append(" (last ").append(lines).append(" lines)\n");
            all.subList(Math.max(0, all.size() - lines), all.size()).forEach(line -> text.append(line).append('\n'));
        }
        return text.toString();
    }
}
