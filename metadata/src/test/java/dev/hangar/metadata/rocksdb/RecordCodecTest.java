package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.codec.FieldWriter;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.RetentionMode;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RecordCodecTest {
    private static final Instant WHEN = Instant.parse("2026-03-04T05:06:07.123456789Z");

    /**
     * Records written by the format 1 encoder (before tags, locks, ACLs, owners and permissions),
     * kept as bytes so that reading them is tested against what is really on disks, not against
     * what today's code would write.
     */
    static final String V1_BLOCKS_OBJECT = "01046e756c6cfef6bd9a0d959aef3a9180400822657461672d3222010200112233"
            + "445566778899aabbccddeeff808040cafebabeffeeddccbbaa9988776655443322110011ffffffff010c636f6e74656e742d74"
            + "7970650a746578742f706c61696e0106617574686f72045a6fc3ab01064352433332430a795a526c71673d3d2d320280804011";
    static final String V1_INLINE_OBJECT = "01046e756c6cfef6bd9a0d959aef3a0503226522000568656c6c6f00000000";
    static final String V1_DELETE_MARKER = "01027631fef6bd9a0d959aef3a000222220200000000";
    static final String V1_ACCESS_KEY = "0106733363723374fef6bd9a0d959aef3a";
    static final String V1_BUCKET = "01fef6bd9a0d959aef3a0975732d656173742d31";
    /** A non-root key with read and write on bucket {@code b}, as written before format 3 existed. */
    static final String V2_ACCESS_KEY = "0206733363723374fef6bd9a0d959aef3a0001016203";

    static Stream<ObjectVersion> versions() {
        byte[] large = new byte[100_000];
        Arrays.fill(large, (byte) 0xFF);
        ObjectVersion plain = version(new ObjectContent.Inline("x".getBytes(UTF_8)), null, List.of());
        return Stream.of(
                plain.withTags(Map.of("project", "hangar", "empty", "", "ünï", "日本"))
                        .withLock(new ObjectLock(RetentionMode.COMPLIANCE, Instant.parse("2030-01-01T00:00:00Z"), true))
                        .withAcl("public-read")
                        .withOwnerKeyId("GK123")
                        .withVersionId("3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY"),
                plain.withLock(new ObjectLock(RetentionMode.GOVERNANCE, Instant.parse("1969-12-31T23:59:59.5Z"), false)),
                plain.withLock(new ObjectLock(null, null, true)),
                plain.withAcl(""),
                version(new ObjectContent.DeleteMarker(), null, List.of()).withOwnerKeyId("GK1").withVersionId("v9"),
                version(new ObjectContent.Inline(new byte[0]), null, List.of()),
                version(
                        new ObjectContent.Inline("héllo".getBytes(UTF_8)),
                        new Checksum("CRC32", "AAAAAA=="),
                        List.of()),
                version(new ObjectContent.Inline(large), null, List.of()),
                version(
                        new ObjectContent.Blocks(List.of(
                                new BlockRef(BlockId.random(), 0, 0),
                                new BlockRef(BlockId.random(), Long.MAX_VALUE, Integer.MIN_VALUE),
                                new BlockRef(BlockId.random(), 127, -1))),
                        new Checksum("CRC64NVME", "abc-3"),
                        List.of(0L, 128L, Long.MAX_VALUE)),
                version(new ObjectContent.Blocks(List.of()), null, List.of()),
                version(new ObjectContent.DeleteMarker(), null, List.of()));
    }

    @ParameterizedTest
    @MethodSource("versions")
    void objectVersionRoundTrips(ObjectVersion version) {
        byte[] encoded = RecordCodec.encodeObject(version);

        assertThat(encoded[0]).isEqualTo((byte) RecordCodec.FORMAT_2);
        assertThat(RecordCodec.peekVersionId(encoded)).isEqualTo(version.versionId());
        assertThat(RecordCodec.decodeObject(version.bucket(), version.key(), encoded)).isEqualTo(version);
        assertThat(RecordCodec.peekContent(encoded)).isEqualTo(summaryOf(version));
    }

    private static RecordCodec.ContentSummary summaryOf(ObjectVersion version) {
        List<BlockRef> blocks = version.content() instanceof ObjectContent.Blocks stored ? stored.blocks() : List.of();
        return new RecordCodec.ContentSummary(version.size(), version.isDeleteMarker(), blocks);
    }

    @Test
    void instantsKeepNanosecondsAndDatesBefore1970() {
        for (Instant instant : List.of(Instant.EPOCH, WHEN, Instant.parse("1901-01-01T00:00:00.000000001Z"),
                Instant.MIN, Instant.MAX)) {
            BucketRecord bucket = new BucketRecord("photos", instant, "eu-west-3");

            assertThat(RecordCodec.decodeBucket("photos", RecordCodec.encodeBucket(bucket))).isEqualTo(bucket);
        }
    }

    @Test
    void uploadRoundTrips() {
        MultipartUpload withAlgorithm = new MultipartUpload(
                "photos", "big.iso", "u1", WHEN, Map.of("content-type", "a/b"), Map.of("k", "v"), "SHA256");
        MultipartUpload without = new MultipartUpload("photos", "big.iso", "u2", WHEN, Map.of(), Map.of(), null);

        for (MultipartUpload upload : List.of(withAlgorithm, without)) {
            byte[] encoded = RecordCodec.encodeUpload(upload);
            assertThat(RecordCodec.decodeUpload(upload.bucket(), upload.key(), upload.uploadId(), encoded))
                    .isEqualTo(upload);
        }
    }

    @Test
    void partRoundTrips() {
        Part part = new Part(
                "u1", 10_000, WHEN, 5L << 30, "\"etag\"", List.of(new BlockRef(BlockId.random(), 1, 2)),
                new Checksum("SHA1", "x"));
        Part bare = new Part("u1", 1, WHEN, 0, "\"\"", List.of(), null);

        for (Part each : List.of(part, bare)) {
            assertThat(RecordCodec.decodePart("u1", each.partNumber(), RecordCodec.encodePart(each))).isEqualTo(each);
            assertThat(RecordCodec.peekPartBlocks(RecordCodec.encodePart(each))).isEqualTo(each.blocks());
        }
    }

    @Test
    void accessKeyRoundTrips() {
        AccessKey key = new AccessKey("GK123", "s3cr3t/+=", WHEN);

        assertThat(RecordCodec.decodeAccessKey("GK123", RecordCodec.encodeAccessKey(key))).isEqualTo(key);
    }

    @Test
    void accessKeyWithPermissionsRoundTrips() {
        AccessKey key = new AccessKey("GK123", "s3cr3t", WHEN, false, Map.of(
                "photos", new BucketPermission(true, false, false),
                "videos", new BucketPermission(true, true, true),
                "ünï", new BucketPermission(false, true, false),
                "none", new BucketPermission(false, false, false)));
        AccessKey rootWithEntries = new AccessKey("GK9", "s", WHEN, true, Map.of("b", new BucketPermission(false, false, true)));

        for (AccessKey each : List.of(key, rootWithEntries)) {
            byte[] encoded = RecordCodec.encodeAccessKey(each);
            assertThat(encoded[0]).isEqualTo((byte) RecordCodec.FORMAT_2);
            assertThat(RecordCodec.decodeAccessKey(each.accessKeyId(), encoded)).isEqualTo(each);
        }
    }

    @Test
    void accessKeyThatMayCreateBucketsRoundTripsInFormatThree() {
        AccessKey creator = new AccessKey("GK7", "s", WHEN, false, Map.of("b", new BucketPermission(true, false, false)),
                true);
        AccessKey creatorWithoutBuckets = new AccessKey("GK8", "s", WHEN, false, Map.of(), true);

        for (AccessKey each : List.of(creator, creatorWithoutBuckets)) {
            byte[] encoded = RecordCodec.encodeAccessKey(each);
            assertThat(encoded[0]).isEqualTo((byte) RecordCodec.FORMAT_3);
            assertThat(encoded[encoded.length - 1]).as("key-wide flags").isEqualTo((byte) 1);
            assertThat(RecordCodec.decodeAccessKey(each.accessKeyId(), encoded)).isEqualTo(each);
        }
    }

    @Test
    void accessKeyWithoutKeyWidePermissionsIsStillWrittenInFormatTwo() {
        AccessKey plain = new AccessKey("GK7", "s", WHEN, false, Map.of("b", new BucketPermission(true, true, true)));

        byte[] encoded = RecordCodec.encodeAccessKey(plain);

        assertThat(encoded[0]).isEqualTo((byte) RecordCodec.FORMAT_2);
        assertThat(RecordCodec.decodeAccessKey("GK7", encoded).createBuckets()).isFalse();
    }

    @Test
    void formatTwoAccessKeyMayNotCreateBuckets() {
        AccessKey read = RecordCodec.decodeAccessKey("GK1", hex(V2_ACCESS_KEY));

        assertThat(read).isEqualTo(new AccessKey("GK1", "s3cr3t", WHEN, false,
                Map.of("b", new BucketPermission(true, true, false)), false));
        assertThat(read.mayCreateBuckets()).isFalse();
    }

    @Test
    void unknownKeyWideFlagsAreRefused() {
        byte[] encoded = RecordCodec.encodeAccessKey(new AccessKey("GK1", "s", WHEN, false, Map.of(), true));
        encoded[encoded.length - 1] = 3;

        assertThatThrownBy(() -> RecordCodec.decodeAccessKey("GK1", encoded))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("key permission flags 3");
    }

    @Test
    void unknownRetentionModeIsRefused() {
        ObjectVersion held = version(new ObjectContent.Inline(new byte[0]), null, List.of())
                .withLock(new ObjectLock(null, null, true));
        byte[] encoded = RecordCodec.encodeObject(held);
        // ... lock present 1, mode 0, legal hold 1, no ACL 0, no owner 0.
        assertThat(Arrays.copyOfRange(encoded, encoded.length - 5, encoded.length)).containsExactly(1, 0, 1, 0, 0);
        encoded[encoded.length - 4] = 7;

        assertThatThrownBy(() -> RecordCodec.decodeObject("b", "k", encoded))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("retention mode 7");
    }

    @Test
    void unknownPermissionFlagsAreRefused() {
        AccessKey key = new AccessKey("GK1", "s", WHEN, false, Map.of("b", new BucketPermission(true, true, true)));
        byte[] encoded = RecordCodec.encodeAccessKey(key);
        encoded[encoded.length - 1] = 8;

        assertThatThrownBy(() -> RecordCodec.decodeAccessKey("GK1", encoded))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("permission flags 8");
    }

    @Test
    void bucketConfigurationKeepsItsBytes() {
        byte[] document = "<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>".getBytes(UTF_8);
        byte[] binary = {0, 1, 2, (byte) 0xFF, 0};

        for (byte[] each : List.of(document, binary, new byte[0])) {
            byte[] encoded = RecordCodec.encodeBucketConfig(each);
            assertThat(encoded[0]).isEqualTo((byte) RecordCodec.FORMAT_1);
            assertThat(RecordCodec.decodeBucketConfig(encoded)).isEqualTo(each);
        }
    }

    // Format 1 records, as the first release wrote them

    @Test
    void formatOneObjectWithBlocksReadsWithDefaultsForNewFields() {
        ObjectVersion read = RecordCodec.decodeObject("photos", "dir/ünï", hex(V1_BLOCKS_OBJECT));

        assertThat(read).isEqualTo(new ObjectVersion(
                "photos", "dir/ünï", ObjectVersion.NULL_VERSION, WHEN, 1_048_593, "\"etag-2\"",
                new ObjectContent.Blocks(List.of(
                        new BlockRef(new BlockId("00112233445566778899aabbccddeeff"), 1_048_576, 0xCAFEBABE),
                        new BlockRef(new BlockId("ffeeddccbbaa99887766554433221100"), 17, -1))),
                Map.of("content-type", "text/plain"), Map.of("author", "Zoë"), new Checksum("CRC32C", "yZRlqg==-2"),
                List.of(1_048_576L, 17L)));
        assertThat(read.tags()).isEmpty();
        assertThat(read.lock()).isNull();
        assertThat(read.acl()).isNull();
        assertThat(read.ownerKeyId()).isNull();
        assertThat(RecordCodec.peekVersionId(hex(V1_BLOCKS_OBJECT))).isEqualTo("null");
        assertThat(RecordCodec.peekContent(hex(V1_BLOCKS_OBJECT))).isEqualTo(summaryOf(read));
    }

    @Test
    void formatOneInlineObjectAndDeleteMarkerRead() {
        assertThat(RecordCodec.decodeObject("photos", "a", hex(V1_INLINE_OBJECT))).isEqualTo(new ObjectVersion(
                "photos", "a", "null", WHEN, 5, "\"e\"", new ObjectContent.Inline("hello".getBytes(UTF_8)), Map.of(),
                Map.of(), null, List.of()));
        ObjectVersion marker = RecordCodec.decodeObject("photos", "a", hex(V1_DELETE_MARKER));
        assertThat(marker.isDeleteMarker()).isTrue();
        assertThat(marker.versionId()).isEqualTo("v1");
        assertThat(RecordCodec.peekVersionId(hex(V1_DELETE_MARKER))).isEqualTo("v1");
        assertThat(RecordCodec.peekContent(hex(V1_INLINE_OBJECT)))
                .isEqualTo(new RecordCodec.ContentSummary(5, false, List.of()));
        assertThat(RecordCodec.peekContent(hex(V1_DELETE_MARKER)))
                .isEqualTo(new RecordCodec.ContentSummary(0, true, List.of()));
    }

    @Test
    void formatOneAccessKeyReadsAsARootKey() {
        AccessKey read = RecordCodec.decodeAccessKey("GK1", hex(V1_ACCESS_KEY));

        assertThat(read).isEqualTo(new AccessKey("GK1", "s3cr3t", WHEN));
        assertThat(read.root()).isTrue();
        assertThat(read.buckets()).isEmpty();
    }

    @Test
    void formatOneRecordsThatDidNotChangeAreStillWrittenAsFormatOne() {
        BucketRecord bucket = new BucketRecord("photos", WHEN, "us-east-1");

        assertThat(RecordCodec.encodeBucket(bucket)).isEqualTo(hex(V1_BUCKET));
        assertThat(RecordCodec.decodeBucket("photos", hex(V1_BUCKET))).isEqualTo(bucket);
    }

    @Test
    void formatOneRecordWithFormatTwoFieldsAppendedIsRefused() {
        byte[] padded = Arrays.copyOf(hex(V1_INLINE_OBJECT), hex(V1_INLINE_OBJECT).length + 4);

        assertThatThrownBy(() -> RecordCodec.decodeObject("photos", "a", padded))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("trailing");
    }

    @Test
    void equalMapsEncodeToEqualBytesWhateverTheirOrder() {
        Map<String, String> forward = new LinkedHashMap<>();
        Map<String, String> backward = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            forward.put("name" + i, "value" + i);
            backward.put("name" + (19 - i), "value" + (19 - i));
        }
        MultipartUpload first = new MultipartUpload("b", "k", "u", WHEN, forward, new HashMap<>(), null);
        MultipartUpload second = new MultipartUpload("b", "k", "u", WHEN, backward, new HashMap<>(), null);

        assertThat(RecordCodec.encodeUpload(first)).isEqualTo(RecordCodec.encodeUpload(second));
    }

    @Test
    void smallRecordsStaySmall() {
        ObjectVersion tiny = new ObjectVersion(
                "b", "k", ObjectVersion.NULL_VERSION, WHEN, 16, "\"0123456789abcdef0123456789abcdef\"",
                new ObjectContent.Inline(new byte[16]), Map.of(), Map.of(), null, List.of());

        // version 1 + "null" 5 + instant ~10 + size 1 + etag 35 + content 18 + maps 2 + checksum 1 + parts 1
        // + tags 1 + lock 1 + acl 1 + owner 1
        assertThat(RecordCodec.encodeObject(tiny)).hasSizeLessThan(80);
    }

    @Test
    void unknownFormatVersionIsRefused() {
        byte[] encoded = RecordCodec.encodeAccessKey(new AccessKey("GK1", "secret", WHEN));
        encoded[0] = 4;
        byte[] bucket = RecordCodec.encodeBucket(new BucketRecord("photos", WHEN, "r"));
        bucket[0] = 2;
        byte[] object = RecordCodec.encodeObject(versions().toList().getFirst());
        object[0] = 0;

        assertThatThrownBy(() -> RecordCodec.decodeAccessKey("GK1", encoded))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("version 4");
        // Buckets never had a format 2.
        assertThatThrownBy(() -> RecordCodec.decodeBucket("photos", bucket))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> RecordCodec.peekVersionId(object))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("version 0");
    }

    @Test
    void truncatedOrPaddedRecordsAreRefused() {
        ObjectVersion everyField = versions().toList().getFirst();
        ObjectVersion withBlocks = versions()
                .filter(version -> version.content() instanceof ObjectContent.Blocks blocks && !blocks.blocks().isEmpty())
                .findFirst()
                .orElseThrow();
        for (ObjectVersion version : List.of(everyField, withBlocks)) {
            byte[] encoded = RecordCodec.encodeObject(version);

            for (int length = 0; length < encoded.length; length++) {
                byte[] truncated = Arrays.copyOf(encoded, length);
                assertThatThrownBy(() -> RecordCodec.decodeObject("b", "k", truncated))
                        .isInstanceOf(MetadataStorageException.class);
            }
            byte[] padded = Arrays.copyOf(encoded, encoded.length + 1);
            assertThatThrownBy(() -> RecordCodec.decodeObject("b", "k", padded))
                    .isInstanceOf(MetadataStorageException.class)
                    .hasMessageContaining("trailing");
        }
    }

    @Test
    void unknownContentTagIsRefused() {
        ObjectVersion marker = versions().toList().getLast();
        byte[] encoded = RecordCodec.encodeObject(marker);
        // The tag follows version, versionId, instant, size and etag; find it by its value.
        int tagIndex = indexOfContentTag(encoded, marker);
        encoded[tagIndex] = 9;

        assertThatThrownBy(() -> RecordCodec.decodeObject("b", "k", encoded))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("content tag 9");
    }

    /** The content tag follows version, versionId, lastModified, size and etag: as long as they are. */
    private static int indexOfContentTag(byte[] encoded, ObjectVersion marker) {
        FieldWriter before = new FieldWriter();
        before.writeByte(RecordCodec.FORMAT_2);
        before.writeString(marker.versionId());
        before.writeInstant(marker.lastModified());
        before.writeVarLong(marker.size());
        before.writeString(marker.etag());
        int index = before.toByteArray().length;
        assertThat(encoded[index]).isEqualTo((byte) 2);
        return index;
    }

    private static byte[] hex(String text) {
        return HexFormat.of().parseHex(text);
    }

    private static ObjectVersion version(ObjectContent content, @Nullable Checksum checksum, List<Long> partSizes) {
        return new ObjectVersion(
                "photos", "dir/ünï 日本 😀", ObjectVersion.NULL_VERSION, WHEN, 42, "\"etag\"", content,
                Map.of("content-type", "text/plain", "content-language", "fr"), Map.of("author", "Zoë", "", ""),
                checksum, partSizes);
    }
}
