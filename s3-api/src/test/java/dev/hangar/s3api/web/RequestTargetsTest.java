package dev.hangar.s3api.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestTargetsTest {

    /** Netty makes each byte of the request line one character, so {@code é} sent raw arrives as {@code Ã©}. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "/b/k?prefix=a|/b/k?prefix=a",
            "/b/caf\u00c3\u00a9|/b/caf%C3%A9",
            "/b/\u00ff\u00fe?x=\u00e9|/b/%FF%FE?x=%E9",
            "/b/%C3%A9\u00c3\u00a9|/b/%C3%A9%C3%A9"})
    void percentEncodesTheRawBytesAboveAscii(String target, String encoded) {
        assertThat(RequestTargets.percentEncodeRawBytes(target)).isEqualTo(encoded);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"/", "/b/k", "/b/a%20b?prefix=x&delimiter=%2F", "/b//k", "/b/~!$&'()*+,;=:@", "*"})
    void parsesWhatSpringCanMakeAUriOf(String target) {
        assertThat(RequestTargets.parses(target)).isTrue();
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"/%", "/b/%ZZ", "/b?prefix=%", "/b/a b", "/b/a|b", "/b/a^b", "/b/a\"b", "/b/a\u0001b",
            "/b/a{b}", "/b/a\\b"})
    void refusesWhatSpringCannot(String target) {
        assertThat(RequestTargets.parses(target)).isFalse();
    }

    /** A PUT of an unsigned payload may come chunked without a length; a signed or aws-chunked one may not. */
    @ParameterizedTest(name = "{0} x-amz-content-sha256=[{1}] -> {2}")
    @CsvSource(delimiter = '|', nullValues = "none", value = {
            "PUT|none|true",
            "PUT|UNSIGNED-PAYLOAD|true",
            "PUT|e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855|false",
            "PUT|STREAMING-AWS4-HMAC-SHA256-PAYLOAD|false",
            "PUT|STREAMING-UNSIGNED-PAYLOAD-TRAILER|false",
            "POST|none|false",
            "POST|UNSIGNED-PAYLOAD|false"})
    void takesAnUnknownLengthOnlyForAnUnsignedPut(String method, String contentSha256, boolean takes) {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), "/b/k");
        if (contentSha256 != null) {
            request.headers().set("x-amz-content-sha256", contentSha256);
        }
        assertThat(RequestTargets.takesAnUnknownLength(request)).isEqualTo(takes);
    }
}
