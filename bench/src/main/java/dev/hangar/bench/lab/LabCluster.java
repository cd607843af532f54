package dev.hangar.bench.lab;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.Network.Ipam;
import dev.hangar.bench.proxy.DelayTable;
import dev.hangar.bench.proxy.ListenerSpec;
import dev.hangar.bench.proxy.ProxyConfig;
import dev.hangar.bench.proxy.ProxyLog;
import dev.hangar.bench.proxy.ProxyServer;
import dev.hangar.bench.proxy.ZoneMap;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.lifecycle.Startables;
import tools.jackson.databind.JsonNode;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A Hangar cluster in containers with a delay on every inter-node link: the topology's storage nodes
 * and one gateway ({@value #GATEWAY}, capacity 0), each a container of the image, and in front of
 * each a {@link ProxyServer} in this JVM that the other nodes reach it through.
 *
 * <p>Every node advertises the Docker network's gateway address (this machine, as the containers see
 * it) with port numbers of its own (RPC {@code 39N1}, Raft {@code 39N2} for the N-th node), so that
 * a peer's RPC and Raft traffic to it lands on its proxy, which forwards to the container. The proxy
 * tells the zone of a connecting node by its container address. S3 clients reach the nodes directly,
 * through the ports Docker publishes: the delay is between nodes, as in Garage's set-up.
 *
 * <p>A new delay restarts the proxies ({@link #delay}); the nodes reconnect. Closing stops the
 * proxies and removes the containers and the network (Ryuk is off on the project's machines).
 */
public final class LabCluster implements AutoCloseable {
    /** The gateway's node id. */
    public static final String GATEWAY = "gw";
    private static final NodeContainers.Secrets SECRETS = new NodeContainers.Secrets("HANGARLABACCESSKEY01",
            "hangar-lab-secret-key-0123456789abcdefgh", "hangar-lab-admin-token-0123456789abcdefg",
            "hangar-lab-cluster-secret-0123456789abcd");
    private static final Duration STARTUP = Duration.ofMinutes(5);
    private static final Duration FORMATION = Duration.ofMinutes(4);

    private final LabTopology topology;
    private final String replication;
    private final Network network;
    private final Map<String, GenericContainer<?>> nodes = new LinkedHashMap<>();
    private final Map<String, String> addresses = new LinkedHashMap<>();
    private final Map<String, AdminClient> admins = new LinkedHashMap<>();
    private final List<ProxyServer> proxies = new ArrayList<>();
    private final String hostAddress;
    private final List<S3Client> clients = new ArrayList<>();

    private LabCluster(LabTopology topology, String replication, Network network, String hostAddress) {
        this.topology = topology;
        this.replication = replication;
        this.network = network;
        this.hostAddress = hostAddress;
    }

    /**
     * Starts the containers of {@code image} with {@code replication} ({@code leaderless} or {@code raft}, and
     * for Raft the way reads are made linearizable, {@code raftReads}), puts the proxies in front of them with
     * no delay, and waits until the cluster has formed with every node in its layout.
     */
    public static LabCluster start(String image, LabTopology topology, String replication, String raftReads,
            Duration raftExpectedRtt) throws IOException, InterruptedException {
        LabDocker.configure();
        Network network = Network.newNetwork();
        LabCluster cluster;
        try {
            cluster = new LabCluster(topology, replication, network, gatewayAddress(network));
        } catch (RuntimeException e) {
            network.close();
            throw e;
        }
        try {
            cluster.startNodes(image, raftReads, raftExpectedRtt);
            cluster.delay(topology.delays(Duration.ZERO, 0));
            cluster.awaitFormed();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    private static String gatewayAddress(Network network) {
        DockerClient docker = DockerClientFactory.instance().client();
        Ipam ipam = docker.inspectNetworkCmd().withNetworkId(network.getId()).exec().getIpam();
        if (ipam == null || ipam.getConfig() == null || ipam.getConfig().isEmpty() || ipam.getConfig().getFirst().getGateway() == null) {
            throw new IllegalStateException("the Docker network " + network.getId() + " has no gateway address");
        }
        return ipam.getConfig().getFirst().getGateway();
    }

    private void startNodes(String image, String raftReads, Duration raftExpectedRtt) throws InterruptedException {
        List<String> ids = new ArrayList<>(topology.zones().keySet());
        String seeds = topology.storageIds().stream().map(id -> hostAddress + ":" + rpcPort(ids.indexOf(id)))
                .collect(Collectors.joining(","));
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            Map<String, String> env = NodeContainers.clusterEnv(SECRETS, id, topology.zones().get(id), replication);
            env.put("HANGAR_CLUSTER_CAPACITY", id.equals(GATEWAY) ? "0" : "1");
            env.put("HANGAR_CLUSTER_RPC_PORT", Integer.toString(rpcPort(i)));
            env.put("HANGAR_CLUSTER_RAFT_PORT", Integer.toString(raftPort(i)));
            env.put("HANGAR_CLUSTER_ADVERTISED_ADDRESS", hostAddress + ":" + rpcPort(i));
            env.put("HANGAR_CLUSTER_SEEDS", seeds);
            env.put("HANGAR_CLUSTER_BOOTSTRAP_EXPECT", Integer.toString(topology.storageNodes()));
            env.put("HANGAR_CLUSTER_RAFT_READS", raftReads);
            env.put("HANGAR_CLUSTER_RAFT_EXPECTED_RTT", raftExpectedRtt.toMillis() + "ms");
            GenericContainer<?> node = NodeContainers.node(image, network, id, env, STARTUP);
            nodes.put(id, node);
        }
        try {
            Startables.deepStart(nodes.values()).join();
        } catch (CompletionException e) {
            throw new IllegalStateException("the containers did not start\n" + logs(), e);
        }
        for (Map.Entry<String, GenericContainer<?>> node : nodes.entrySet()) {
            Map<String, ContainerNetwork> networks = node.getValue().getContainerInfo().getNetworkSettings().getNetworks();
            String address = networks.values().stream()
                    .filter(attached -> network.getId().equals(attached.getNetworkID()))
                    .map(ContainerNetwork::getIpAddress).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no address of " + node.getKey() + " on the lab network"));
            addresses.put(node.getKey(), address);
            admins.put(node.getKey(), new AdminClient(URI.create("http://" + node.getValue().getHost() + ":"
                    + node.getValue().getMappedPort(NodeContainers.MANAGEMENT_PORT)), SECRETS.adminToken()));
        }
    }

    private static int rpcPort(int index) {
        return 3901 + 10 * (index + 1);
    }

    private static int raftPort(int index) {
        return 3902 + 10 * (index + 1);
    }

    /** Replaces the proxies by ones with these delays; the nodes' connections are reset and reopened. */
    public void delay(DelayTable delays) throws IOException {
        closeProxies();
        List<String> ids = new ArrayList<>(topology.zones().keySet());
        List<ZoneMap.Rule> rules = new ArrayList<>();
        addresses.forEach((id, address) -> rules.add(ZoneMap.Rule.parse(address + "=" + topology.zones().get(id))));
        ZoneMap zones = new ZoneMap(rules, "client");
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            String zone = topology.zones().get(id);
            String address = addresses.get(id);
            List<ListenerSpec> listeners = List.of(new ListenerSpec(rpcPort(i), address, rpcPort(i), zone),
                    new ListenerSpec(raftPort(i), address, raftPort(i), zone));
            ProxyConfig config = ProxyConfig.of(listeners, zones, delays).withBindAddress(InetAddress.getByName(hostAddress));
            proxies.add(ProxyServer.start(config, ProxyLog.silent()));
        }
    }

    /**
     * Waits until every node has a layout with every node in it, sees every node up, and (Raft) knows the leader of
     * every group it is a member of.
     */
    public void awaitFormed() throws InterruptedException {
        long deadline = System.nanoTime() + FORMATION.toNanos();
        boolean gatewayStaged = false;
        Map<String, String> last = new TreeMap<>();
        while (true) {
            boolean formed = true;
            for (Map.Entry<String, AdminClient> admin : admins.entrySet()) {
                String problem = formationProblem(admin.getValue().cluster());
                last.put(admin.getKey(), problem == null ? "formed" : problem);
                formed &= problem == null;
            }
            if (formed) {
                return;
            }
            // Bootstrap plans the first layout from the nodes up at that moment; a gateway that came up
            // later joins by a layout change, as an operator would add it.
            if (!gatewayStaged && last.values().stream().anyMatch(problem -> problem.startsWith("gateway not in layout"))) {
                gatewayStaged = stageGateway();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the " + replication + " cluster " + topology + " did not form within "
                        + FORMATION + ": " + last + "\n" + logs());
            }
            Thread.sleep(250);
        }
    }

    private boolean stageGateway() {
        AdminClient admin = admins.get(topology.storageIds().getFirst());
        JsonNode status = admin.cluster();
        if (status == null) {
            return false;
        }
        long version = status.get("layout").get("version").asLong();
        try {
            admin.change("{\"action\":\"stage\",\"node\":\"" + GATEWAY + "\",\"zone\":\"" + topology.gatewayZone()
                    + "\",\"capacity\":0}");
            admin.change("{\"action\":\"apply\",\"version\":" + version + "}");
            return true;
        } catch (IllegalStateException refused) {
            // The layout moved on between the read and the apply (bootstrap still spreading, on a loaded machine):
            // the apply names a version that is no longer current. Staging again on the next poll is harmless.
            System.out.println("[consensus-lab] staging the gateway again later: " + refused.getMessage());
            return false;
        }
    }

    private @Nullable String formationProblem(@Nullable JsonNode cluster) {
        if (cluster == null) {
            return "no answer";
        }
        long layout = cluster.get("layout").get("version").asLong();
        long up = 0;
        for (JsonNode node : cluster.get("nodes").values()) {
            up += "up".equals(node.get("state").asString()) ? 1 : 0;
        }
        if (layout < 1 || up != nodes.size()) {
            return "layout " + layout + ", " + up + " nodes up";
        }
        boolean gatewayIn = false;
        for (JsonNode role : cluster.get("layout").get("nodes").values()) {
            gatewayIn |= GATEWAY.equals(role.get("id").asString());
        }
        if (!gatewayIn) {
            return "gateway not in layout " + layout;
        }
        if (replication.equals("raft")) {
            List<JsonNode> groups = cluster.get("groups").valueStream().toList();
            if (groups.isEmpty()) {
                return "no Raft group yet";
            }
            for (JsonNode group : groups) {
                // A node knows the leaders of its own groups only; a gateway is a member of none.
                boolean member = group.path("member").asBoolean(false);
                if (member && (group.path("leader").isNull() || group.path("leader").isMissingNode())) {
                    return "group " + group.get("id").asString() + " has no leader";
                }
            }
        }
        return null;
    }

    /** How many Raft groups {@code node} leads, of how many, as "k/m"; empty in the leaderless mode. */
    public String leadership(String node) {
        if (!replication.equals("raft")) {
            return "";
        }
        JsonNode cluster = admins.get(node).cluster();
        return cluster == null ? "?" : led(cluster, node) + "/" + cluster.get("groups").size();
    }

    /** How many Raft groups {@code node} leads, as it says; 0 in the leaderless mode or when it does not answer. */
    int groupsLed(String node) {
        JsonNode cluster = replication.equals("raft") ? admins.get(node).cluster() : null;
        return cluster == null ? 0 : led(cluster, node);
    }

    private static int led(JsonNode cluster, String node) {
        return (int) cluster.get("groups").valueStream().filter(group -> node.equals(group.get("leader").asString())).count();
    }

    public LabTopology topology() {
        return topology;
    }

    public String replication() {
        return replication;
    }

    /** The node ids, storage nodes first, the gateway last. */
    public List<String> ids() {
        return List.copyOf(nodes.keySet());
    }

    /** A client of {@code node}'s S3 port (closed with the cluster). */
    public S3Client s3(String node) {
        S3Client client = LabClients.s3(endpoint(node), SECRETS.accessKey(), SECRETS.secretKey());
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    public URI endpoint(String node) {
        GenericContainer<?> container = nodes.get(node);
        return URI.create("http://" + container.getHost() + ":" + container.getMappedPort(NodeContainers.S3_PORT));
    }

    /** {@code node}'s management API. */
    public AdminClient admin(String node) {
        return admins.get(node);
    }

    /** Kills {@code node}'s JVM with SIGKILL (docker kill), as a crash would. */
    public void kill(String node) {
        GenericContainer<?> container = nodes.get(node);
        DockerClientFactory.instance().client().killContainerCmd(container.getContainerId()).withSignal("KILL").exec();
    }

    /** The end of every container's output, for failure messages. */
    public String logs() {
        return NodeContainers.logs(nodes, 40);
    }

    private void closeProxies() {
        proxies.forEach(ProxyServer::close);
        proxies.clear();
    }

    @Override
    public void close() {
        synchronized (clients) {
            clients.forEach(S3Client::close);
            clients.clear();
        }
        closeProxies();
        admins.values().forEach(AdminClient::close);
        nodes.values().forEach(GenericContainer::stop);
        network.close();
    }
}
