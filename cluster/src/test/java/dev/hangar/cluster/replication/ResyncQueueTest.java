package dev.hangar.cluster.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutPlanner;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.replication.ResyncQueue.Copy;
import dev.hangar.cluster.replication.ResyncQueue.Delete;
import dev.hangar.cluster.replication.ResyncStore.Contents;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResyncQueueTest {
    private static final NodeId B = new NodeId("node-b");
    private static final NodeId C = new NodeId("node-c");

    @TempDir
    Path dir;

    private Contents reopened() throws Exception {
        try (RocksDbResyncStore store = RocksDbResyncStore.open(dir)) {
            return store.load();
        }
    }

    @Test
    void aStoreGivesBackItsCopiesDeletesAndReleases() throws Exception {
        Copy checked = new Copy(BlockId.random(), 12_345, -7, B);
        Copy unchecked = new Copy(BlockId.random(), 0, null, C);
        Delete delete = new Delete(BlockId.random(), C);
        BlockId released = BlockId.random();
        try (RocksDbResyncStore store = RocksDbResyncStore.open(dir)) {
            assertThat(store.load()).isEqualTo(Contents.EMPTY);
            store.put(checked);
            store.put(unchecked);
            store.put(delete);
            store.putRelease(released);
        }
        Contents loaded = reopened();
        assertThat(loaded.tasks()).containsExactlyInAnyOrder(checked, unchecked, delete);
        assertThat(loaded.releases()).containsExactly(released);
    }

    @Test
    void oneTaskPerBlockAndTargetTheLaterWins() throws Exception {
        BlockId block = BlockId.random();
        Copy copy = new Copy(block, 10, 1, B);
        Delete delete = new Delete(block, B);
        Copy elsewhere = new Copy(block, 10, 1, C);
        try (RocksDbResyncStore store = RocksDbResyncStore.open(dir)) {
            store.put(copy);
            store.put(copy);
            store.put(elsewhere);
            store.put(delete);
        }
        assertThat(reopened().tasks()).containsExactlyInAnyOrder(delete, elsewhere);
    }

    @Test
    void removedTasksAndReleasesAreGone() throws Exception {
        Copy copy = new Copy(BlockId.random(), 10, 1, B);
        Delete delete = new Delete(BlockId.random(), C);
        BlockId released = BlockId.random();
        try (RocksDbResyncStore store = RocksDbResyncStore.open(dir)) {
            store.put(copy);
            store.put(delete);
            store.putRelease(released);
            store.remove(copy);
            store.removeRelease(released);
        }
        assertThat(reopened()).isEqualTo(new Contents(List.of(delete), Set.of()));
    }

    @Test
    void writesAfterCloseAreDroppedQuietly() throws Exception {
        RocksDbResyncStore store = RocksDbResyncStore.open(dir);
        store.close();
        store.put(new Delete(BlockId.random(), B));
        store.close();
        assertThat(reopened()).isEqualTo(Contents.EMPTY);
    }

    /** A local copy is released only on the word of a whole replica set of storage nodes of the layout. */
    @Test
    void releasesNeedAWholeReplicaSetOfLayoutMembers() {
        NodeId a = new NodeId("node-a");
        ClusterLayout layout = LayoutPlanner.plan(null, List.of(new NodeRole(a, "z1", 1), new NodeRole(B, "z2", 1),
                new NodeRole(C, "z3", 1), new NodeRole(new NodeId("gateway"), "z1", 0)), 3);
        List<NodeId> owners = layout.replicas(0);
        assertThat(owners).hasSize(3);

        assertThat(ResyncQueue.fullReplicaSet(owners, layout)).isTrue();
        assertThat(ResyncQueue.fullReplicaSet(owners.subList(0, 2), layout)).as("one owner short").isFalse();
        assertThat(ResyncQueue.fullReplicaSet(List.of(), layout)).isFalse();
        assertThat(ResyncQueue.fullReplicaSet(List.of(a, B, new NodeId("evil")), layout)).as("a stranger").isFalse();
        assertThat(ResyncQueue.fullReplicaSet(List.of(a, B, new NodeId("gateway")), layout)).as("a gateway").isFalse();
    }
}
