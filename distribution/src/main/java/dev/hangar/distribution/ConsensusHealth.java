package dev.hangar.distribution;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.cluster.Replication;
import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * {@code /actuator/health} component {@code consensus}: DOWN while a consensus group this node is a member of has
 * no leader it knows (an election in progress, or this node cut off from a majority), since metadata requests
 * through this node then fail; UP otherwise, and always in the modes without consensus.
 */
final class ConsensusHealth implements HealthIndicator {
    private final Replication replication;

    ConsensusHealth(ClusterNode node) {
        this.replication = node.replication();
    }

    @Override
    public Health health() {
        List<ConsensusGroup> groups = replication.groups();
        List<String> leaderless = groups.stream().filter(ConsensusGroup::member)
                .filter(group -> !group.hasLeader()).map(ConsensusGroup::id).toList();
        Health.Builder health = leaderless.isEmpty() ? Health.up() : Health.down();
        return health.withDetail("mode", replication.mode().name().toLowerCase(java.util.Locale.ROOT))
                .withDetail("groups", groups.size())
                .withDetail("groupsWithoutLeader", leaderless)
                .build();
    }
}
