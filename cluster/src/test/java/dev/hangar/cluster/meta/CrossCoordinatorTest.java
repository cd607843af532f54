package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.VersionQuery;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the leaderless store guarantees across coordinators, pinned: a condition is checked against
 * the coordinator's own quorum read, so two conditional writes through two nodes at the same moment
 * can both succeed (a Raft mode, which orders all commands, will show one winner here). With 150 ms
 * injected between nodes both reads are over before either write reaches a replica, so the race
 * happens every time rather than by chance. What the writes leave still converges: one current
 * version on every node, and in a versioned bucket both versions.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrossCoordinatorTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final List<String> NODES = List.of("a", "b", "c");

    @TempDir
    Path dir;

    private MetaCluster cluster;

    @BeforeEach
    void startCluster() throws InterruptedException {
        cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private ReplicatedMetadataStore store(String node) {
        return cluster.node(node).store();
    }

    private static ObjectVersion version(String bucket, String key, String versionId, String text) {
        byte[] data = text.getBytes(UTF_8);
        return new ObjectVersion(bucket, key, versionId, NOW, data.length, "\"" + text + "\"",
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    @Test
    void twoIfNoneMatchPutsThroughTwoNodesBothSucceedAndConverge() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        ObjectVersion fromA = version("photos", "k", ObjectVersion.NULL_VERSION, "from a");
        ObjectVersion fromB = version("photos", "k", ObjectVersion.NULL_VERSION, "from b");

        assertThat(racingIfAbsent(fromA, fromB)).containsExactly(true, true);

        Optional<ObjectVersion> current = store("a").getObject("photos", "k");
        assertThat(current.orElseThrow()).isIn(fromA, fromB);
        for (String node : NODES) {
            assertThat(store(node).getObject("photos", "k")).isEqualTo(current);
            assertThat(store(node).listVersions("photos", new VersionQuery("", null, null, null, 10)).versions())
                    .hasSize(1);
        }
    }

    @Test
    void twoIfNoneMatchPutsOfVersionsThroughTwoNodesBothSucceedAndBothVersionsStay() throws Exception {
        store("a").createBucket(new BucketRecord("photos", NOW, "us-east-1"));
        ObjectVersion fromA = version("photos", "k", "from-a", "from a");
        ObjectVersion fromB = version("photos", "k", "from-b", "from b");

        assertThat(racingIfAbsent(fromA, fromB)).containsExactly(true, true);

        for (String node : NODES) {
            assertThat(store(node).listVersions("photos", new VersionQuery("", null, null, null, 10)).versions())
                    .extracting(listed -> listed.version().versionId())
                    .containsExactlyInAnyOrder("from-a", "from-b");
        }
    }

    /** Puts {@code throughA} through node a and {@code throughB} through node b at once, both If-None-Match: *. */
    private List<Boolean> racingIfAbsent(ObjectVersion throughA, ObjectVersion throughB) throws Exception {
        // Both nodes have the bucket in their settings cache: the race is about the key alone.
        for (String node : NODES) {
            assertThat(store(node).getBucket("photos")).isPresent();
        }
        cluster.faults.setDefault(new NetworkFaults.LinkFaults(Duration.ofMillis(150), Duration.ZERO, 0));
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<Boolean> a = executor.submit(() -> {
                start.await();
                return succeeds(store("a"), throughA);
            });
            Future<Boolean> b = executor.submit(() -> {
                start.await();
                return succeeds(store("b"), throughB);
            });
            start.countDown();
            return List.of(a.get(), b.get());
        } finally {
            cluster.faults.setDefault(NetworkFaults.LinkFaults.NONE);
        }
    }

    private static boolean succeeds(ReplicatedMetadataStore store, ObjectVersion version) throws Exception {
        try {
            store.putObject(version, new Precondition.IfAbsent());
            return true;
        } catch (dev.hangar.metadata.PreconditionFailedException refused) {
            return false;
        }
    }
}
