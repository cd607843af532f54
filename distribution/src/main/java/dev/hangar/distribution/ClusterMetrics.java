package dev.hangar.distribution;

import dev.hangar.cluster.ClusterControl;
import dev.hangar.cluster.ConsensusGroup;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.Replication;
import dev.hangar.cluster.ReplicationStats;
import dev.hangar.cluster.ReplicationView;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code hangar.metadata.*}: the metadata commands and reads this node coordinated, by kind, and the
 * sequential inter-node rounds they cost, counted by the replication policy so that they mean the
 * same in every mode (0 on a single node), plus the records read repair sent. {@code
 * hangar.cluster.*}, on a node with cluster settings: the known nodes by state, as this node sees
 * them (itself included), the version of its current layout, block writes and reads with their
 * rounds, and the resync queue. The rounds of each S3 request are the {@code hangar.cluster.rounds}
 * summary, recorded by the S3 layer.
 */
final class ClusterMetrics implements MeterBinder {
    private final Optional<ClusterControl> control;
    private final Optional<ReplicationView> replication;
    private final Replication metadata;

    ClusterMetrics(ClusterNode node) {
        this.control = node.control();
        this.replication = node.replicas();
        this.metadata = node.replication();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        bindMetadata(registry, metadata);
        if (control.isEmpty()) {
            return;
        }
        ClusterControl cluster = control.get();
        for (PeerStatus.State state : PeerStatus.State.values()) {
            Gauge.builder("hangar.cluster.nodes", cluster,
                            c -> c.statuses().values().stream().filter(s -> s.state() == state).count())
                    .tag("state", state.name().toLowerCase(Locale.ROOT))
                    .description("Known nodes in this state, as this node sees them, itself included")
                    .register(registry);
        }
        Gauge.builder("hangar.cluster.layout.version", cluster, c -> c.layout().version())
                .description("Version of this node's current layout; 0 before the first one")
                .register(registry);
        replication.ifPresent(view -> bindReplication(registry, view));
        // The Raft mode forms its groups on the first layout, which may come after start.
        Set<String> bound = ConcurrentHashMap.newKeySet();
        Runnable bindGroups = () -> metadata.groups().forEach(group -> {
            if (bound.add(group.id())) {
                bindGroup(registry, metadata, group.id());
            }
        });
        bindGroups.run();
        cluster.addLayoutListener(layout -> bindGroups.run());
    }

    // Gauges of one consensus group; -1 where this node is not a member.
    private static void bindGroup(MeterRegistry registry, Replication replication, String id) {
        Gauge.builder("hangar.raft.leader", replication, r -> group(r, id).map(g -> g.role().equals("leader") ? 1 : 0)
                        .orElse(0))
                .tag("group", id).description("1 while this node leads the Raft group, else 0").register(registry);
        Gauge.builder("hangar.raft.term", replication, r -> group(r, id).map(ConsensusGroup::term).orElse(-1L))
                .tag("group", id).description("The Raft group's current term, as this node sees it")
                .register(registry);
        Gauge.builder("hangar.raft.commit.index", replication,
                        r -> group(r, id).map(ConsensusGroup::commitIndex).orElse(-1L))
                .tag("group", id).description("The last log index this node knows committed in the group")
                .register(registry);
        Gauge.builder("hangar.raft.applied.index", replication,
                        r -> group(r, id).map(ConsensusGroup::appliedIndex).orElse(-1L))
                .tag("group", id).description("The last log index this node applied in the group")
                .register(registry);
    }

    private static Optional<ConsensusGroup> group(Replication replication, String id) {
        return replication.groups().stream().filter(group -> group.id().equals(id)).findFirst();
    }

    private static void bindMetadata(MeterRegistry registry, Replication replication) {
        ReplicationStats stats = replication.stats();
        String mode = replication.mode().name().toLowerCase(Locale.ROOT);
        for (String command : ReplicationStats.commandKinds()) {
            FunctionCounter.builder("hangar.metadata.commands", stats, s -> totals(s.commands(), command).operations())
                    .tag("command", command).tag("mode", mode)
                    .description("Metadata commands this node submitted to its replication policy")
                    .register(registry);
            FunctionCounter.builder("hangar.metadata.command.rounds", stats, s -> totals(s.commands(), command).rounds())
                    .tag("command", command).tag("mode", mode)
                    .description("Sequential inter-node rounds those commands cost")
                    .register(registry);
        }
        for (String read : ReplicationStats.READS) {
            FunctionCounter.builder("hangar.metadata.reads", stats, s -> totals(s.reads(), read).operations())
                    .tag("read", read).tag("mode", mode)
                    .description("Metadata reads this node served")
                    .register(registry);
            FunctionCounter.builder("hangar.metadata.read.rounds", stats, s -> totals(s.reads(), read).rounds())
                    .tag("read", read).tag("mode", mode)
                    .description("Sequential inter-node rounds those reads cost")
                    .register(registry);
        }
        FunctionCounter.builder("hangar.metadata.read.repairs", stats, ReplicationStats::repairs)
                .tag("mode", mode)
                .description("Records sent to replicas that reads found behind")
                .register(registry);
    }

    private static ReplicationStats.Totals totals(Map<String, ReplicationStats.Totals> byKind, String kind) {
        return byKind.getOrDefault(kind, new ReplicationStats.Totals(0, 0));
    }

    private static void bindReplication(MeterRegistry registry, ReplicationView view) {
        FunctionCounter.builder("hangar.cluster.blocks.writes", view, v -> v.blocks().stats().writes())
                .description("Block writes this node coordinated").register(registry);
        FunctionCounter.builder("hangar.cluster.blocks.write.rounds", view, v -> v.blocks().stats().writeRounds())
                .description("Sequential inter-node rounds of those writes").register(registry);
        FunctionCounter.builder("hangar.cluster.blocks.reads", view, v -> v.blocks().stats().reads())
                .description("Block reads this node coordinated").register(registry);
        FunctionCounter.builder("hangar.cluster.blocks.read.rounds", view, v -> v.blocks().stats().readRounds())
                .description("Sequential inter-node rounds of those reads").register(registry);
        FunctionCounter.builder("hangar.cluster.blocks.read.fallbacks", view, v -> v.blocks().stats().readFallbacks())
                .description("Replicas asked after the closest one failed, missed or was corrupt")
                .register(registry);
        Gauge.builder("hangar.cluster.resync.pending", view, v -> v.blocks().resyncQueue().pending().size())
                .description("Block copies and deletes waiting for their replica").register(registry);
    }
}
