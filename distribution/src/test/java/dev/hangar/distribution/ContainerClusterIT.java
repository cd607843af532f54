package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.github.dockerjava.api.exception.NotFoundException;
import dev.hangar.bench.lab.LabDocker;
import dev.hangar.bench.lab.NodeContainers;
import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.lifecycle.Startables;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import tools.jackson.databind.JsonNode;

/**
 * The container image as an operator runs it (docs/containers.md): three containers of {@code hangar:<version>}
 * on a user-defined Docker network, configured by {@code HANGAR_*} variables only, form a cluster by themselves
 * ({@code bootstrap-expect}), in each replication mode. Objects written through each node (inline, packed, and
 * of several chunks) are listed and read back, byte for byte, through every node.
 *
 * <p>The image is the one the build made before the integration tests ({@code hangar.image}, set by
 * distribution/pom.xml), never pulled. Without a Docker engine the test fails and says how to get one, unless
 * {@code HANGAR_CONTAINERS=skip} asks to skip it. Testcontainers is configured for an engine on this machine
 * without a registry (pom.xml: no Ryuk, host override; here: the engine's API version), and the test removes
 * its containers and network itself.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ContainerClusterIT {
    private static final String IMAGE = System.getProperty("hangar.image", "hangar:dev");
    private static final NodeContainers.Secrets SECRETS = new NodeContainers.Secrets("HANGARCONTAINERKEY01",
            "hangar-container-secret-0123456789abcdef", "hangar-container-admin-token-0123456789",
            "hangar-container-cluster-secret-0123456789");
    private static final List<String> NODES = List.of("n1", "n2", "n3");
    /** Three JVMs starting at once on a loaded 2-core machine; alone, one starts in a few seconds. */
    private static final Duration STARTUP = Duration.ofMinutes(4);
    /** From all three answering to one layout with every node up (and, with Raft, every group led). */
    private static final Duration FORMATION = Duration.ofMinutes(3);
    /** Inline in the metadata record; one packed chunk; two full 1 MiB chunks and a packed tail. */
    private static final List<Integer> SIZES = List.of(100, 64 * 1024, 2 * 1024 * 1024 + 300_000);
    private static final String SKIP = "skip";

    @BeforeAll
    static void dockerEngine() throws IOException, InterruptedException {
        // The failsafe executions that run the S3 suite against in-process clusters exclude this test; a
        // -Dit.test=ContainerClusterIT, which overrides their excludes, runs it in the default execution only.
        assumeFalse(SuiteCluster.isOn(), "ContainerClusterIT runs in the default failsafe execution only");
        assumeFalse(SKIP.equalsIgnoreCase(System.getenv().getOrDefault("HANGAR_CONTAINERS", "")),
                "HANGAR_CONTAINERS=skip: not starting containers");
        // Testcontainers 2 asks for API 1.44 unless told otherwise, newer than Debian's engine (20.10 speaks
        // 1.41) accepts: speak the engine's own version. -Dapi.version=... overrides.
        if (System.getProperty("api.version") == null) {
            String version = LabDocker.engineApiVersion();
            if (version != null) {
                System.setProperty("api.version", version);
            }
        }
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new AssertionError("no Docker engine answers, so the image cannot be tested. Start one (Debian:"
                    + " apt-get install docker.io, then dockerd &; .ci/run does this), or set HANGAR_CONTAINERS=skip"
                    + " to skip this test");
        }
        try {
            DockerClientFactory.instance().client().inspectImageCmd(IMAGE).exec();
        } catch (NotFoundException e) {
            throw new AssertionError("no image " + IMAGE + " in the local engine: ./mvnw verify builds it before the"
                    + " integration tests, ./mvnw -DskipTests -Pimage -pl distribution -am package builds it alone", e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"leaderless", "raft"})
    void everyNodeServesWhatAnyNodeWrote(String replication) throws Exception {
        try (Network network = Network.newNetwork()) {
            List<GenericContainer<?>> nodes = new ArrayList<>();
            for (int i = 0; i < NODES.size(); i++) {
                nodes.add(node(network, i, replication));
            }
            List<S3Client> clients = new ArrayList<>();
            try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
                long started = System.nanoTime();
                try {
                    // At once: with bootstrap-expect=3 none of them forms a layout until all three run.
                    Startables.deepStart(nodes).join();
                } catch (CompletionException e) {
                    throw new AssertionError("the containers did not start\n" + logs(nodes), e);
                }
                long up = System.nanoTime();
                awaitFormed(nodes, http, replication);
                System.out.printf("ContainerClusterIT[%s]: 3 containers answering in %d s, cluster formed %d s later%n",
                        replication, seconds(up - started), seconds(System.nanoTime() - up));

                for (GenericContainer<?> node : nodes) {
                    clients.add(S3Clients.sync(URI.create("http://" + node.getHost() + ":" + node.getMappedPort(NodeContainers.S3_PORT)),
                            SECRETS.accessKey(), SECRETS.secretKey()));
                }
                writeThroughEachAndReadThroughEvery(clients, nodes, "containers-" + replication);
            } finally {
                clients.forEach(S3Client::close);
                // Ryuk is off: what this test started, it removes (containers, their anonymous /data volumes).
                nodes.forEach(GenericContainer::stop);
            }
        }
    }

    private static void writeThroughEachAndReadThroughEvery(List<S3Client> clients, List<GenericContainer<?>> nodes,
            String bucket) {
        Map<String, String> written = new TreeMap<>();
        try {
            clients.getFirst().createBucket(request -> request.bucket(bucket));
            for (int i = 0; i < clients.size(); i++) {
                for (int size : SIZES) {
                    String key = "via-" + NODES.get(i) + "/" + size;
                    RandomContent content = RandomContent.of((long) key.hashCode() * 31 + i, size);
                    clients.get(i).putObject(request -> request.bucket(bucket).key(key), content.requestBody());
                    written.put(key, content.sha256Hex());
                }
            }
            for (int j = 0; j < clients.size(); j++) {
                S3Client reader = clients.get(j);
                List<String> listed = reader.listObjectsV2Paginator(request -> request.bucket(bucket)).contents()
                        .stream().map(S3Object::key).toList();
                assertThat(listed).as("keys listed through %s", NODES.get(j)).containsExactlyElementsOf(written.keySet());
                for (Map.Entry<String, String> object : written.entrySet()) {
                    Digests.Summary read;
                    try (InputStream stream = reader.getObject(request -> request.bucket(bucket).key(object.getKey()))) {
                        read = Digests.summarize(stream);
                    }
                    assertThat(read.sha256Hex()).as("SHA-256 of %s read through %s", object.getKey(), NODES.get(j))
                            .isEqualTo(object.getValue());
                }
            }
        } catch (RuntimeException | IOException | AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + logs(nodes), e);
        }
    }

    private static GenericContainer<?> node(Network network, int index, String replication) {
        String id = NODES.get(index);
        Map<String, String> env = NodeContainers.clusterEnv(SECRETS, id, "zone-" + "abc".charAt(index), replication);
        // Other containers reach this one by its network alias; the same seed list on every node, itself included.
        env.put("HANGAR_CLUSTER_ADVERTISED_ADDRESS", id);
        env.put("HANGAR_CLUSTER_SEEDS", NODES.stream().map(node -> node + ":3901").collect(Collectors.joining(",")));
        env.put("HANGAR_CLUSTER_BOOTSTRAP_EXPECT", Integer.toString(NODES.size()));
        return NodeContainers.node(IMAGE, network, id, env, STARTUP);
    }

    /** Waits until every node has the first layout, sees the three nodes up and, with Raft, knows every group's leader. */
    private static void awaitFormed(List<GenericContainer<?>> nodes, HttpClient http, String replication)
            throws InterruptedException {
        List<AdminApi> admins = nodes.stream()
                .map(node -> new AdminApi(URI.create("http://" + node.getHost() + ":" + node.getMappedPort(NodeContainers.MANAGEMENT_PORT)),
                        http, SECRETS.adminToken()))
                .toList();
        long deadline = System.nanoTime() + FORMATION.toNanos();
        Map<String, String> last = new TreeMap<>();
        while (true) {
            boolean formed = true;
            for (int i = 0; i < admins.size(); i++) {
                String problem = formationProblem(admins.get(i), replication);
                last.put(NODES.get(i), problem == null ? "formed" : problem);
                formed &= problem == null;
            }
            if (formed) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the cluster did not form within " + FORMATION + ": " + last + "\n" + logs(nodes));
            }
            Thread.sleep(250);
        }
    }

    /** What keeps a node from being part of the formed cluster, or null when nothing does. */
    private static @Nullable String formationProblem(AdminApi admin, String replication) {
        AdminApi.Response response;
        try {
            response = admin.get("/actuator/cluster");
        } catch (RuntimeException notYet) {
            return notYet.toString();
        }
        if (response.status() != 200) {
            return response.status() + " " + response.body();
        }
        JsonNode cluster = response.json();
        long layout = cluster.get("layout").get("version").asLong();
        long up = 0;
        for (JsonNode node : cluster.get("nodes")) {
            up += "up".equals(node.get("state").asString()) ? 1 : 0;
        }
        if (layout < 1 || up != NODES.size()) {
            return "layout " + layout + ", " + up + " nodes up";
        }
        if (!replication.equals(cluster.get("replication").asString())) {
            return "replication " + cluster.get("replication").asString();
        }
        JsonNode groups = cluster.get("groups");
        if (replication.equals("raft") && groups.isEmpty()) {
            return "no Raft group yet";
        }
        for (JsonNode group : groups) {
            if (group.get("leader") == null || group.get("leader").isNull()) {
                return "group " + group.get("id").asString() + " has no leader";
            }
        }
        return null;
    }

    /** The end of every container's output, for failure messages. */
    private static String logs(List<GenericContainer<?>> nodes) {
        Map<String, GenericContainer<?>> byId = new LinkedHashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            byId.put(NODES.get(i), nodes.get(i));
        }
        return NodeContainers.logs(byId, 60);
    }

    private static long seconds(long nanos) {
        return TimeUnit.NANOSECONDS.toSeconds(nanos);
    }
}
