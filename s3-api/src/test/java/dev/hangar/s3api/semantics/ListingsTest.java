package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.request.Addressing;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Request;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ListingsTest {

    @Test
    void givesTheDefaultWhenTheLimitIsAbsent() {
        assertThat(Listings.limit(request(""), "max-keys", 1000)).isEqualTo(1000);
        assertThat(Listings.limit(request("max-uploads=5"), "max-keys", 50)).isEqualTo(50);
    }

    @ParameterizedTest(name = "max-keys={0} -> {1}")
    @CsvSource({"0, 0", "1, 1", "5, 5", "999, 999", "1000, 1000", "1001, 1000", "5000, 1000", "2147483647, 1000"})
    void capsTheLimitAtOneThousand(String value, int limit) {
        assertThat(Listings.limit(request("max-keys=" + value), "max-keys", 1000)).isEqualTo(limit);
    }

    @ParameterizedTest(name = "max-keys=[{0}]")
    @ValueSource(strings = {"-1", "-1000", "abc", "", "1.5", "1e3", "%201", "2147483648", "0x10"})
    void refusesANegativeOrNonNumericLimit(String value) {
        String message = assertS3Error(() -> Listings.limit(request("max-keys=" + value), "max-keys", 1000),
                S3Error.INVALID_ARGUMENT).getMessage();

        assertThat(message).contains("max-keys");
    }

    @Test
    void readsANonNegativeMarker() {
        assertThat(Listings.nonNegative(request(""), "part-number-marker")).isZero();
        assertThat(Listings.nonNegative(request("part-number-marker=7"), "part-number-marker")).isEqualTo(7);
        assertThat(Listings.nonNegative(request("part-number-marker=5000"), "part-number-marker")).isEqualTo(5000);
        assertS3Error(() -> Listings.nonNegative(request("part-number-marker=-1"), "part-number-marker"),
                S3Error.INVALID_ARGUMENT);
    }

    @Test
    void encodesNothingWithoutAnEncodingType() {
        assertThat(Listings.encoding(request(""))).isEqualTo(Listings.Encoding.NONE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"url", "URL", "Url"})
    void urlEncodesKeysWhenAsked(String value) {
        assertThat(Listings.encoding(request("encoding-type=" + value))).isEqualTo(Listings.Encoding.URL);
    }

    @ParameterizedTest(name = "encoding-type=[{0}]")
    @ValueSource(strings = {"xml", "base64", "", "url2", "none"})
    void refusesOtherEncodingTypes(String value) {
        assertS3Error(() -> Listings.encoding(request("encoding-type=" + value)), S3Error.INVALID_ARGUMENT);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"a", "photos/2006/index.html", "\ud55c\uae00/\ud0a4.txt", "caf\u00e9 \ud83d\ude00/\u65e5\u672c",
            "a b+c/=?&%", "\u0001\u007f", "ends-with-slash/"})
    void roundTripsTheResumeKeyThroughAUrlSafeToken(String key) {
        String token = Listings.continuationToken(key);

        assertThat(token).matches("[A-Za-z0-9_-]+");
        assertThat(Listings.resumeAfter(token)).isEqualTo(key);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"!!!", "a", "ab+/", "%%%", "a b", "abcde", "", "_w", "AA", "YQBi"})
    void refusesATokenItDidNotIssue(String token) {
        assertS3Error(() -> Listings.resumeAfter(token), S3Error.INVALID_ARGUMENT);
    }

    private static S3Request request(String rawQuery) {
        return new S3Request("GET", "bucket", null, Addressing.parseQuery(rawQuery), new RequestHeaders(Map.of()),
                "localhost", "request-id");
    }
}
