package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.Applied;
import dev.hangar.cluster.ReplicationMode;
import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.StoreReplication;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.state.Outcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leaderless replication policy on three nodes on loopback: commands and reads cost rounds, which
 * the policy reports per command, counts by kind, and adds to the request's tally.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LeaderlessReplicationTest {
    private static final Instant NOW = Instant.parse("2026-11-26T00:00:00Z");

    @TempDir
    Path dir;

    private MetaCluster cluster;
    private StoreReplication replication;

    @BeforeEach
    void start() throws InterruptedException {
        cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
        replication = new StoreReplication(ReplicationMode.LEADERLESS, cluster.node("a").store(),
                cluster.node("a").table()::readRepairs);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aWriteCostsAtLeastOneRoundAndIsNotExactlyOnce() {
        Applied<Boolean> created = replication.submit(new MetadataCommand.CreateBucket(
                new BucketRecord("photos", NOW, "us-east-1")));
        RoundTrips.Tally request = new RoundTrips.Tally();
        Applied<?> put;
        try (RoundTrips.Binding counting = RoundTrips.bind(request)) {
            put = replication.submit(new MetadataCommand.PutVersion(inline("photos", "cat"), new Precondition.None(),
                    LockCheck.NONE));
        }

        assertThat(created.outcome()).isEqualTo(Outcome.done(true));
        assertThat(created.exactlyOnce()).isFalse();
        // Node a replicates every partition, so its own copy is free; the other replicas are one round away.
        assertThat(created.rounds()).isGreaterThanOrEqualTo(1);
        assertThat(put.rounds()).isGreaterThanOrEqualTo(1);
        assertThat(request.metadata()).as("the request's tally gets the command's rounds").isEqualTo(put.rounds());
        assertThat(replication.stats().commands().get("PutVersion").rounds()).isEqualTo(put.rounds());
    }

    @Test
    void readsThroughTheStateAreCountedWithTheirRounds() {
        replication.state().createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        replication.state().getObject("photos", "absent");

        assertThat(replication.stats().reads().get("getObject").operations()).isEqualTo(1);
        // A quorum of two: at least one other replica is asked.
        assertThat(replication.stats().reads().get("getObject").rounds()).isGreaterThanOrEqualTo(1);
    }

    private static ObjectVersion inline(String bucket, String key) {
        byte[] data = key.getBytes(StandardCharsets.UTF_8);
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"e\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }
}
