package dev.hangar.metadata.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** The refusals of {@link QueryCodec}, case by case: malformed bytes, and values it cannot encode. */
class QueryCodecTest {
    private static final Instant WHEN = Instant.parse("2026-03-04T05:06:07.123456789Z");
    private static final ReadQuery.GetBucket GET_PHOTOS = new ReadQuery.GetBucket("photos");
    private static final ReadQuery.ListBuckets LIST_BUCKETS = new ReadQuery.ListBuckets();

    @Test
    void emptyBytesAreTruncated() {
        refusedQuery(new byte[0]).hasMessage("invalid encoded query: truncated at offset 0");
        refusedResult(GET_PHOTOS, new byte[0]).hasMessage("invalid encoded query result: truncated at offset 0");
    }

    @Test
    void aFormatThisReleaseDoesNotKnowIsRefused() {
        for (int format : List.of(0, 2, 255)) {
            byte[] query = QueryCodec.encode(GET_PHOTOS);
            query[0] = (byte) format;
            byte[] result = QueryCodec.encodeResult(GET_PHOTOS, Optional.empty());
            result[0] = (byte) format;

            refusedQuery(query)
                    .hasMessage("invalid encoded query: unknown format " + format
                            + " (this release reads format 1; a later one wrote it?)");
            refusedResult(GET_PHOTOS, result)
                    .hasMessageStartingWith("invalid encoded query result: unknown format " + format);
        }
    }

    @Test
    void anUnknownTagIsRefused() {
        for (int tag : List.of(0, 16, 255)) {
            byte[] bytes = hex("01" + "%02x".formatted(tag));

            refusedQuery(bytes)
                    .hasMessage("invalid encoded query: unknown query tag " + tag + " (a later release wrote it?)");
            refusedResult(LIST_BUCKETS, bytes)
                    .hasMessageStartingWith("invalid encoded query result: unknown query tag " + tag);
        }
    }

    /** GetObject and GetVersion give results of one layout: the tag tells them apart. */
    @Test
    void theResultOfAnotherQueryIsRefused() {
        ReadQuery.GetObject getObject = new ReadQuery.GetObject("photos", "cat.jpg");
        ReadQuery.GetVersion getVersion = new ReadQuery.GetVersion("photos", "cat.jpg", "v1");
        byte[] answer = QueryCodec.encodeResult(getObject, Optional.empty());

        refusedResult(getVersion, answer)
                .hasMessage("invalid encoded query result: the result of a GET_OBJECT query, not of a GET_VERSION"
                        + " query");
    }

    @Test
    void trailingBytesAreRefused() {
        byte[] query = QueryCodec.encode(GET_PHOTOS);
        byte[] result = QueryCodec.encodeResult(LIST_BUCKETS, List.of());

        refusedQuery(Arrays.copyOf(query, query.length + 1))
                .hasMessage("invalid encoded query: 1 trailing bytes at offset " + query.length);
        refusedResult(LIST_BUCKETS, Arrays.copyOf(result, result.length + 2))
                .hasMessage("invalid encoded query result: 2 trailing bytes at offset " + result.length);
    }

    /** A length or count of 2^32 - 1 before a handful of bytes: refused before anything is allocated. */
    @Test
    void aLengthOrCountBeyondTheBytesLeftIsRefusedWithoutAllocating() {
        refusedQuery(hex("0101" + "ffffffff0f" + "00"))
                .hasMessage("invalid encoded query: length or count 4294967295 exceeds the 1 bytes left at offset 7");
        refusedResult(LIST_BUCKETS, hex("0102" + "ffffffff0f" + "0000"))
                .hasMessageContaining("length or count 4294967295 exceeds the 2 bytes left");
        refusedResult(LIST_BUCKETS, hex("0102" + "ffffffffffffffffff01"))
                .hasMessageContaining("length or count 18446744073709551615 exceeds");
        refusedQuery(hex("0101" + "8080808080808080808000")).hasMessageContaining("varint longer than 64 bits");
    }

    @Test
    void aNumberBeyondAnIntIsRefused() {
        // GetPart "u", then 2^32 as a zigzag varint (8589934592).
        refusedQuery(hex("0108" + "0175" + "8080808020"))
                .hasMessageStartingWith("invalid encoded query: number 4294967296 out of range");
        assertThat(QueryCodec.decode(hex("0108" + "0175" + "ffffffff0f")))
                .isEqualTo(new ReadQuery.GetPart("u", Integer.MIN_VALUE));
    }

    /** A record constructor's refusal of the fields read is reported as the codec's own. */
    @Test
    void argumentsThatNoQueryHasAreRefused() {
        // ListObjects "b", prefix "", no delimiter, no marker, maxKeys -1 (zigzag 1).
        refusedQuery(hex("0105" + "0162" + "00" + "00" + "00" + "01"))
                .hasMessage("invalid encoded query: maxKeys must not be negative (near offset 8)");
    }

    @Test
    void aPresenceByteOtherThanZeroOrOneIsRefused() {
        refusedResult(GET_PHOTOS, hex("0101" + "02"))
                .hasMessage("invalid encoded query result: boolean or presence byte 2 at offset 2");
    }

    @Test
    void malformedUtf8IsRefused() {
        refusedQuery(hex("0101" + "02c328")).hasMessage("invalid encoded query: malformed UTF-8 at offset 3");
    }

    @Test
    void aCorruptRecordBodyIsTheCodecsRefusal() {
        // GetBucket result: present, bucket "b" with a body in record format 9.
        refusedResult(GET_PHOTOS, hex("0101" + "01" + "0162" + "0109"))
                .hasMessage("invalid encoded query result: bucket record: unknown metadata format version 9");
    }

    @Test
    void aStringWithAnUnpairedSurrogateCannotBeEncoded() {
        assertThatThrownBy(() -> QueryCodec.encode(new ReadQuery.GetObject("photos", "a\uD800b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired surrogate at index 1");
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"}) // The only way to give a result of another type.
    void aResultOfAnotherTypeThanTheQuerysCannotBeEncoded() {
        ObjectVersion version = new ObjectVersion("photos", "k", "v", WHEN, 0, "\"\"", new ObjectContent.DeleteMarker(),
                Map.of(), Map.of(), null, List.of());
        ReadQuery raw = GET_PHOTOS;

        assertThatThrownBy(() -> QueryCodec.encodeResult(raw, Optional.of(version)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a result of a GetBucket: ");
        assertThatThrownBy(() -> QueryCodec.encodeResult(raw, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a result of a GetBucket: ");
    }

    @Test
    void aPartOfAnotherUploadCannotBeEncoded() {
        Part part = new Part("u2", 1, WHEN, 0, "\"\"", List.of(), null);

        assertThatThrownBy(() -> QueryCodec.encodeResult(new ReadQuery.ListParts("u1", 0, 10),
                new PartListing(List.of(part), false, 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("part of upload u2 in the result of a query of upload u1");
        assertThatThrownBy(() -> QueryCodec.encodeResult(new ReadQuery.GetPart("u1", 1), Optional.of(part)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Decoding {@code bytes} as a query threw an {@link IllegalArgumentException}; its message is checked next. */
    private static AbstractThrowableAssert<?, ? extends Throwable> refusedQuery(byte[] bytes) {
        return assertThatThrownBy(() -> QueryCodec.decode(bytes)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Decoding {@code bytes} as a result of {@code query} threw an {@link IllegalArgumentException}. */
    private static AbstractThrowableAssert<?, ? extends Throwable> refusedResult(ReadQuery<?> query, byte[] bytes) {
        return assertThatThrownBy(() -> QueryCodec.decodeResult(query, bytes))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
