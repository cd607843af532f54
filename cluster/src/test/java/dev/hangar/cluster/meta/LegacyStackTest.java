package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.command.VersionChange;
import dev.hangar.metadata.listing.ByteKeys;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data the previous release wrote: each object key's whole version stack in one entry at sort key
 * {@code K}, put into the table here as that release did ({@link LegacyStacks}). The store reads such
 * keys as their versions, and their first mutation, through any node, rewrites them into one entry
 * per version and a tombstone of the stack, in one write.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LegacyStackTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final List<String> NODES = List.of("a", "b", "c");

    @TempDir
    Path dir;

    private MetaCluster cluster;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
        store("a").createBucket(new BucketRecord("plain", NOW, "us-east-1"));
        store("a").createBucket(new BucketRecord("versioned", NOW, "us-east-1"));
        store("a").putBucketConfig("versioned", "versioning", "<Status>Enabled</Status>".getBytes(UTF_8));
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    private ReplicatedMetadataStore store(String node) {
        return cluster.node(node).store();
    }

    private static ObjectVersion version(String bucket, String key, String versionId, BlockRef... blocks) {
        long size = 0;
        for (BlockRef block : blocks) {
            size += block.size();
        }
        return new ObjectVersion(bucket, key, versionId, NOW, size, "\"" + versionId + "\"",
                new ObjectContent.Blocks(List.of(blocks)), Map.of(), Map.of(), null, List.of());
    }

    private static ObjectVersion marker(String bucket, String key, String versionId) {
        return new ObjectVersion(bucket, key, versionId, NOW, 0, "\"\"", new ObjectContent.DeleteMarker(), Map.of(),
                Map.of(), null, List.of());
    }

    /** Writes a key's stack as the previous release did: one put of one entry, through node a's table. */
    private void writeLegacy(String bucket, String key, ObjectVersion... newestFirst) {
        cluster.node("a").table()
                .put(MetaKeys.objects(bucket), ByteKeys.utf8(key), LegacyStacks.encode(List.of(newestFirst))).join();
    }

    private Optional<Entry> legacyEntryOn(String node, String bucket, String key) {
        return cluster.node(node).local().get(MetaKeys.objects(bucket), ByteKeys.utf8(key));
    }

    private List<String> listed(String node, String bucket) {
        List<String> listed = new ArrayList<>();
        for (ListedVersion version : store(node).listVersions(bucket, new VersionQuery("", null, null, null, 100))
                .versions()) {
            listed.add(version.version().key() + " " + version.version().versionId() + (version.latest() ? " latest" : ""));
        }
        return listed;
    }

    private static BlockRef block() {
        return new BlockRef(BlockId.random(), 10, 1);
    }

    @Test
    void aLegacyStackReadsAsItsVersionsThroughEveryNode() {
        ObjectVersion v3 = version("versioned", "cat", "v3", block());
        ObjectVersion nullVersion = version("versioned", "cat", "null", block());
        ObjectVersion v1 = version("versioned", "cat", "v1", block());
        writeLegacy("versioned", "cat", v3, nullVersion, v1);
        writeLegacy("versioned", "gone", marker("versioned", "gone", "m2"), version("versioned", "gone", "g1", block()));

        for (String node : NODES) {
            assertThat(store(node).getObject("versioned", "cat")).contains(v3);
            assertThat(store(node).getVersion("versioned", "cat", "v1")).contains(v1);
            assertThat(store(node).getVersion("versioned", "cat", "null")).contains(nullVersion);
            assertThat(store(node).getVersion("versioned", "cat", "v9")).isEmpty();
            assertThat(store(node).listObjects("versioned", new ListQuery("", null, null, 10)).entries())
                    .containsExactly(v3);
            assertThat(listed(node, "versioned"))
                    .containsExactly("cat v3 latest", "cat null", "cat v1", "gone m2 latest", "gone g1");
        }
    }

    @Test
    void theFirstMutationMigratesTheStackAndKeepsEveryVersion() throws Exception {
        ObjectVersion v3 = version("versioned", "cat", "v3", block());
        BlockRef nullBlock = block();
        ObjectVersion nullVersion = version("versioned", "cat", "null", nullBlock);
        ObjectVersion v1 = version("versioned", "cat", "v1", block());
        writeLegacy("versioned", "cat", v3, nullVersion, v1);

        ObjectVersion v4 = version("versioned", "cat", "v4", block());
        store("b").putObject(v4);

        for (String node : NODES) {
            assertThat(listed(node, "versioned")).containsExactly("cat v4 latest", "cat v3", "cat null", "cat v1");
            assertThat(store(node).getVersion("versioned", "cat", "v1")).contains(v1);
        }
        // The stack's entry is a tombstone on the write quorum (and, once it arrived, everywhere).
        assertThat(NODES.stream().filter(node -> legacyEntryOn(node, "versioned", "cat")
                .map(Entry::isTombstone).orElse(false)).count()).isGreaterThanOrEqualTo(2);

        // Later mutations work on the migrated entries: a change, a removal that frees the blocks.
        store("c").changeVersion("versioned", "cat", "null", new VersionChange.SetTags(Map.of("t", "1")));
        assertThat(store("a").getVersion("versioned", "cat", "null")).contains(nullVersion.withTags(Map.of("t", "1")));
        assertThat(store("a").deleteVersion("versioned", "cat", "null")).contains(nullVersion.withTags(Map.of("t", "1")));
        assertThat(listed("b", "versioned")).containsExactly("cat v4 latest", "cat v3", "cat v1");
        assertThat(store("a").pendingGarbage(10)).containsExactly(nullBlock.id());
    }

    @Test
    void aBlindOverwriteOrDeleteOfALegacyKeyMigratesItInASecondRound() throws Exception {
        BlockRef oldBlock = block();
        ObjectVersion old = version("plain", "photo", "null", oldBlock);
        writeLegacy("plain", "photo", old);
        writeLegacy("plain", "doomed", version("plain", "doomed", "null", block()));
        assertThat(store("b").listObjects("plain", new ListQuery("", null, null, 10)).entries()).hasSize(2);

        ObjectVersion replacing = version("plain", "photo", "null", block());
        assertThat(store("b").putObject(replacing)).contains(old);
        assertThat(store("c").deleteObject("plain", "doomed")).isPresent();

        for (String node : NODES) {
            assertThat(store(node).getObject("plain", "photo")).contains(replacing);
            assertThat(store(node).getObject("plain", "doomed")).isEmpty();
            assertThat(listed(node, "plain")).containsExactly("photo null latest");
        }
        assertThat(store("b").pendingGarbage(10)).containsExactly(oldBlock.id());
        assertThat(NODES.stream().filter(node -> legacyEntryOn(node, "plain", "photo")
                .map(Entry::isTombstone).orElse(false)).count()).isGreaterThanOrEqualTo(2);
    }
}
