package dev.hangar.cluster.layout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Computes a new {@link ClusterLayout} from the previous one and the current node roles.
 *
 * <p>Three goals, in this order of precedence:
 *
 * <ol>
 *   <li><b>Zones</b>: every partition has {@code r = min(replicationFactor, storage nodes)} distinct
 *       replicas in at least {@code min(r, zones)} distinct zones, so losing a whole zone loses at
 *       most one replica of anything when there are enough zones.
 *   <li><b>Capacity</b>: each node's partition count ("quota") is its capacity share of all
 *       {@code partitions * r} replica slots, water-filled so that a zone never gets more slots than
 *       its share of each partition allows and a node never more than one slot per partition.
 *   <li><b>Few moves</b>: every replica of the previous layout that is still valid stays, nodes above
 *       their new quota give up only their excess, and only the freed or empty slots are refilled.
 * </ol>
 *
 * <p>Garage solves the same problem exactly with a max-flow; here a greedy fill (biggest remaining
 * quota first) with a one-step exchange repair is enough: at 256 partitions and a handful of nodes
 * it reaches the quotas exactly in every case the tests exercise, and where it cannot (zone rules
 * fighting capacity) it stays off by a partition or two rather than breaking the zone rule.
 *
 * <p>The result depends only on the inputs: nodes are ordered by id and ties are broken by a fixed
 * hash of (partition, node id), so every node that plans from the same inputs gets the same layout.
 */
public final class LayoutPlanner {
    private LayoutPlanner() {}

    /** Plans with the previous layout's partition count, or {@link ClusterLayout#DEFAULT_PARTITIONS} for a first plan. */
    public static ClusterLayout plan(@Nullable ClusterLayout previous, List<NodeRole> roles, int replicationFactor) {
        int partitions = previous != null ? previous.partitions() : ClusterLayout.DEFAULT_PARTITIONS;
        return plan(previous, roles, replicationFactor, partitions);
    }

    /**
     * Plans a layout with {@code partitions} partitions, version {@code previous.version() + 1} (1 for
     * a first plan). The previous assignment is reused only when its partition count matches.
     */
    public static ClusterLayout plan(
            @Nullable ClusterLayout previous, List<NodeRole> roles, int replicationFactor, int partitions) {
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("replication factor must be positive: " + replicationFactor);
        }
        List<NodeRole> sorted = new ArrayList<>(roles);
        sorted.sort(Comparator.comparing(NodeRole::id));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).id().equals(sorted.get(i - 1).id())) {
                throw new IllegalArgumentException("node listed twice: " + sorted.get(i).id());
            }
        }
        List<NodeRole> storage = sorted.stream().filter(NodeRole::isStorage).toList();
        @Nullable ClusterLayout reusable = previous != null && previous.partitions() == partitions ? previous : null;

        Assignment assignment = new Assignment(storage, partitions, Math.min(replicationFactor, storage.size()));
        if (reusable != null) {
            assignment.keep(reusable);
        }
        assignment.setQuotas(Quotas.compute(assignment));
        assignment.shedExcess();
        assignment.fill();
        assignment.rebalance();

        long version = previous == null ? 1 : previous.version() + 1;
        return new ClusterLayout(version, partitions, replicationFactor, sorted, assignment.toLists());
    }

    /** A fixed, well-mixed hash of (partition, node) for tie-breaks that spread rather than cluster. */
    static long mix(int partition, NodeId node) {
        long x = partition * 0x9E3779B97F4A7C15L ^ node.value().hashCode() * 0xC2B2AE3D27D4EB4FL;
        x ^= x >>> 33;
        x *= 0xFF51AFD7ED558CCDL;
        x ^= x >>> 33;
        x *= 0xC4CEB9FE1A85EC53L;
        x ^= x >>> 33;
        return x;
    }

    /** The mutable working state of one plan: node indices, zone indices and the replica table. */
    static final class Assignment {
        final List<NodeRole> nodes;
        final int partitions;
        final int replicas;
        final int zones;
        final int minZones;
        final int[] zoneOf;
        final int[][] table;
        final int[] size;
        final int[] count;
        int[] quota;
        private final Map<NodeId, Integer> index = new HashMap<>();

        Assignment(List<NodeRole> nodes, int partitions, int replicas) {
            this.nodes = nodes;
            this.partitions = partitions;
            this.replicas = replicas;
            List<String> zoneNames = new ArrayList<>(new TreeSet<>(nodes.stream().map(NodeRole::zone).toList()));
            this.zones = zoneNames.size();
            this.minZones = Math.min(replicas, zones);
            this.zoneOf = new int[nodes.size()];
            for (int n = 0; n < nodes.size(); n++) {
                zoneOf[n] = Collections.binarySearch(zoneNames, nodes.get(n).zone());
                index.put(nodes.get(n).id(), n);
            }
            this.table = new int[partitions][replicas];
            this.size = new int[partitions];
            this.count = new int[nodes.size()];
            this.quota = new int[nodes.size()];
        }

        void setQuotas(int[] quotas) {
            this.quota = quotas;
        }

        /** Keeps every previous replica that is still a storage node and still fits the zone rule. */
        void keep(ClusterLayout previous) {
            for (int p = 0; p < partitions; p++) {
                for (NodeId id : previous.replicas(p)) {
                    Integer n = index.get(id);
                    if (n != null && canAdd(p, n)) {
                        add(p, n);
                    }
                }
            }
        }

        /**
         * Takes nodes above their quota out of partitions until they are at quota. Partitions where
         * a node still short of its quota could take the freed slot go first, then partitions where
         * the node's zone is doubled: both keep the later fill from needing exchanges, which cost
         * an extra move each.
         */
        void shedExcess() {
            for (int o = 0; o < nodes.size(); o++) {
                int excess = count[o] - quota[o];
                if (excess <= 0) {
                    continue;
                }
                final int node = o;
                List<Integer> held = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    if (contains(p, o)) {
                        held.add(p);
                    }
                }
                held.sort(Comparator.<Integer>comparingInt(p -> replaceableByShortNode(p, node) ? 0 : 1)
                        .thenComparingInt(p -> zoneCount(p, zoneOf[node]) > 1 ? 0 : 1)
                        .thenComparingLong(p -> mix(p, nodes.get(node).id())));
                for (int i = 0; i < excess; i++) {
                    remove(held.get(i), o);
                }
            }
        }

        /** Fills empty slots one round at a time, so that early partitions do not take all the best nodes. */
        void fill() {
            boolean progress = true;
            while (progress) {
                progress = false;
                for (int p = 0; p < partitions; p++) {
                    if (size[p] < replicas && fillOne(p)) {
                        progress = true;
                    }
                }
            }
        }

        private boolean fillOne(int p) {
            int best = -1;
            for (int n = 0; n < nodes.size(); n++) {
                if (quota[n] - count[n] > 0 && canAdd(p, n) && better(p, n, best)) {
                    best = n;
                }
            }
            if (best >= 0) {
                add(p, best);
                return true;
            }
            if (exchangeInto(p)) {
                return true;
            }
            // No node short of its quota fits: overfill the least loaded node that does.
            for (int n = 0; n < nodes.size(); n++) {
                if (canAdd(p, n) && (best < 0 || count[n] - quota[n] < count[best] - quota[best]
                        || (count[n] - quota[n] == count[best] - quota[best] && tieBefore(p, n, best)))) {
                    best = n;
                }
            }
            if (best < 0) {
                return false;
            }
            add(p, best);
            return true;
        }

        private boolean better(int p, int n, int best) {
            if (best < 0) {
                return true;
            }
            int dn = quota[n] - count[n];
            int db = quota[best] - count[best];
            return dn != db ? dn > db : tieBefore(p, n, best);
        }

        private boolean tieBefore(int p, int n, int other) {
            return mix(p, nodes.get(n).id()) < mix(p, nodes.get(other).id());
        }

        /**
         * Fills a slot of {@code p} that no node short of its quota can take: some node x that fits
         * {@code p} moves there from a partition q where a short node y can take its place.
         */
        private boolean exchangeInto(int p) {
            for (int y = 0; y < nodes.size(); y++) {
                if (quota[y] - count[y] <= 0) {
                    continue;
                }
                for (int x = 0; x < nodes.size(); x++) {
                    if (x == y || !canAdd(p, x)) {
                        continue;
                    }
                    for (int q = 0; q < partitions; q++) {
                        if (q != p && contains(q, x) && canReplace(q, x, y)) {
                            replace(q, x, y);
                            add(p, x);
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        /** Moves replicas from nodes above quota to nodes below it, where the overfill of {@link #fill} left any. */
        void rebalance() {
            for (int o = 0; o < nodes.size(); o++) {
                for (int u = 0; u < nodes.size() && count[o] > quota[o]; u++) {
                    for (int p = 0; p < partitions && count[o] > quota[o] && count[u] < quota[u]; p++) {
                        if (contains(p, o) && canReplace(p, o, u)) {
                            replace(p, o, u);
                        }
                    }
                }
            }
        }

        private boolean replaceableByShortNode(int p, int o) {
            for (int u = 0; u < nodes.size(); u++) {
                if (quota[u] - count[u] > 0 && canReplace(p, o, u)) {
                    return true;
                }
            }
            return false;
        }

        boolean contains(int p, int n) {
            for (int i = 0; i < size[p]; i++) {
                if (table[p][i] == n) {
                    return true;
                }
            }
            return false;
        }

        private int zoneCount(int p, int zone) {
            int c = 0;
            for (int i = 0; i < size[p]; i++) {
                if (zoneOf[table[p][i]] == zone) {
                    c++;
                }
            }
            return c;
        }

        private int distinctZones(int p, int without, int with) {
            boolean[] seen = new boolean[zones];
            int distinct = 0;
            for (int i = 0; i < size[p]; i++) {
                int n = table[p][i];
                if (n != without && !seen[zoneOf[n]]) {
                    seen[zoneOf[n]] = true;
                    distinct++;
                }
            }
            if (with >= 0 && !seen[zoneOf[with]]) {
                distinct++;
            }
            return distinct;
        }

        // The zone rule as an invariant on partial partitions: the zones already present plus one
        // new zone per empty slot must still reach minZones.
        boolean canAdd(int p, int n) {
            if (size[p] >= replicas || contains(p, n)) {
                return false;
            }
            return distinctZones(p, -1, n) + (replicas - size[p] - 1) >= minZones;
        }

        boolean canReplace(int p, int out, int in) {
            if (contains(p, in)) {
                return false;
            }
            return distinctZones(p, out, in) + (replicas - size[p]) >= minZones;
        }

        void add(int p, int n) {
            table[p][size[p]++] = n;
            count[n]++;
        }

        void remove(int p, int n) {
            for (int i = 0; i < size[p]; i++) {
                if (table[p][i] == n) {
                    System.arraycopy(table[p], i + 1, table[p], i, size[p] - i - 1);
                    size[p]--;
                    count[n]--;
                    return;
                }
            }
        }

        // In place, so that the replica order of the untouched replicas survives.
        void replace(int p, int out, int in) {
            for (int i = 0; i < size[p]; i++) {
                if (table[p][i] == out) {
                    table[p][i] = in;
                    count[out]--;
                    count[in]++;
                    return;
                }
            }
        }

        List<List<NodeId>> toLists() {
            List<List<NodeId>> lists = new ArrayList<>(partitions);
            for (int p = 0; p < partitions; p++) {
                List<NodeId> replicaIds = new ArrayList<>(size[p]);
                for (int i = 0; i < size[p]; i++) {
                    replicaIds.add(nodes.get(table[p][i]).id());
                }
                lists.add(replicaIds);
            }
            return lists;
        }
    }
}
