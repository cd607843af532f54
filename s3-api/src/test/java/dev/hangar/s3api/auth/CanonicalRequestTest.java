package dev.hangar.s3api.auth;

import static dev.hangar.s3api.auth.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CanonicalRequestTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|/",
            "/|/",
            "/bucket/key|/bucket/key",
            "/bucket/a%20b|/bucket/a%20b",
            "/bucket/a+b|/bucket/a%2Bb",
            "/bucket/a%2bb|/bucket/a%2Bb",
            "/bucket/a%7eb~c|/bucket/a~b~c",
            "/bucket/ü|/bucket/%C3%BC",
            "/bucket/%c3%bc|/bucket/%C3%BC",
            "/bucket/a%2Fb|/bucket/a/b",
            "/bucket/double/%2Fslash|/bucket/double//slash",
            "/bucket//double/|/bucket//double/",
            "/bucket/./../x|/bucket/./../x",
            "/bucket/!$&'()*,;=:@|/bucket/%21%24%26%27%28%29%2A%2C%3B%3D%3A%40",
            "/bucket/\uD83D\uDE80|/bucket/%F0%9F%9A%80"})
    void canonicalizesPathsByDecodingAndReEncodingAllButSlashes(String rawPath, String canonical) {
        assertThat(UriEncoding.canonicalPath(rawPath)).isEqualTo(canonical);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|''",
            "acl|acl=",
            "acl=|acl=",
            "b=2&a=1|a=1&b=2",
            "a=2&a=1&a=10|a=1&a=10&a=2",
            "prefix=a+b|prefix=a%20b",
            "prefix=a%2Bb|prefix=a%2Bb",
            "prefix=%c3%bc|prefix=%C3%BC",
            "prefix=ü|prefix=%C3%BC",
            "x=%7E&y=~|x=~&y=~",
            "a=1&&b=2&|a=1&b=2",
            "k=a=b|k=a%3Db",
            "A=1&a=1&_=1|A=1&_=1&a=1"})
    void canonicalizesQueriesByDecodingReEncodingAndSorting(String rawQuery, String canonical) {
        assertThat(CanonicalRequest.canonicalQuery(CanonicalRequest.parseQuery(rawQuery), false)).isEqualTo(canonical);
    }

    @Test
    void leavesOutTheSignatureOfAPresignedQueryOnly() {
        List<QueryParameter> query = CanonicalRequest.parseQuery("X-Amz-Signature=abc&X-Amz-Date=1");

        assertThat(CanonicalRequest.canonicalQuery(query, true)).isEqualTo("X-Amz-Date=1");
        assertThat(CanonicalRequest.canonicalQuery(query, false)).isEqualTo("X-Amz-Date=1&X-Amz-Signature=abc");
    }

    @Test
    void trimsAndCollapsesHeaderValuesAndJoinsRepeatedOnes() {
        Map<String, List<String>> headers = SignedRequest.lowerCaseNames(Map.of(
                "Host", List.of("example.com"),
                "X-Amz-Meta-A", List.of("  one   two  ", "\tthree "),
                "x-amz-meta-b", List.of("")));

        assertThat(CanonicalRequest.canonicalHeaders(List.of("host", "x-amz-meta-a", "x-amz-meta-b"), headers))
                .isEqualTo("host:example.com\nx-amz-meta-a:one two,three\nx-amz-meta-b:\n");
    }

    @Test
    void rejectsMalformedPercentEscapes() {
        for (String raw : List.of("%", "%4", "%zz", "a%g1")) {
            assertS3Error(() -> UriEncoding.decode(raw, false), S3Error.INVALID_URI);
        }
    }

    @Test
    void mergesHeaderNamesThatDifferOnlyInCase() {
        SignedRequest request = new SignedRequest("GET", "/", null, Map.of(
                "X-Amz-Meta-A", List.of("1"), "x-amz-meta-a", List.of("2")));

        assertThat(request.headers()).containsOnlyKeys("x-amz-meta-a");
        assertThat(request.headers().get("x-amz-meta-a")).containsExactlyInAnyOrder("1", "2");
        assertThat(request.firstHeader("X-AMZ-META-A")).isPresent();
    }

    @Test
    void parsesCredentialsFromTheRight() {
        assertThat(CredentialScope.parse("AKID/20240501/us-east-1/s3/aws4_request")).contains(
                new CredentialScope("AKID", "20240501", "us-east-1", "s3", "aws4_request"));
        assertThat(CredentialScope.parse("odd/key/20240501/us-east-1/s3/aws4_request").orElseThrow().accessKeyId())
                .isEqualTo("odd/key");
        assertThat(CredentialScope.parse("/20240501/us-east-1/s3/aws4_request")).isEmpty();
        assertThat(CredentialScope.parse("AKID/2024051/us-east-1/s3/aws4_request")).isEmpty();
        assertThat(CredentialScope.parse("AKID/us-east-1/s3/aws4_request")).isEmpty();
    }
}
