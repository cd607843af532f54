package dev.hangar.s3api.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class UrlEncodingTest {

    /** What real S3 answered under encoding-type=url (brekkylab/backlot#178 and its listing code). */
    @ParameterizedTest
    @CsvSource(delimiterString = " -> ", quoteCharacter = '`', value = {
        "a b.txt -> a+b.txt",
        "a+b.txt -> a%2Bb.txt",
        "100%.csv -> 100%25.csv",
        "\ud55c\uae00/x.txt -> %ED%95%9C%EA%B8%80/x.txt",
        "run books/x.txt -> run+books/x.txt",
        "~ -> %7E",
        "* -> *",
        "!'()~,;:@=\"<>|% -> %21%27%28%29%7E%2C%3B%3A%40%3D%22%3C%3E%7C%25",
        "AZaz09-_.*/ -> AZaz09-_.*/",
        "a\u0001b -> a%01b",
        "tab\there -> tab%09here",
        "\ud83d\ude00 -> %F0%9F%98%80",
        "`` -> ``"
    })
    void encodesAsS3Does(String key, String encoded) {
        assertThat(S3Xml.urlEncodeKey(key)).isEqualTo(encoded);
    }

    /** The Java SDK v2 decodes with URLDecoder, as botocore does with unquote_plus. */
    @ParameterizedTest
    @ValueSource(strings = {"a b+c", "100% sure", "caf\u00e9 \ud83d\ude00/\u65e5\u672c", "a\rb\nc\u0000", " ", "+", "%2B"})
    void decodesBackWithTheDecodersClientsUse(String key) {
        assertThat(URLDecoder.decode(S3Xml.urlEncodeKey(key), StandardCharsets.UTF_8)).isEqualTo(key);
    }

    @Test
    void refusesALoneSurrogate() {
        assertThatThrownBy(() -> S3Xml.urlEncodeKey("a\ud800")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void returnsAStringThatNeedsNoEncodingAsItIs() {
        String key = "photos/2006/index.html";

        assertThat(S3Xml.urlEncodeKey(key)).isSameAs(key);
    }
}
