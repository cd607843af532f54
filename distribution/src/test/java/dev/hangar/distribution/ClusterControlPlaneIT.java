package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import tools.jackson.databind.JsonNode;

/**
 * The cluster control plane wired into real servers: three {@link DedicatedServer}s on loopback find each
 * other through a seed, bootstrap the first layout, converge on a layout change applied through
 * {@code /actuator/cluster}, and see a stopped node go suspect; S3 keeps working on each node throughout
 * (replication itself is {@link ClusterReplicationIT}'s). The shared server, started without cluster
 * settings, has no control plane.
 */
class ClusterControlPlaneIT extends AbstractS3IT {
    private static final Duration CONVERGENCE = Duration.ofSeconds(15);

    @TempDir
    Path dir;

    @Test
    void plainServerHasClusteringOff() {
        AdminApi admin = new AdminApi(managementEndpoint(), http);
        AdminApi.Response status = admin.get("/actuator/cluster");
        assertThat(status.status()).isEqualTo(200);
        assertThat(status.json().get("enabled").asBoolean()).isFalse();
        assertThat(status.json().get("message").asString()).contains("clustering is off");

        AdminApi.Response apply = admin.post("/actuator/cluster", Map.of("action", "apply", "version", 0));
        assertThat(apply.status()).isEqualTo(409);
        assertThat(apply.body()).contains("clustering is off");

        AdminApi.Response scrape = admin.get("/actuator/prometheus");
        assertThat(scrape.body()).doesNotContain("hangar_cluster_");
        // The metadata's replication counts on every node: a single node's commands cost no round.
        assertThat(scrape.body()).containsPattern("hangar_metadata_commands_total\\{[^}]*command=\"PutVersion\",mode=\"single_node\"")
                .containsPattern("hangar_metadata_command_rounds_total\\{[^}]*command=\"PutVersion\",mode=\"single_node\"} 0\\.0");
    }

    @Test
    void threeNodesFormALayoutConvergeOnChangesAndDetectAStoppedNode() {
        List<DedicatedServer> servers = new ArrayList<>();
        try {
            servers.add(start("n1", null));
            String seed = status(servers.getFirst()).get("settings").get("rpcAddress").asString();
            servers.add(start("n2", seed));
            servers.add(start("n3", seed));

            // Bootstrap: every node sees 3 nodes UP and layout 1, 256 partitions on each node (rf 3 over 3 nodes).
            for (DedicatedServer server : servers) {
                JsonNode status = awaitStatus(server, s -> s.get("layout").get("version").asLong() == 1
                        && count(s, "up") == 3, "3 nodes up on layout 1");
                JsonNode layout = status.get("layout");
                assertThat(layout.get("partitions").asInt()).isEqualTo(256);
                assertThat(layout.get("replicationFactor").asInt()).isEqualTo(3);
                assertThat(layout.get("nodes")).hasSize(3);
                for (JsonNode node : layout.get("nodes")) {
                    assertThat(node.get("partitions").asInt()).as("partitions of %s", node.get("id")).isEqualTo(256);
                }
                assertThat(status.get("note").asString()).contains("replicated");
            }
            for (DedicatedServer server : servers) {
                assertThat(server.metric("hangar_cluster_layout_version")).isEqualTo(1);
            }

            // Stage a new zone and capacity for n3 on n2, apply it there: every node converges on version 2.
            AdminApi admin = servers.get(1).admin();
            AdminApi.Response stale = admin.post("/actuator/cluster", Map.of("action", "apply", "version", 1));
            assertThat(stale.status()).as("apply with nothing staged").isEqualTo(409);
            AdminApi.Response staged = admin.post("/actuator/cluster",
                    Map.of("action", "stage", "node", "n3", "zone", "zone-b", "capacity", 2));
            assertThat(staged.status()).as("stage: %s", staged.body()).isEqualTo(200);
            assertThat(staged.json().get("staged").get("roles").get(0).get("zone").asString()).isEqualTo("zone-b");
            AdminApi.Response wrongVersion = admin.post("/actuator/cluster", Map.of("action", "apply", "version", 0));
            assertThat(wrongVersion.status()).isEqualTo(409);
            assertThat(wrongVersion.body()).contains("stale");
            AdminApi.Response applied = admin.post("/actuator/cluster", Map.of("action", "apply", "version", 1));
            assertThat(applied.status()).as("apply: %s", applied.body()).isEqualTo(200);
            assertThat(applied.json().get("layout").get("version").asLong()).isEqualTo(2);
            for (DedicatedServer server : servers) {
                JsonNode status = awaitStatus(server, s -> s.get("layout").get("version").asLong() == 2, "layout 2");
                JsonNode n3 = role(status, "n3");
                assertThat(n3.get("zone").asString()).isEqualTo("zone-b");
                assertThat(n3.get("capacity").asLong()).isEqualTo(2);
            }

            // The fault hook through the admin API: refused unless the node allows it; n1 does.
            AdminApi.Response refused = servers.get(1).admin().post("/actuator/cluster",
                    Map.of("action", "faults", "delay", "20ms"));
            assertThat(refused.status()).isEqualTo(409);
            assertThat(refused.body()).contains("fault injection is off");
            AdminApi.Response delayed = servers.getFirst().admin().post("/actuator/cluster",
                    Map.of("action", "faults", "delay", "20ms", "jitter", "1ms"));
            assertThat(delayed.status()).as("faults: %s", delayed.body()).isEqualTo(200);
            var faults = servers.getFirst().node().control().orElseThrow().faults();
            var verdict = faults.verdict(new dev.hangar.cluster.layout.NodeId("n1"), new dev.hangar.cluster.layout.NodeId("n2"));
            assertThat(verdict).isInstanceOf(dev.hangar.cluster.rpc.NetworkFaults.Verdict.Deliver.class);
            assertThat(((dev.hangar.cluster.rpc.NetworkFaults.Verdict.Deliver) verdict).delayNanos())
                    .isBetween(20_000_000L, 21_000_000L);
            putAndGet(servers.getFirst(), "delayed");
            assertThat(servers.getFirst().admin().post("/actuator/cluster", Map.of("action", "faults", "delay", "0ms"))
                    .status()).isEqualTo(200);

            // Each node serves S3, before and after a node stops.
            for (int i = 0; i < servers.size(); i++) {
                putAndGet(servers.get(i), "node-" + i);
            }

            // Stop n3: the others see it suspect, then down.
            servers.removeLast().close();
            for (DedicatedServer server : servers) {
                awaitStatus(server, s -> Set.of("suspect", "down").contains(node(s, "n3").get("state").asString()),
                        "n3 suspect or down");
                assertThat(server.metric("hangar_cluster_nodes")).isEqualTo(3);
                putAndGet(server, "after-stop");
            }
        } finally {
            servers.forEach(DedicatedServer::close);
        }
    }

    private DedicatedServer start(String id, String seed) {
        List<String> settings = new ArrayList<>(List.of(
                "storage.sync=none",
                "cluster.fault-injection=" + id.equals("n1"),
                "cluster.node-id=" + id,
                "cluster.rpc-port=0",
                "cluster.bootstrap-expect=3",
                "cluster.ping-interval=200ms",
                "cluster.secret=" + ServerCluster.SECRET));
        if (seed != null) {
            settings.add("cluster.seeds=" + seed);
        }
        return DedicatedServer.start(dir.resolve(id), settings.toArray(String[]::new));
    }

    private static void putAndGet(DedicatedServer server, String key) {
        String bucket = newBucketName("cluster");
        server.s3().createBucket(b -> b.bucket(bucket));
        server.s3().putObject(p -> p.bucket(bucket).key(key), RequestBody.fromString("hello " + key));
        assertThat(server.s3().getObjectAsBytes(g -> g.bucket(bucket).key(key)).asUtf8String())
                .isEqualTo("hello " + key);
    }

    private static JsonNode status(DedicatedServer server) {
        AdminApi.Response response = server.admin().get("/actuator/cluster");
        assertThat(response.status()).as("GET /actuator/cluster: %s", response.body()).isEqualTo(200);
        return response.json();
    }

    private static JsonNode awaitStatus(DedicatedServer server, Predicate<JsonNode> condition, String what) {
        long deadline = System.nanoTime() + CONVERGENCE.toNanos();
        while (true) {
            JsonNode status = status(server);
            if (condition.test(status)) {
                return status;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + CONVERGENCE + ": " + what + "; last status " + status);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static long count(JsonNode status, String state) {
        long count = 0;
        for (JsonNode node : status.get("nodes")) {
            if (node.get("state").asString().equals(state)) {
                count++;
            }
        }
        return count;
    }

    private static JsonNode node(JsonNode status, String id) {
        for (JsonNode node : status.get("nodes")) {
            if (node.get("id").asString().equals(id)) {
                return node;
            }
        }
        throw new AssertionError("node " + id + " unknown: " + status);
    }

    private static JsonNode role(JsonNode status, String id) {
        for (JsonNode node : status.get("layout").get("nodes")) {
            if (node.get("id").asString().equals(id)) {
                return node;
            }
        }
        throw new AssertionError("node " + id + " not in the layout: " + status);
    }
}
