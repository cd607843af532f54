package dev.hangar.blockstore.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.AbstractBlockStoreContractTest;
import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.SyncPolicy;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract in batch mode, and the background sync that batch mode relies on. */
class LocalDiskBlockStoreBatchSyncTest extends AbstractBlockStoreContractTest {
    private static final Duration INTERVAL = Duration.ofMillis(20);
    /** Long enough that the thread never runs during a test: only close() or a writer forces. */
    private static final Duration NEVER = Duration.ofHours(1);

    @Override
    protected BlockStore createStore(Path tempDir) throws IOException {
        return BlockStores.localDisk(tempDir, SyncPolicy.batch(INTERVAL));
    }

    @Test
    void theBackgroundThreadForcesWrittenBlocksWithinAFewIntervals(@TempDir Path root) throws Exception {
        try (LocalDiskBlockStore store = LocalDiskBlockStore.open(root, SyncPolicy.batch(INTERVAL))) {
            for (int i = 0; i < 20; i++) {
                store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(100)));
            }

            long deadline = System.nanoTime() + INTERVAL.multipliedBy(50).toNanos();
            while (store.backgroundSyncedFiles() < 20 && System.nanoTime() < deadline) {
                Thread.sleep(INTERVAL.toMillis() / 2);
            }

            assertThat(store.backgroundSyncedFiles()).isEqualTo(20);
            assertThat(store.pendingSyncs()).isZero();
        }
    }

    @Test
    void closeForcesWhatIsStillPending(@TempDir Path root) throws IOException {
        LocalDiskBlockStore store = LocalDiskBlockStore.open(root, SyncPolicy.batch(NEVER));
        List<BlockId> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            BlockId id = BlockId.random();
            store.write(id, new ByteArrayInputStream(randomBytes(1000)));
            ids.add(id);
        }
        store.delete(ids.getFirst());
        assertThat(store.pendingSyncs()).isEqualTo(10);
        assertThat(store.backgroundSyncedFiles()).isZero();

        store.close();

        // The deleted block is skipped, not an error.
        assertThat(store.pendingSyncs()).isZero();
        assertThat(store.backgroundSyncedFiles()).isEqualTo(10);
        try (BlockStore reopened = BlockStores.localDisk(root, SyncPolicy.batch(NEVER))) {
            for (BlockId id : ids.subList(1, ids.size())) {
                assertThat(reopened.exists(id)).isTrue();
            }
        }
    }

    @Test
    void aWriterThatFindsTheQueueFullForcesItInline(@TempDir Path root) throws IOException {
        try (LocalDiskBlockStore store = LocalDiskBlockStore.open(root, SyncPolicy.batch(NEVER), 4)) {
            for (int i = 0; i < 3; i++) {
                store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(10)));
            }
            assertThat(store.pendingSyncs()).isEqualTo(3);

            store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(10)));

            assertThat(store.pendingSyncs()).isZero();
            assertThat(store.backgroundSyncedFiles()).isEqualTo(4);
        }
    }

    @Test
    void withoutABackgroundThreadTheOwnersSyncForcesWhatIsPending(@TempDir Path root) throws Exception {
        try (LocalDiskBlockStore store = LocalDiskBlockStore.open(root, SyncPolicy.batch(INTERVAL), false)) {
            for (int i = 0; i < 5; i++) {
                store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(100)));
            }
            // Many intervals pass, and nothing forces the blocks but the owner.
            Thread.sleep(INTERVAL.multipliedBy(5).toMillis());
            assertThat(store.pendingSyncs()).isEqualTo(5);
            assertThat(store.backgroundSyncedFiles()).isZero();

            store.sync();

            assertThat(store.pendingSyncs()).isZero();
            assertThat(store.backgroundSyncedFiles()).isEqualTo(5);
        }
    }

    @Test
    void withoutABackgroundThreadAFullQueueIsStillForcedInlineAndCloseForcesTheRest(@TempDir Path root)
            throws IOException {
        LocalDiskBlockStore store = LocalDiskBlockStore.open(root, SyncPolicy.batch(INTERVAL), 4, false);
        for (int i = 0; i < 4; i++) {
            store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(10)));
        }
        assertThat(store.pendingSyncs()).isZero();
        store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(10)));
        assertThat(store.pendingSyncs()).isEqualTo(1);

        store.close();

        assertThat(store.pendingSyncs()).isZero();
        assertThat(store.backgroundSyncedFiles()).isEqualTo(5);
        assertThatThrownBy(store::sync).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void otherPoliciesHaveNoBackgroundSync(@TempDir Path root) throws IOException {
        try (LocalDiskBlockStore store = LocalDiskBlockStore.open(root, SyncPolicy.NONE)) {
            store.write(BlockId.random(), new ByteArrayInputStream(randomBytes(10)));

            assertThat(store.pendingSyncs()).isZero();
            assertThat(store.backgroundSyncedFiles()).isZero();
        }
    }

    @Test
    void aBatchIntervalMustBePositive() {
        assertThatThrownBy(() -> SyncPolicy.batch(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SyncPolicy(SyncPolicy.Mode.ALWAYS, INTERVAL))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(SyncPolicy.batch(Duration.ofMillis(100))).hasToString("batch(100ms)");
    }
}
