package dev.hangar.s3api.web;

import static org.assertj.core.api.Assertions.assertThat;

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
}
