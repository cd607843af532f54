package dev.hangar.metadata.rocksdb;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
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

    static Stream<ObjectVersion> versions() {
        byte[] large = new byte[100_000];
        Arrays.fill(large, (byte) 0xFF);
        return Stream.of(
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

        assertThat(encoded[0]).isEqualTo((byte) RecordCodec.FORMAT_VERSION);
        assertThat(RecordCodec.decodeObject(version.bucket(), version.key(), encoded)).isEqualTo(version);
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
        }
    }

    @Test
    void accessKeyRoundTrips() {
        AccessKey key = new AccessKey("GK123", "s3cr3t/+=", WHEN);

        assertThat(RecordCodec.decodeAccessKey("GK123", RecordCodec.encodeAccessKey(key))).isEqualTo(key);
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
        assertThat(RecordCodec.encodeObject(tiny)).hasSizeLessThan(80);
    }

    @Test
    void unknownFormatVersionIsRefused() {
        byte[] encoded = RecordCodec.encodeAccessKey(new AccessKey("GK1", "secret", WHEN));
        encoded[0] = 2;

        assertThatThrownBy(() -> RecordCodec.decodeAccessKey("GK1", encoded))
                .isInstanceOf(MetadataStorageException.class)
                .hasMessageContaining("version 2");
    }

    @Test
    void truncatedOrPaddedRecordsAreRefused() {
        byte[] encoded = RecordCodec.encodeObject(versions().toList().get(3));

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
        RecordWriter before = new RecordWriter();
        before.writeByte(RecordCodec.FORMAT_VERSION);
        before.writeString(marker.versionId());
        before.writeInstant(marker.lastModified());
        before.writeVarLong(marker.size());
        before.writeString(marker.etag());
        int index = before.toByteArray().length;
        assertThat(encoded[index]).isEqualTo((byte) 2);
        return index;
    }

    private static ObjectVersion version(ObjectContent content, @Nullable Checksum checksum, List<Long> partSizes) {
        return new ObjectVersion(
                "photos", "dir/ünï 日本 😀", ObjectVersion.NULL_VERSION, WHEN, 42, "\"etag\"", content,
                Map.of("content-type", "text/plain", "content-language", "fr"), Map.of("author", "Zoë", "", ""),
                checksum, partSizes);
    }
}
