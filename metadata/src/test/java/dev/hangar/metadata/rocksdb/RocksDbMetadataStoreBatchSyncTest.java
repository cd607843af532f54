package dev.hangar.metadata.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.AbstractMetadataStoreContractTest;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataStores;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract with batch durability: unsynced log writes and a background log sync. */
class RocksDbMetadataStoreBatchSyncTest extends AbstractMetadataStoreContractTest {
    private static final Duration INTERVAL = Duration.ofMillis(20);

    @TempDir
    Path directory;

    @Override
    protected MetadataStore openStore() {
        return MetadataStores.rocksDb(new RocksDbConfig(directory, SyncPolicy.batch(INTERVAL), 8L << 20));
    }

    @Test
    void theWriteAheadLogIsSyncedInTheBackground(@TempDir Path batchDirectory) throws Exception {
        RocksDbConfig config = new RocksDbConfig(batchDirectory, SyncPolicy.batch(INTERVAL), 8L << 20);
        try (RocksDbMetadataStore batch = RocksDbMetadataStore.open(config)) {
            batch.createBucket(bucket("photos"));
            batch.putObject(inline("photos", "cat.jpg", "meow"));

            long deadline = System.nanoTime() + INTERVAL.multipliedBy(50).toNanos();
            while (batch.backgroundWalSyncs() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(INTERVAL.toMillis() / 2);
            }

            assertThat(batch.backgroundWalSyncs()).isGreaterThanOrEqualTo(2);
        }
        try (MetadataStore reopened = RocksDbMetadataStore.open(config)) {
            assertThat(reopened.getObject("photos", "cat.jpg")).contains(inline("photos", "cat.jpg", "meow"));
        }
    }

    @Test
    void withoutABackgroundThreadOnlyTheOwnersSyncAndCloseSyncTheLog(@TempDir Path batchDirectory)
            throws Exception {
        RocksDbConfig config = new RocksDbConfig(batchDirectory, SyncPolicy.batch(INTERVAL), 8L << 20, false);
        RocksDbMetadataStore batch = RocksDbMetadataStore.open(config);
        batch.createBucket(bucket("photos"));
        Thread.sleep(INTERVAL.multipliedBy(5).toMillis());
        assertThat(batch.backgroundWalSyncs()).isZero();

        batch.sync();
        assertThat(batch.backgroundWalSyncs()).isEqualTo(1);

        batch.close();
        assertThat(batch.backgroundWalSyncs()).isEqualTo(2);
        assertThatThrownBy(batch::sync).isInstanceOf(IllegalStateException.class);
        try (MetadataStore reopened = RocksDbMetadataStore.open(config)) {
            assertThat(reopened.getBucket("photos")).isPresent();
        }
    }

    @Test
    void closeSyncsTheLogOnceMore(@TempDir Path batchDirectory) {
        RocksDbConfig config = new RocksDbConfig(batchDirectory, SyncPolicy.batch(Duration.ofHours(1)), 8L << 20);
        RocksDbMetadataStore batch = RocksDbMetadataStore.open(config);
        batch.createBucket(bucket("photos"));
        assertThat(batch.backgroundWalSyncs()).isZero();

        batch.close();

        assertThat(batch.backgroundWalSyncs()).isEqualTo(1);
        try (MetadataStore reopened = RocksDbMetadataStore.open(config)) {
            assertThat(reopened.getBucket("photos")).isPresent();
        }
    }
}
