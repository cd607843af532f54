package dev.hangar.cluster.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.listing.ByteKeys;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Opens the metadata tables of a three-node cluster that the previous release's own code wrote
 * (commit 3bd78f1^, one whole-stack entry per object key): {@code previous-release-3bd78f1.hex}
 * holds every node's RocksDB pairs, raw, and its header says how they were made. They are written
 * back byte for byte into fresh table folders with the plain RocksDB API, today's cluster starts
 * on them, and the data set reads back through every node, then takes new writes on its keys.
 *
 * <p>The data set, as the header's writer put it: buckets {@code legacy-plain} (a CORS document)
 * and {@code legacy-versioned} (versioning Enabled, as the S3 layer stores it); in the plain
 * bucket an inline object with a checksum, an object of two blocks, one of two parts (part sizes)
 * and an inline one that the test overwrites; in the versioned bucket {@code report.csv} with a
 * null version written before versioning was enabled and three versions after it (inline,
 * blocks, inline), {@code old.txt} with a version under a delete marker, {@code held.pdf} with
 * tags, a legal hold and an owner; a multipart upload of {@code video.mp4} with one part; an
 * access key granted both buckets.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PreviousReleaseDataTest {
    private static final String DUMP = "previous-release-3bd78f1.hex";
    private static final List<String> NODES = List.of("a", "b", "c");
    private static final Instant T = Instant.parse("2026-03-04T05:06:07Z");
    private static final String PLAIN = "legacy-plain";
    private static final String VERSIONED = "legacy-versioned";
    private static final String UPLOAD_ID = "upload-legacy-0001";
    private static final String KEY_ID = "AKIDLEGACY000001";

    // The data set, built as the writer in the dump's header built it.
    private static final BucketRecord PLAIN_BUCKET = new BucketRecord(PLAIN, T, "us-east-1");
    private static final BucketRecord VERSIONED_BUCKET = new BucketRecord(VERSIONED, T.plusSeconds(1), "eu-west-1");
    private static final String CORS = "<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod>"
            + "<AllowedOrigin>*</AllowedOrigin></CORSRule></CORSConfiguration>";
    private static final String VERSIONING = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            + "<VersioningConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            + "<Status>Enabled</Status></VersioningConfiguration>";
    private static final ObjectVersion README = new ObjectVersion(PLAIN, "docs/readme.txt", "null",
            T.plusSeconds(10), 31, "\"etag-readme\"",
            new ObjectContent.Inline("hello from the previous release".getBytes(UTF_8)),
            Map.of("Content-Type", "text/plain"), Map.of("author", "legacy"), new Checksum("CRC32C", "AAAAAA=="),
            List.of());
    private static final ObjectVersion BLOB =
            blocks(PLAIN, "data/blob.bin", "null", 11, List.of(), block(1, 1048576), block(2, 4096));
    private static final ObjectVersion MULTI = blocks(PLAIN, "data/multi.bin", "null", 12, List.of(5242880L, 100L),
            block(3, 5242880), block(4, 100));
    private static final ObjectVersion OVERWRITTEN = inline(PLAIN, "zz-overwrite.txt", "null", 13, "first");
    private static final ObjectVersion REPORT_NULL = inline(VERSIONED, "report.csv", "null", 20, "a,b\n0,0\n");
    private static final ObjectVersion REPORT_1 = inline(VERSIONED, "report.csv", id(1), 21, "a,b\n1,1\n");
    private static final ObjectVersion REPORT_2 = blocks(VERSIONED, "report.csv", id(2), 22, List.of(), block(5, 2048));
    private static final ObjectVersion REPORT_3 = inline(VERSIONED, "report.csv", id(3), 23, "a,b\n3,3\n");
    private static final ObjectVersion OLD = inline(VERSIONED, "old.txt", id(4), 24, "soon deleted");
    private static final ObjectVersion OLD_MARKER = new ObjectVersion(VERSIONED, "old.txt", id(5), T.plusSeconds(25),
            0, "\"\"", new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null, List.of());
    private static final ObjectVersion HELD = new ObjectVersion(VERSIONED, "held.pdf", id(6), T.plusSeconds(26), 8192,
            "\"etag-held\"", new ObjectContent.Blocks(List.of(block(6, 8192))),
            Map.of("Content-Type", "application/pdf"), Map.of(), null, List.of(),
            Map.of("project", "apollo", "class", "secret"), new ObjectLock(null, null, true), null, KEY_ID);
    private static final MultipartUpload UPLOAD = new MultipartUpload(VERSIONED, "video.mp4", UPLOAD_ID,
            T.plusSeconds(30), Map.of("Content-Type", "video/mp4"), Map.of("camera", "a"), null);
    private static final Part PART =
            new Part(UPLOAD_ID, 1, T.plusSeconds(31), 5242880, "\"etag-part-1\"", List.of(block(7, 5242880)), null);
    private static final AccessKey ACCESS_KEY = new AccessKey(KEY_ID, "legacy-secret-0123456789abcdef",
            T.plusSeconds(2), false, Map.of(PLAIN, new BucketPermission(true, true, false),
                    VERSIONED, new BucketPermission(true, false, false)), false);

    @TempDir
    Path dir;

    private final Map<String, List<byte[][]>> pairs = new LinkedHashMap<>();
    private MetaCluster cluster;

    @BeforeEach
    void openThePreviousReleasesTables() throws Exception {
        readDump();
        RocksDB.loadLibrary();
        for (String node : NODES) {
            Path folder = dir.resolve(node).resolve("table");
            Files.createDirectories(folder);
            try (Options options = new Options().setCreateIfMissing(true);
                    RocksDB db = RocksDB.open(options, folder.toString())) {
                for (byte[][] pair : pairs.get(node)) {
                    db.put(pair[0], pair[1]);
                }
            }
        }
        cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private ReplicatedMetadataStore store(String node) {
        return cluster.node(node).store();
    }

    @Test
    void theTablesAreThePreviousReleasesByteForByteInTheSameLayout() throws RocksDBException {
        assertThat(cluster.layout.partitions()).isEqualTo(ClusterLayout.DEFAULT_PARTITIONS);
        for (String node : NODES) {
            assertThat(pairs.get(node)).hasSize(14);
            for (byte[][] pair : pairs.get(node)) {
                // A key is the partition (2 bytes), the partition key's length (4), the partition key, the sort key:
                // today's table puts each partition key in the partition the previous release put it in.
                ByteBuffer key = ByteBuffer.wrap(pair[0]);
                int partition = Short.toUnsignedInt(key.getShort());
                byte[] partitionKey = new byte[key.getInt()];
                key.get(partitionKey);
                assertThat(cluster.node(node).local().partitionOf(partitionKey)).isEqualTo(partition);
            }
        }
        // Untouched until a mutation: what the nodes hold after opening is what was written.
        cluster.close();
        for (String node : NODES) {
            List<byte[][]> held = new ArrayList<>();
            try (Options options = new Options();
                    RocksDB db = RocksDB.openReadOnly(options, dir.resolve(node).resolve("table").toString());
                    RocksIterator it = db.newIterator()) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    held.add(new byte[][] {it.key(), it.value()});
                }
            }
            assertThat(held).usingElementComparator(PreviousReleaseDataTest::comparePairs)
                    .containsExactlyElementsOf(pairs.get(node));
        }
        cluster = null;
    }

    @Test
    void everyRecordReadsBackThroughEveryNode() {
        for (String node : NODES) {
            ReplicatedMetadataStore store = store(node);
            assertThat(store.listBuckets()).as(node).containsExactly(PLAIN_BUCKET, VERSIONED_BUCKET);
            assertThat(store.getBucket(VERSIONED)).as(node).contains(VERSIONED_BUCKET);
            assertThat(store.getBucketConfig(PLAIN, "cors")).as(node).hasValue(CORS.getBytes(UTF_8));
            assertThat(store.getBucketConfig(VERSIONED, "versioning")).as(node).hasValue(VERSIONING.getBytes(UTF_8));
            assertThat(store.getBucketConfig(PLAIN, "versioning")).as(node).isEmpty();

            for (ObjectVersion plain : List.of(README, BLOB, MULTI, OVERWRITTEN)) {
                assertThat(store.getObject(PLAIN, plain.key())).as(node).contains(plain);
                assertThat(store.getVersion(PLAIN, plain.key(), "null")).as(node).contains(plain);
            }
            assertThat(store.getObject(VERSIONED, "report.csv")).as(node).contains(REPORT_3);
            for (ObjectVersion version : List.of(REPORT_NULL, REPORT_1, REPORT_2, REPORT_3, OLD, OLD_MARKER, HELD)) {
                assertThat(store.getVersion(VERSIONED, version.key(), version.versionId())).as(node).contains(version);
            }
            assertThat(store.getObject(VERSIONED, "old.txt")).as(node).contains(OLD_MARKER);
            assertThat(store.getObject(VERSIONED, "held.pdf")).as(node).contains(HELD);

            assertThat(store.getUpload(VERSIONED, "video.mp4", UPLOAD_ID)).as(node).contains(UPLOAD);
            assertThat(store.getPart(UPLOAD_ID, 1)).as(node).contains(PART);
            assertThat(store.listParts(UPLOAD_ID, 0, 10).parts()).as(node).containsExactly(PART);
            assertThat(store.listUploads(VERSIONED, "", null, null, null, 10).uploads()).as(node)
                    .containsExactly(UPLOAD);

            assertThat(store.getAccessKey(KEY_ID)).as(node).contains(ACCESS_KEY);
            assertThat(store.listAccessKeys()).as(node).containsExactly(ACCESS_KEY);

            Set<BlockId> referenced = new HashSet<>();
            store.forEachBlockReference(ref -> referenced.add(ref.id()));
            Set<BlockId> written = new HashSet<>();
            for (int n = 1; n <= 7; n++) {
                written.add(block(n, 0).id());
            }
            assertThat(referenced).as(node).isEqualTo(written);
        }
    }

    @Test
    void listingsAreRightThroughEveryNode() {
        for (String node : NODES) {
            ReplicatedMetadataStore store = store(node);
            assertThat(store.listObjects(PLAIN, new ListQuery("", null, null, 100)).entries()).as(node)
                    .containsExactly(BLOB, MULTI, README, OVERWRITTEN);
            assertThat(store.listObjects(PLAIN, new ListQuery("", "/", null, 100)).commonPrefixes()).as(node)
                    .containsExactly("data/", "docs/");
            // old.txt's current version is a delete marker: it is not listed.
            assertThat(store.listObjects(VERSIONED, new ListQuery("", null, null, 100)).entries()).as(node)
                    .containsExactly(HELD, REPORT_3);
            assertThat(listed(store, VERSIONED)).as(node).containsExactly(
                    "held.pdf " + id(6) + " latest",
                    "old.txt " + id(5) + " latest marker",
                    "old.txt " + id(4),
                    "report.csv " + id(3) + " latest",
                    "report.csv " + id(2),
                    "report.csv " + id(1),
                    "report.csv null");
            assertThat(listed(store, PLAIN)).as(node).containsExactly("data/blob.bin null latest",
                    "data/multi.bin null latest", "docs/readme.txt null latest", "zz-overwrite.txt null latest");
            // A page boundary inside the migrated stack resumes after the marker's version.
            assertThat(store.listVersions(VERSIONED, new VersionQuery("report.csv", null, "report.csv", id(2), 10))
                    .versions()).as(node).extracting(listedVersion -> listedVersion.version().versionId())
                    .containsExactly(id(1), "null");
        }
    }

    @Test
    void newWritesOnMigratedKeysKeepTheOldVersionsAndAreSeenThroughTheOtherNodes() throws Exception {
        ObjectVersion report4 = inline(VERSIONED, "report.csv", id(7), 40, "a,b\n4,4\n");
        assertThat(store("a").putObject(report4)).isEmpty();
        ObjectVersion rewritten = inline(PLAIN, "zz-overwrite.txt", "null", 41, "second");
        assertThat(store("b").putObject(rewritten)).contains(OVERWRITTEN);
        assertThat(store("c").deleteVersion(VERSIONED, "old.txt", id(5))).contains(OLD_MARKER);
        ObjectVersion video = new ObjectVersion(VERSIONED, "video.mp4", id(8), T.plusSeconds(42), 5242880,
                "\"etag-video-1\"", new ObjectContent.Blocks(PART.blocks()), Map.of("Content-Type", "video/mp4"),
                Map.of("camera", "a"), null, List.of(5242880L));
        assertThat(store("a").completeUpload(UPLOAD, video)).isEmpty();
        // Each mutated key's whole-stack entry is a tombstone on the write quorum: it was migrated.
        for (String key : List.of("report.csv", "old.txt")) {
            assertThat(NODES.stream().filter(node -> legacyEntryIsTombstone(node, VERSIONED, key)).count()).as(key)
                    .isGreaterThanOrEqualTo(2);
        }
        assertThat(NODES.stream().filter(node -> legacyEntryIsTombstone(node, PLAIN, "zz-overwrite.txt")).count())
                .isGreaterThanOrEqualTo(2);

        for (String node : NODES) {
            ReplicatedMetadataStore store = store(node);
            assertThat(store.getObject(VERSIONED, "report.csv")).as(node).contains(report4);
            for (ObjectVersion old : List.of(REPORT_NULL, REPORT_1, REPORT_2, REPORT_3)) {
                assertThat(store.getVersion(VERSIONED, "report.csv", old.versionId())).as(node).contains(old);
            }
            assertThat(store.getObject(PLAIN, "zz-overwrite.txt")).as(node).contains(rewritten);
            assertThat(store.getObject(VERSIONED, "old.txt")).as(node).contains(OLD);
            assertThat(store.getObject(VERSIONED, "video.mp4")).as(node).contains(video);
            assertThat(store.getUpload(VERSIONED, "video.mp4", UPLOAD_ID)).as(node).isEmpty();
            assertThat(store.getPart(UPLOAD_ID, 1)).as(node).isEmpty();
            assertThat(listed(store, VERSIONED)).as(node).containsExactly(
                    "held.pdf " + id(6) + " latest",
                    "old.txt " + id(4) + " latest",
                    "report.csv " + id(7) + " latest",
                    "report.csv " + id(3),
                    "report.csv " + id(2),
                    "report.csv " + id(1),
                    "report.csv null",
                    "video.mp4 " + id(8) + " latest");
            assertThat(listed(store, PLAIN)).as(node).containsExactly("data/blob.bin null latest",
                    "data/multi.bin null latest", "docs/readme.txt null latest", "zz-overwrite.txt null latest");
            assertThat(store.listObjects(VERSIONED, new ListQuery("", null, null, 100)).entries()).as(node)
                    .containsExactly(HELD, OLD, report4, video);
        }
    }

    private static List<String> listed(ReplicatedMetadataStore store, String bucket) {
        List<String> listed = new ArrayList<>();
        for (ListedVersion version : store.listVersions(bucket, new VersionQuery("", null, null, null, 100))
                .versions()) {
            listed.add(version.version().key() + " " + version.version().versionId()
                    + (version.latest() ? " latest" : "") + (version.version().isDeleteMarker() ? " marker" : ""));
        }
        return listed;
    }

    private boolean legacyEntryIsTombstone(String node, String bucket, String key) {
        return cluster.node(node).local().get(MetaKeys.objects(bucket), ByteKeys.utf8(key))
                .map(Entry::isTombstone).orElse(false);
    }

    private void readDump() throws IOException {
        HexFormat hex = HexFormat.of();
        try (InputStream in = PreviousReleaseDataTest.class.getResourceAsStream(DUMP);
                BufferedReader lines = new BufferedReader(new InputStreamReader(in, UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split(" ");
                pairs.computeIfAbsent(fields[0], node -> new ArrayList<>())
                        .add(new byte[][] {hex.parseHex(fields[1]), hex.parseHex(fields[2])});
            }
        }
        assertThat(pairs.keySet()).containsExactlyElementsOf(NODES);
    }

    private static int comparePairs(byte[][] left, byte[][] right) {
        int keys = Arrays.compare(left[0], right[0]);
        return keys != 0 ? keys : Arrays.compare(left[1], right[1]);
    }

    private static String id(int n) {
        return String.format("v%09d", n) + "AbCdEfGhIjKlMnOpQrStUv";
    }

    private static BlockRef block(int n, long size) {
        return new BlockRef(new BlockId(String.format("%032x", 0xb10c0000L + n)), size, 1000 + n);
    }

    private static ObjectVersion inline(String bucket, String key, String versionId, int seconds, String body) {
        byte[] data = body.getBytes(UTF_8);
        return new ObjectVersion(bucket, key, versionId, T.plusSeconds(seconds), data.length,
                "\"etag-" + key + "-" + versionId + "\"", new ObjectContent.Inline(data),
                Map.of("Content-Type", "text/plain"), Map.of("origin", "previous-release"), null, List.of());
    }

    private static ObjectVersion blocks(String bucket, String key, String versionId, int seconds, List<Long> partSizes,
            BlockRef... refs) {
        long size = 0;
        for (BlockRef ref : refs) {
            size += ref.size();
        }
        return new ObjectVersion(bucket, key, versionId, T.plusSeconds(seconds), size,
                "\"etag-" + key + "-" + versionId + "\"", new ObjectContent.Blocks(List.of(refs)),
                Map.of("Content-Type", "application/octet-stream"), Map.of(), null, partSizes);
    }
}
