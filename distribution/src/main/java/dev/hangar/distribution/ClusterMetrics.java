package dev.hangar.distribution;

import dev.hangar.cluster.ClusterControl;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.ReplicationView;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code hangar.cluster.*}: the known nodes by state, as this node sees them (itself included), the
 * version of its current layout, and the work of replication: metadata operations and the sequential
 * inter-node rounds they cost, read repairs, block writes and reads with their rounds, and the resync
 * queue. Nothing is registered on a node without cluster settings. The rounds of each S3 request are
 * the {@code hangar.cluster.rounds} summary, recorded by the S3 layer.
 */
final class ClusterMetrics implements MeterBinder {
    private final Optional<ClusterControl> control;
    private final Optional<ReplicationView> replication;

    ClusterMetrics(ClusterNode node) {
        this.control = node.control();
        this.replication = node.replication();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
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
    }

    private static void bindReplication(MeterRegistry registry, ReplicationView view) {
        for (String operation : List.of("put", "get", "range")) {
            FunctionCounter.builder("hangar.cluster.metadata.operations", view,
                            v -> v.table().rounds().operations(operation))
                    .tag("operation", operation)
                    .description("Replicated metadata table operations this node coordinated")
                    .register(registry);
            FunctionCounter.builder("hangar.cluster.metadata.rounds", view, v -> v.table().rounds().rounds(operation))
                    .tag("operation", operation)
                    .description("Sequential inter-node rounds those operations cost")
                    .register(registry);
        }
        FunctionCounter.builder("hangar.cluster.metadata.read.repairs", view, v -> v.table().readRepairs())
                .description("Entries sent to replicas that reads found stale")
                .register(registry);
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
