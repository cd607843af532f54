package dev.hangar.distribution;

import dev.hangar.cluster.ClusterControl;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.membership.PeerStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code hangar.cluster.*}: the known nodes by state, as this node sees them (itself included), and the
 * version of its current layout. Nothing is registered on a node without cluster settings.
 */
final class ClusterMetrics implements MeterBinder {
    private final Optional<ClusterControl> control;

    ClusterMetrics(ClusterNode node) {
        this.control = node.control();
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
    }
}
