package dev.hangar.cluster.meta;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.HybridLogicalClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A coordinator of the random-history tests: its clock and what of the others' writes has reached it, merged by
 * {@link MetadataMergeRule}.
 */
record TestCoordinator(HybridLogicalClock clock, TreeMap<byte[], Entry> view) {
    /** One coordinator per node, their clocks all reading {@code millis}. */
    static List<TestCoordinator> of(List<NodeId> nodes, AtomicLong millis) {
        List<TestCoordinator> coordinators = new ArrayList<>();
        for (NodeId node : nodes) {
            coordinators.add(new TestCoordinator(new HybridLogicalClock(node, millis::get, Duration.ofDays(1)),
                    new TreeMap<>(Arrays::compareUnsigned)));
        }
        return coordinators;
    }

    void merge(Entry entry) {
        view.merge(entry.sortKey(), entry, MetadataMergeRule.INSTANCE::merge);
    }
}
