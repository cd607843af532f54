package dev.hangar.distribution;

import dev.hangar.cluster.ClusterControl;
import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.cluster.Replication;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.membership.StagedChanges;
import dev.hangar.cluster.membership.StaleLayoutException;
import dev.hangar.cluster.rpc.NetworkFaults;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.convert.DurationStyle;

/**
 * The cluster control plane on the management port ({@code /actuator/cluster}): this node, the nodes it
 * knows and their state, the current layout and the staged changes; and staging, applying or clearing
 * layout changes.
 *
 * <p>On a node without cluster settings, a GET says that clustering is off and every POST is refused
 * with 409.
 */
@Endpoint(id = "cluster")
public class ClusterEndpoint {
    private static final int STATUS_CONFLICT = 409;
    static final String NOTE = "metadata and blocks are replicated on the layout's nodes; any node serves any"
            + " S3 request";
    static final String OFF = "clustering is off: start the node with hangar.cluster.enabled=true, seeds or"
            + " bootstrap-expect (HANGAR_CLUSTER_*)";

    private final Optional<ClusterControl> control;
    private final Replication replication;
    private final boolean faultInjection;

    ClusterEndpoint(ClusterNode node, boolean faultInjection) {
        this.control = node.control();
        this.replication = node.replication();
        this.faultInjection = faultInjection;
    }

    /** The answer to a GET on a node without cluster settings. */
    public record Off(boolean enabled, String message) {}

    /**
     * The answer to a GET; {@code replication} is the metadata's replication mode ({@code leaderless} or {@code
     * raft}), {@code groups} its consensus groups (Raft: members, this node's role, the leader it knows, term,
     * commit and applied index).
     */
    public record Status(boolean enabled, String node, Settings settings, List<Node> nodes, Layout layout,
            Staged staged, String replication, List<ConsensusGroup> groups, String note) {}

    /** This node's {@code hangar.cluster.*} settings as they took effect. */
    public record Settings(String zone, long capacity, String rpcAddress, List<String> seeds,
            int replicationFactor, String consistency, int bootstrapExpect) {}

    /** A known node, as this one sees it. */
    public record Node(String id, String state, String zone, long capacity, String address, String lastSeen,
            long layoutVersion, boolean self) {}

    /** A node's role in a layout: its zone, capacity and the partitions it holds a replica of. */
    public record Role(String id, String zone, long capacity, int partitions) {}

    /** A layout: version, partitions, replication factor and each node's role. */
    public record Layout(long version, int partitions, int replicationFactor, List<Role> nodes) {
        static Layout of(ClusterLayout layout) {
            Map<NodeId, Integer> counts = layout.partitionCounts();
            return new Layout(layout.version(), layout.partitions(), layout.replicationFactor(), layout.roles().stream()
                    .map(r -> new Role(r.id().value(), r.zone(), r.capacity(), counts.getOrDefault(r.id(), 0)))
                    .toList());
        }
    }

    /** A staged role change. */
    public record StagedRole(String id, String zone, long capacity) {}

    /** The changes waiting for the next apply. */
    public record Staged(List<StagedRole> roles, List<String> removals) {
        static Staged of(StagedChanges changes) {
            return new Staged(
                    changes.roles().values().stream()
                            .sorted(Comparator.comparing(NodeRole::id))
                            .map(r -> new StagedRole(r.id().value(), r.zone(), r.capacity()))
                            .toList(),
                    changes.removals().stream().sorted().map(NodeId::value).toList());
        }
    }

    /** Why a request was refused or failed. */
    public record Failure(String error) {}

    @ReadOperation
    public Object status() {
        if (control.isEmpty()) {
            return new Off(false, OFF);
        }
        ClusterControl cluster = control.get();
        ClusterSettings settings = cluster.settings();
        NodeId self = cluster.selfId();
        List<Node> nodes = new TreeMap<>(cluster.statuses()).values().stream()
                .map(s -> new Node(s.id().value(), s.state().name().toLowerCase(Locale.ROOT), s.zone(), s.capacity(),
                        text(s.address()), s.lastSeen().toString(), s.layoutVersion(), s.id().equals(self)))
                .toList();
        return new Status(true, self.value(),
                new Settings(settings.zone(), settings.capacity(), text(cluster.address()),
                        settings.seeds().stream().map(ClusterEndpoint::text).toList(), settings.replicationFactor(),
                        settings.consistency().name().toLowerCase(Locale.ROOT), settings.bootstrapExpect()),
                nodes, Layout.of(cluster.layout()), Staged.of(cluster.staged()),
                replication.mode().name().toLowerCase(Locale.ROOT), replication.groups(), NOTE);
    }

    /**
     * Changes the layout.
     *
     * @param action {@code stage} (a new node or a changed zone or capacity), {@code remove} (stage taking a
     *     node out), {@code apply} (the staged changes, as the next version) or {@code clear} (the staged changes)
     * @param node for stage and remove, the node's id
     * @param zone for stage, the node's zone; absent to keep its current one
     * @param capacity for stage, the node's capacity; absent to keep its current one
     * @param version for apply, the current layout version the changes were staged against; 409 if stale
     * @param delay for faults (only with {@code hangar.cluster.fault-injection=true}): the one-way delay
     *     of every message this node sends to another node, e.g. {@code 50ms}; {@code 0ms} removes it
     * @param jitter for faults: uniform extra delay up to this much
     */
    @WriteOperation
    public WebEndpointResponse<Object> change(String action, @Nullable String node, @Nullable String zone,
            @Nullable Long capacity, @Nullable Long version, @Nullable String delay, @Nullable String jitter) {
        if (control.isEmpty()) {
            return new WebEndpointResponse<>(new Failure(OFF), STATUS_CONFLICT);
        }
        ClusterControl cluster = control.get();
        try {
            switch (action.trim()) {
                case "stage" -> {
                    NodeId id = nodeId(node);
                    Optional<NodeRole> known = knownRole(cluster, id);
                    String newZone = zone != null && !zone.isBlank() ? zone.trim()
                            : known.map(NodeRole::zone).orElse(null);
                    Long newCapacity = capacity != null ? capacity : known.map(NodeRole::capacity).orElse(null);
                    if (newZone == null || newCapacity == null) {
                        return bad("node " + id + " is not known: give its zone and capacity");
                    }
                    cluster.stage(new NodeRole(id, newZone, newCapacity));
                }
                case "remove" -> cluster.stageRemoval(nodeId(node));
                case "clear" -> cluster.clearStaged();
                case "apply" -> {
                    if (version == null) {
                        return bad("apply needs the current layout version: {\"action\": \"apply\", \"version\": N}");
                    }
                    cluster.apply(version);
                }
                case "faults" -> {
                    if (!faultInjection) {
                        return new WebEndpointResponse<>(new Failure("fault injection is off: start the node with "
                                + "hangar.cluster.fault-injection=true (benchmarks and tests only)"), STATUS_CONFLICT);
                    }
                    Duration oneWay = duration(delay, "delay");
                    Duration spread = jitter == null || jitter.isBlank() ? Duration.ZERO : duration(jitter, "jitter");
                    cluster.faults().setDefault(new NetworkFaults.LinkFaults(oneWay, spread, 0));
                }
                default -> {
                    return bad("action must be stage, remove, apply, clear or faults: " + action);
                }
            }
        } catch (StaleLayoutException e) {
            return new WebEndpointResponse<>(new Failure(e.getMessage()), STATUS_CONFLICT);
        } catch (IllegalArgumentException e) {
            return bad(e.getMessage());
        } catch (IllegalStateException e) {
            return new WebEndpointResponse<>(new Failure(e.getMessage()), STATUS_CONFLICT);
        }
        return new WebEndpointResponse<>(status());
    }

    private static Duration duration(@Nullable String text, String name) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(name + " is required, e.g. 50ms");
        }
        return DurationStyle.detectAndParse(text.trim());
    }

    private static NodeId nodeId(@Nullable String node) {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("node is required");
        }
        return new NodeId(node.trim());
    }

    /** The role a node has now: staged, else in the layout, else as it announces itself. */
    private static Optional<NodeRole> knownRole(ClusterControl cluster, NodeId id) {
        NodeRole staged = cluster.staged().roles().get(id);
        if (staged != null) {
            return Optional.of(staged);
        }
        Optional<NodeRole> inLayout = cluster.layout().role(id);
        if (inLayout.isPresent()) {
            return inLayout;
        }
        return Optional.ofNullable(cluster.statuses().get(id)).map(PeerStatus::role);
    }

    private static WebEndpointResponse<Object> bad(String message) {
        return new WebEndpointResponse<>(new Failure(message), WebEndpointResponse.STATUS_BAD_REQUEST);
    }

    private static String text(InetSocketAddress address) {
        String host = address.getHostString();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort();
    }
}
