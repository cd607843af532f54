package dev.hangar.distribution;

import dev.hangar.cluster.ClusterControl;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.PeerStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code /actuator/health} component {@code quorum}, part of readiness: DOWN while this node sees fewer of some
 * partition's replicas up than a write needs (the layout's replicas of the partition, counted with this node's
 * view of who is up), since writes of the keys of that partition through this node then fail; UP otherwise,
 * and always on a node without cluster settings. A node waiting for its cluster's first layout has no partition
 * to be short of and reports UP: the administration that stages the layout waits for a healthy node.
 */
final class QuorumHealth implements HealthIndicator {
    private final Optional<ClusterControl> control;

    QuorumHealth(ClusterNode node) {
        this.control = node.control();
    }

    @Override
    public Health health() {
        if (control.isEmpty()) {
            return Health.up().withDetail("cluster", false).build();
        }
        ClusterControl cluster = control.get();
        ClusterLayout layout = cluster.layout();
        Map<NodeId, PeerStatus> statuses = cluster.statuses();
        int quorum = cluster.settings().consistency().writeQuorum(layout.replicationFactor());
        int withoutQuorum = 0;
        TreeSet<String> down = new TreeSet<>();
        for (List<NodeId> replicas : layout.assignment()) {
            int up = 0;
            for (NodeId replica : replicas) {
                PeerStatus status = statuses.get(replica);
                if (status != null && status.state() == PeerStatus.State.UP) {
                    up++;
                } else {
                    down.add(replica.toString());
                }
            }
            if (up < Math.min(quorum, replicas.size())) {
                withoutQuorum++;
            }
        }
        Health.Builder health = withoutQuorum == 0 ? Health.up() : Health.down();
        return health.withDetail("layoutVersion", layout.version())
                .withDetail("writeQuorum", quorum)
                .withDetail("partitions", layout.assignment().size())
                .withDetail("partitionsWithoutQuorum", withoutQuorum)
                .withDetail("replicasNotUp", List.copyOf(down))
                .build();
    }
}
