package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.request.RequestHeaders;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ObjectHeadersTest {

    @Test
    void storesTheStandardRepresentationHeadersUnderLowerCaseNames() {
        ObjectHeaders stored = ObjectHeaders.from(headers(
                "Content-Type", "text/plain; charset=utf-8",
                "Content-Encoding", "gzip",
                "Content-Disposition", "attachment; filename=\"a.txt\"",
                "Content-Language", "en-GB",
                "Cache-Control", "max-age=60",
                "Expires", "Wed, 21 Oct 2026 07:28:00 GMT",
                "X-Amz-Website-Redirect-Location", "/other.html"));

        assertThat(stored.standard()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "content-type", "text/plain; charset=utf-8",
                "content-encoding", "gzip",
                "content-disposition", "attachment; filename=\"a.txt\"",
                "content-language", "en-GB",
                "cache-control", "max-age=60",
                "expires", "Wed, 21 Oct 2026 07:28:00 GMT",
                "x-amz-website-redirect-location", "/other.html"));
        assertThat(stored.user()).isEmpty();
    }

    /** A POST form's fields can hold what no request header can; stored, they would break every GET. */
    @ParameterizedTest(name = "{0}: [{1}]")
    @CsvSource(delimiter = '|', value = {
            "Content-Type|text/plain\\nX-Injected: 1",
            "Content-Disposition|a\\rb",
            "Cache-Control|\\001",
            "x-amz-meta-note|line 1\\r\\nline 2",
            "x-amz-meta-del|\\177"})
    void refusesAValueNoResponseHeaderCouldCarry(String name, String value) {
        assertS3Error(() -> ObjectHeaders.from(headers(name, value.translateEscapes())), S3Error.INVALID_ARGUMENT);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"x-amz-meta-a b", "x-amz-meta-a:b", "x-amz-meta-caf\u00e9", "x-amz-meta-a\u0001"})
    void refusesAMetadataNameThatIsNoHeaderName(String name) {
        assertS3Error(() -> ObjectHeaders.from(headers(name, "v")), S3Error.INVALID_ARGUMENT);
    }

    @Test
    void keepsTabsAndTextBeyondAscii() {
        assertThat(ObjectHeaders.from(headers("x-amz-meta-a", "tab\there caf\u00e9")).user())
                .containsExactlyEntriesOf(Map.of("a", "tab\there caf\u00e9"));
    }

    @Test
    void keepsNoStorageClassSinceEveryObjectIsStandard() {
        assertThat(ObjectHeaders.from(headers("X-Amz-Storage-Class", "STANDARD")).standard()).isEmpty();
        // A version stored before that rule: its header is dropped when it is read back.
        assertThat(new ObjectHeaders(Map.of("x-amz-storage-class", "GLACIER", "content-type", "a/b"), Map.of())
                .standard()).containsExactlyEntriesOf(Map.of("content-type", "a/b"));
    }

    @Test
    void leavesOutHeadersThatAreNotPartOfTheObject() {
        ObjectHeaders stored = ObjectHeaders.from(headers(
                "Host", "localhost:9000",
                "Content-Length", "5",
                "Content-MD5", "XUFAKrxLKna5cZ2REBfFkg==",
                "Authorization", "AWS4-HMAC-SHA256 ...",
                "X-Amz-Date", "20261122T090000Z",
                "X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD",
                "X-Amz-Decoded-Content-Length", "5",
                "X-Amz-Copy-Source", "b/k",
                "Range", "bytes=0-1",
                "X-Amz-Meta", "no dash"));

        assertThat(stored.standard()).isEmpty();
        assertThat(stored.user()).isEmpty();
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(delimiter = '|', value = {
            "gzip|gzip",
            "gzip,aws-chunked|gzip",
            "aws-chunked,gzip|gzip",
            "gzip, aws-chunked, br|gzip, br",
            "aws-chunked, gzip, br|gzip, br",
            "gzip, br|gzip, br",
            "AWS-Chunked,gzip|gzip",
            "gzip,br|gzip,br",
            "identity|identity"})
    void removesAwsChunkedFromTheContentEncoding(String received, String stored) {
        assertThat(ObjectHeaders.from(headers("Content-Encoding", received)).standard())
                .containsExactlyEntriesOf(Map.of("content-encoding", stored));
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"aws-chunked", "AWS-CHUNKED", " aws-chunked ", "aws-chunked,", ""})
    void storesNoContentEncodingWhenOnlyAwsChunkedWasSent(String received) {
        assertThat(ObjectHeaders.from(headers("Content-Encoding", received)).standard())
                .doesNotContainKey("content-encoding");
    }

    @Test
    void collectsUserMetadataWithoutItsPrefix() {
        ObjectHeaders stored = ObjectHeaders.from(headers(
                "X-Amz-Meta-Color", "red",
                "x-amz-meta-Author", "J. Doe",
                "x-amz-meta-empty", "",
                "Content-Type", "image/png"));

        assertThat(stored.user()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "color", "red",
                "author", "J. Doe",
                "empty", ""));
        assertThat(stored.standard()).containsExactlyEntriesOf(Map.of("content-type", "image/png"));
    }

    @Test
    void joinsRepeatedUserMetadataHeadersWithCommas() {
        ObjectHeaders stored = ObjectHeaders.from(new RequestHeaders(Map.of(
                "x-amz-meta-tag", List.of("a", "b"),
                "X-Amz-Meta-Tag", List.of("c"))));

        assertThat(stored.user()).containsOnlyKeys("tag");
        assertThat(stored.user().get("tag").split(",")).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void acceptsTwoKilobytesOfUserMetadata() {
        // "k" and 2,047 bytes of value: 2,048 bytes, the limit.
        ObjectHeaders stored = ObjectHeaders.from(headers("x-amz-meta-k", "v".repeat(2047)));

        assertThat(stored.user().get("k")).hasSize(2047);
    }

    @Test
    void refusesMoreThanTwoKilobytesOfUserMetadata() {
        assertS3Error(() -> ObjectHeaders.from(headers("x-amz-meta-k", "v".repeat(2048))), S3Error.METADATA_TOO_LARGE);
    }

    @Test
    void countsTheNamesAndValuesOfEveryUserMetadataHeader() {
        // Eight headers of name "kN" (2 bytes) and 254 bytes of value: 2,048 bytes in all; one more byte is too many.
        Map<String, List<String>> atTheLimit = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++) {
            atTheLimit.put("x-amz-meta-k" + i, List.of("v".repeat(254)));
        }
        ObjectHeaders.from(new RequestHeaders(atTheLimit));

        Map<String, List<String>> overTheLimit = new LinkedHashMap<>(atTheLimit);
        overTheLimit.put("x-amz-meta-k0", List.of("v".repeat(255)));
        assertS3Error(() -> ObjectHeaders.from(new RequestHeaders(overTheLimit)), S3Error.METADATA_TOO_LARGE);
    }

    @Test
    void countsUserMetadataInUtf8Bytes() {
        // "k" and 1,023 two-byte characters: 2,047 bytes; one more character makes 2,049.
        ObjectHeaders.from(headers("x-amz-meta-k", "\u00e9".repeat(1023)));

        assertS3Error(() -> ObjectHeaders.from(headers("x-amz-meta-k", "\u00e9".repeat(1024))),
                S3Error.METADATA_TOO_LARGE);
    }

    @Test
    void doesNotCountStandardHeadersAsUserMetadata() {
        ObjectHeaders stored = ObjectHeaders.from(headers(
                "Content-Disposition", "attachment; filename=\"" + "x".repeat(4000) + "\"",
                "x-amz-meta-k", "v".repeat(2047)));

        assertThat(stored.user()).hasSize(1);
    }

    private static RequestHeaders headers(String... namesAndValues) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], List.of(namesAndValues[i + 1]));
        }
        return new RequestHeaders(headers);
    }
}
