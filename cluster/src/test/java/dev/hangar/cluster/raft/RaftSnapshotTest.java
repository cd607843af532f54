package dev.hangar.cluster.raft;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.ratis.server.RaftServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots and log purging: with a snapshot every 20 entries and 64 KiB log segments, a follower stopped while 300
 * objects are written finds, when it returns, that the leader has purged the log it missed, is sent the leader's
 * snapshot, rebuilds its store from it and catches up; its own replica, read directly, then holds every object.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RaftSnapshotTest {
    private static final Instant NOW = Instant.parse("2026-11-26T00:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String BUCKET = "snapshots";
    private static final int OBJECTS = 300;

    @TempDir
    Path dir;

    @Test
    void aFollowerBehindThePurgedLogIsSentTheSnapshotAndCatchesUp() throws Exception {
        try (RaftCluster cluster = RaftCluster.start(dir, 3, RaftCluster.smallSnapshots(RaftSettings.Reads.LEASE))) {
            cluster.node(0).metadata().createBucket(new BucketRecord(BUCKET, NOW, "us-east-1"));
            int follower = followerOf(cluster);
            int leader = leaderOf(cluster);
            Runnable restart = cluster.stop(follower);

            MetadataStore through = cluster.node(leader).metadata();
            String padding = "x".repeat(400);
            for (int i = 0; i < OBJECTS; i++) {
                through.putObject(inline("key-" + i, padding + i));
            }
            RaftServer.Division leading = RaftCluster.raft(cluster.node(leader)).divisionOf(BUCKET).orElseThrow();
            await(() -> leading.getRaftLog().getStartIndex() > 5,
                    "the leader purges its log up to a snapshot (start index " + leading.getRaftLog().getStartIndex()
                            + ")");

            restart.run();
            ClusterNode returned = cluster.node(follower);
            long commit = leading.getRaftLog().getLastCommittedIndex();
            await(() -> RaftCluster.raft(returned).divisionOf(BUCKET)
                            .map(division -> division.getInfo().getLastAppliedIndex() >= commit).orElse(false),
                    "the returned follower applies up to the leader's commit index " + commit);

            MetadataStore replica = RaftCluster.raft(returned).replicaOf(BUCKET).orElseThrow();
            for (int i = 0; i < OBJECTS; i++) {
                String expected = padding + i;
                assertThat(replica.getObject(BUCKET, "key-" + i)).as("key-%d in the returned node's own replica", i)
                        .hasValueSatisfying(version -> assertThat(((ObjectContent.Inline) version.content()).data())
                                .asString(StandardCharsets.UTF_8).isEqualTo(expected));
            }
            Path snapshots = dir.resolve("n" + (follower + 1)).resolve("cluster").resolve("raft");
            try (Stream<Path> files = Files.walk(snapshots)) {
                assertThat(files.filter(path -> path.toString().contains("snapshots" + java.io.File.separator))
                        .filter(path -> path.getFileName().toString().equals("CURRENT")).toList())
                        .as("a snapshot in the returned node's group folder").isNotEmpty();
            }
        }
    }

    private static ObjectVersion inline(String key, String text) {
        byte[] data = text.getBytes(StandardCharsets.UTF_8);
        return new ObjectVersion(BUCKET, key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"etag\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    private static int leaderOf(RaftCluster cluster) throws InterruptedException {
        int[] found = {-1};
        await(() -> {
            for (int i = 0; i < cluster.nodes().size(); i++) {
                if (RaftCluster.raft(cluster.node(i)).divisionOf(BUCKET).map(d -> d.getInfo().isLeader()).orElse(false)) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        }, "a leader of the bucket's group");
        return found[0];
    }

    private static int followerOf(RaftCluster cluster) throws InterruptedException {
        int leader = leaderOf(cluster);
        return (leader + 1) % cluster.nodes().size();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what);
            }
            Thread.sleep(50);
        }
    }
}
