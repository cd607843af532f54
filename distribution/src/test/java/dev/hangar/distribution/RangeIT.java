package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RandomContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Ranged GetObject: {@code bytes=first-last}, open-ended {@code bytes=N-} and suffix
 * {@code bytes=-N}, inside one chunk, across one and two chunk boundaries, on inline objects, and
 * the 416 {@code InvalidRange} cases.
 */
class RangeIT extends AbstractS3IT {

    private static final long LARGE_SIZE = 3L * CHUNK_SIZE;
    private static final long INLINE_SIZE = 2000;

    private final RandomContent large = RandomContent.of(301, LARGE_SIZE);
    private final RandomContent inline = RandomContent.of(302, INLINE_SIZE);
    private String bucket;

    @BeforeAll
    void uploadObjects() {
        bucket = createBucket("range");
        s3.putObject(request -> request.bucket(bucket).key("large"), large.requestBody());
        s3.putObject(request -> request.bucket(bucket).key("inline"), inline.requestBody());
        s3.putObject(request -> request.bucket(bucket).key("empty"), RandomContent.of(0, 0).requestBody());
    }

    static Stream<Arguments> largeRanges() {
        long size = LARGE_SIZE;
        long boundary = CHUNK_SIZE;
        return Stream.of(
            Arguments.of("bytes=0-0", 0, 0),
            Arguments.of("bytes=0-99", 0, 99),
            Arguments.of("bytes=100-199", 100, 199),
            Arguments.of("bytes=1048570-1048590", 1_048_570, 1_048_590),                     // across the first boundary
            Arguments.of("bytes=" + (boundary - 1) + "-" + boundary, boundary - 1, boundary), // the two bytes around it
            Arguments.of("bytes=" + boundary + "-" + boundary, boundary, boundary),           // first byte of chunk 2
            Arguments.of("bytes=1048000-2098000", 1_048_000, 2_098_000),                     // across two boundaries
            Arguments.of("bytes=2097152-2097152", 2 * boundary, 2 * boundary),
            Arguments.of("bytes=" + (size - 1) + "-" + (size - 1), size - 1, size - 1),       // last byte
            Arguments.of("bytes=0-" + (size - 1), 0, size - 1),                               // everything
            Arguments.of("bytes=3000000-9999999", 3_000_000, size - 1),                       // last clamped to the end
            Arguments.of("bytes=3000000-", 3_000_000, size - 1),                              // open-ended
            Arguments.of("bytes=1048576-", boundary, size - 1),                               // open-ended from a boundary
            Arguments.of("bytes=-100", size - 100, size - 1),                                 // suffix
            Arguments.of("bytes=-1048577", size - 1_048_577, size - 1),                       // suffix across a boundary
            Arguments.of("bytes=-5000000", 0, size - 1)                                       // suffix longer than the object
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("largeRanges")
    void rangesOfAChunkedObject(String range, long first, long last) {
        assertRange("large", large, range, first, last);
    }

    static Stream<Arguments> inlineRanges() {
        return Stream.of(
            Arguments.of("bytes=10-19", 10, 19),
            Arguments.of("bytes=0-1999", 0, 1999),
            Arguments.of("bytes=1990-", 1990, 1999),
            Arguments.of("bytes=-5", 1995, 1999),
            Arguments.of("bytes=1999-5000", 1999, 1999)
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inlineRanges")
    void rangesOfAnInlineObject(String range, long first, long last) {
        assertRange("inline", inline, range, first, last);
    }

    @Test
    void asyncClientReadsARangeAcrossABoundary() {
        ResponseBytes<GetObjectResponse> bytes = s3Async.getObject(
            request -> request.bucket(bucket).key("large").range("bytes=1048570-1048590"),
            AsyncResponseTransformer.toBytes()).join();
        assertThat(bytes.response().contentRange()).isEqualTo("bytes 1048570-1048590/" + LARGE_SIZE);
        assertThat(bytes.asByteArray()).isEqualTo(large.bytes(1_048_570, 21));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bytes=3145728-", "bytes=3145728-3145729", "bytes=9999999-"})
    void rangeStartingAtOrAfterTheEndIsUnsatisfiable(String range) {
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("large").range(range)), 416, "InvalidRange");
    }

    @Test
    void rangeBeyondAnInlineObjectIsUnsatisfiable() {
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("inline").range("bytes=2000-3000")),
            416, "InvalidRange");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bytes=0-0", "bytes=0-"})
    void anyRangeOfAnEmptyObjectIsUnsatisfiable(String range) {
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("empty").range(range)), 416, "InvalidRange");
    }

    @Test
    void emptyObjectWithoutRange() {
        ResponseBytes<GetObjectResponse> bytes = s3.getObjectAsBytes(request -> request.bucket(bucket).key("empty"));
        assertThat(bytes.response().sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(bytes.asByteArray()).isEmpty();
        assertThat(bytes.response().contentLength()).isZero();
    }

    @Test
    void fullGetAdvertisesByteRanges() {
        ResponseBytes<GetObjectResponse> bytes = s3.getObjectAsBytes(request -> request.bucket(bucket).key("inline"));
        assertThat(bytes.response().sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(bytes.response().acceptRanges()).isEqualTo("bytes");
        assertThat(bytes.response().contentRange()).isNull();
    }

    @Test
    void rangeOfAMissingKeyIsNoSuchKey() {
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("missing").range("bytes=0-10")),
            404, "NoSuchKey");
    }

    private void assertRange(String key, RandomContent content, String range, long first, long last) {
        long length = last - first + 1;
        try (ResponseInputStream<GetObjectResponse> stream = s3.getObject(request -> request.bucket(bucket).key(key).range(range))) {
            GetObjectResponse response = stream.response();
            assertThat(response.sdkHttpResponse().statusCode()).isEqualTo(206);
            assertThat(response.contentRange()).isEqualTo("bytes " + first + "-" + last + "/" + content.size());
            assertThat(response.contentLength()).isEqualTo(length);
            assertThat(response.eTag()).isEqualTo(content.etag());
            assertThat(stream.readAllBytes()).isEqualTo(content.bytes(first, length));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
