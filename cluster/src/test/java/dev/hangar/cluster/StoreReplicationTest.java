package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataStores;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.Refusal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The single node's replication policy, on a real RocksDB store: outcomes, stats, no rounds. */
class StoreReplicationTest {
    private static final Instant NOW = Instant.parse("2026-11-26T00:00:00Z");

    @TempDir
    Path dir;

    private MetadataStore store;
    private StoreReplication replication;

    @BeforeEach
    void open() {
        store = MetadataStores.rocksDb(new RocksDbConfig(dir, SyncPolicy.NONE, 8 << 20, true));
        replication = new StoreReplication(ReplicationMode.SINGLE_NODE, store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aCommandIsAppliedOnceAtomicallyAndCostsNoRound() {
        Applied<Boolean> created = replication.submit(new MetadataCommand.CreateBucket(
                new BucketRecord("photos", NOW, "us-east-1")));

        assertThat(created.outcome()).isEqualTo(Outcome.done(true));
        assertThat(created.exactlyOnce()).isTrue();
        assertThat(created.rounds()).isZero();
        assertThat(replication.mode()).isEqualTo(ReplicationMode.SINGLE_NODE);
    }

    @Test
    void refusalsComeBackAsOutcomesAndChangeNothing() {
        Applied<?> refused = replication.submit(new MetadataCommand.PutVersion(
                inline("nowhere", "k"), new Precondition.None(), LockCheck.NONE));

        assertThat(refused.outcome()).isInstanceOfSatisfying(Outcome.Refused.class,
                outcome -> assertThat(outcome.reason()).isEqualTo(Refusal.NO_SUCH_BUCKET));
        assertThat(replication.state().getObject("nowhere", "k")).isEmpty();
    }

    @Test
    void theStateSubmitsItsMutationsAndCountsCommandsAndReadsByKind() throws Exception {
        MetadataStore state = replication.state();
        state.createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        state.putObject(inline("photos", "a"));
        state.putObject(inline("photos", "b"));
        state.getObject("photos", "a");
        state.putServiceConfig("kms-key", "key-1", new byte[] {1});
        state.getServiceConfig("kms-key", "key-1");
        state.listServiceConfigs("kms-key");

        assertThat(replication.stats().commands()).containsEntry("CreateBucket", new ReplicationStats.Totals(1, 0))
                .containsEntry("PutVersion", new ReplicationStats.Totals(2, 0))
                .containsEntry("PutServiceConfig", new ReplicationStats.Totals(1, 0));
        assertThat(replication.stats().reads()).containsEntry("getObject", new ReplicationStats.Totals(1, 0))
                .containsEntry("getServiceConfig", new ReplicationStats.Totals(1, 0))
                .containsEntry("listServiceConfigs", new ReplicationStats.Totals(1, 0));
        assertThat(ReplicationStats.commandKinds()).contains("PutVersion", "ChangeAccessKey", "PutServiceConfig")
                .hasSize(16);
        assertThat(ReplicationStats.READS).containsAll(replication.stats().reads().keySet());
    }

    private static ObjectVersion inline(String bucket, String key) {
        byte[] data = key.getBytes(StandardCharsets.UTF_8);
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"e\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }
}
