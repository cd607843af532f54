package dev.hangar.s3api.request;

import static dev.hangar.s3api.request.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class AddressingTest {
    private static final String DOMAIN = "s3.example.com";

    @Nested
    class PathStyle {
        private final Addressing addressing = new Addressing(null);

        @ParameterizedTest(name = "{0} -> bucket {1}, key {2}")
        @CsvSource(delimiter = '|', nullValues = "null", value = {
                "''|null|null",
                "/|null|null",
                "/b|b|null",
                "/b/|b|null",
                "/b/k|b|k",
                "/b/dir/|b|dir/",
                "/b/dir/sub/k.txt|b|dir/sub/k.txt",
                "/b//x|b|/x",
                "/b/dir//|b|dir//",
                "/b/a+b|b|a+b",
                "/b/a%2Bb|b|a+b",
                "/b/a%20b|b|a b",
                "/b/dir%2Fk|b|dir/k",
                "/b/%2F|b|/",
                "/b/100%25|b|100%",
                "/b/%ED%95%9C%EA%B8%80/caf%C3%A9|b|\ud55c\uae00/caf\u00e9",
                "/b/%ed%95%9c|b|\ud55c",
                "/b/%F0%9F%98%80.txt|b|\ud83d\ude00.txt",
                "/b/caf\u00e9|b|caf\u00e9",
                "/b/~!$&()*,;=:@|b|~!$&()*,;=:@"})
        void findsTheBucketInTheFirstSegmentAndTheKeyInTheRest(String rawPath, String bucket, String key) {
            assertThat(addressing.resolve("localhost:9000", rawPath)).isEqualTo(new Addressing.Target(bucket, key));
        }

        @ParameterizedTest
        @ValueSource(strings = {"/b/%zz", "/b/a%g1", "/b/%", "/b/%4", "/b/a%", "/%zz", "/%zz/k", "/b/%C3", "/b/%FF",
                "/b/%ED%A0%80"})
        void refusesMalformedPercentEncodingAsAnInvalidUri(String rawPath) {
            assertS3Error(() -> addressing.resolve("localhost", rawPath), S3Error.INVALID_URI);
        }

        @Test
        void ignoresTheHostWhenNoDomainIsConfigured() {
            assertThat(addressing.resolve("bucket.s3.example.com", "/other/k"))
                    .isEqualTo(new Addressing.Target("other", "k"));
        }

        @Test
        void treatsAnEmptyDomainAsNoDomain() {
            assertThat(new Addressing("").resolve("bucket.s3.example.com", "/other/k"))
                    .isEqualTo(new Addressing.Target("other", "k"));
        }
    }

    @Nested
    class VirtualHostStyle {
        private final Addressing addressing = new Addressing(DOMAIN);

        @ParameterizedTest(name = "{0} {1} -> bucket {2}, key {3}")
        @CsvSource(delimiter = '|', nullValues = "null", value = {
                "bucket.s3.example.com:9000|/k|bucket|k",
                "bucket.s3.example.com|/k|bucket|k",
                "bucket.s3.example.com|/|bucket|null",
                "bucket.s3.example.com|''|bucket|null",
                "bucket.s3.example.com|/dir/|bucket|dir/",
                "bucket.s3.example.com|/dir/sub/k|bucket|dir/sub/k",
                "bucket.s3.example.com|//x|bucket|/x",
                "bucket.s3.example.com|/a%2Fb+c%20d|bucket|a/b+c d",
                "bucket.s3.example.com|/%ED%95%9C|bucket|\ud55c",
                "BUCKET.S3.Example.COM:9000|/Key/Dir|bucket|Key/Dir",
                "my.dotted.bucket.s3.example.com:9000|/k|my.dotted.bucket|k"})
        void takesTheBucketFromTheHostAndTheWholePathAsTheKey(String host, String rawPath, String bucket, String key) {
            assertThat(addressing.resolve(host, rawPath)).isEqualTo(new Addressing.Target(bucket, key));
        }

        @ParameterizedTest(name = "host {0}")
        @ValueSource(strings = {"s3.example.com", "s3.example.com:9000", "S3.EXAMPLE.COM", "localhost:9000",
                "bucket.other.com", "buckets3.example.com", "s3.example.com.evil.org", "127.0.0.1:9000", "[::1]:9000",
                "[::1]"})
        void fallsBackToPathStyleWhenTheHostIsNotASubdomainOfTheDomain(String host) {
            assertThat(addressing.resolve(host, "/b/k")).isEqualTo(new Addressing.Target("b", "k"));
            assertThat(addressing.resolve(host, "/")).isEqualTo(new Addressing.Target(null, null));
        }

        @Test
        void fallsBackToPathStyleWithoutAHost() {
            assertThat(addressing.resolve(null, "/b/k")).isEqualTo(new Addressing.Target("b", "k"));
        }

        @Test
        void comparesTheDomainIgnoringCase() {
            assertThat(new Addressing("S3.Example.COM").resolve("bucket.s3.example.com", "/k"))
                    .isEqualTo(new Addressing.Target("bucket", "k"));
        }

        @Test
        void refusesMalformedPercentEncodingInTheKey() {
            assertS3Error(() -> addressing.resolve("bucket.s3.example.com", "/%zz"), S3Error.INVALID_URI);
        }
    }

    @Nested
    class Query {

        @ParameterizedTest
        @NullAndEmptySource
        @ValueSource(strings = {"&", "&&"})
        void hasNoParametersWhenEmpty(String rawQuery) {
            assertThat(Addressing.parseQuery(rawQuery)).isEmpty();
        }

        @Test
        void givesNamesWithoutEqualsSignAnEmptyValue() {
            assertThat(Addressing.parseQuery("uploads")).isEqualTo(Map.of("uploads", List.of("")));
            assertThat(Addressing.parseQuery("uploads=")).isEqualTo(Map.of("uploads", List.of("")));
            assertThat(Addressing.parseQuery("delete&max-keys=3"))
                    .isEqualTo(Map.of("delete", List.of(""), "max-keys", List.of("3")));
        }

        @Test
        void keepsRepeatedNamesInOrder() {
            assertThat(Addressing.parseQuery("prefix=b&x=1&prefix=a&prefix="))
                    .isEqualTo(Map.of("prefix", List.of("b", "a", ""), "x", List.of("1")));
        }

        @Test
        void keepsParametersInRequestOrder() {
            assertThat(Addressing.parseQuery("uploadId=u&partNumber=2&list-type=2").keySet())
                    .containsExactly("uploadId", "partNumber", "list-type");
        }

        @ParameterizedTest(name = "{0} -> {1}")
        @CsvSource(delimiter = '|', value = {
                "prefix=a+b|a b",
                "prefix=a%20b|a b",
                "prefix=a%2Bb|a+b",
                "prefix=a%26b%3Dc|a&b=c",
                "prefix=a=b=c|a=b=c",
                "prefix=dir%2Fsub%2F|dir/sub/",
                "prefix=%ED%95%9C%EA%B8%80|\ud55c\uae00",
                "prefix=caf%c3%a9|caf\u00e9"})
        void decodesValuesAsAForm(String rawQuery, String value) {
            assertThat(Addressing.parseQuery(rawQuery)).isEqualTo(Map.of("prefix", List.of(value)));
        }

        @Test
        void decodesNamesToo() {
            assertThat(Addressing.parseQuery("a%3Db%26c+d=1"))
                    .isEqualTo(Map.of("a=b&c d", List.of("1")));
        }

        @ParameterizedTest
        @ValueSource(strings = {"prefix=%zz", "prefix=%", "prefix=a%2", "%zz=1", "%", "a=1&b=%g0"})
        void refusesMalformedPercentEncodingAsAnInvalidUri(String rawQuery) {
            assertS3Error(() -> Addressing.parseQuery(rawQuery), S3Error.INVALID_URI);
        }

        /** Not replaced with U+FFFD, which would list a prefix the client never asked for. */
        @ParameterizedTest
        @ValueSource(strings = {"prefix=%C3%28", "prefix=%FF", "prefix=a%C3", "marker=%ED%A0%80", "%C3=1"})
        void refusesMalformedUtf8AsAnInvalidUri(String rawQuery) {
            assertS3Error(() -> Addressing.parseQuery(rawQuery), S3Error.INVALID_URI);
        }
    }

    @org.junit.jupiter.api.Test
    void keepsUnencodedCharactersOutsideTheBasicPlaneBesideEscapes() {
        assertThat(Addressing.decodePath("%41\uD83D\uDE00")).isEqualTo("A\uD83D\uDE00");
    }
}
