package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class TextEscapingTest {

    private static byte[] listingWithKey(String key) {
        var entry = new ObjectEntry(key, Instant.EPOCH, "\"e\"", 1, null, "STANDARD");
        return S3Xml.renderListObjectsV2(
                new ListObjectsV2Result("b", "", null, null, null, 1000, null, null, false, List.of(entry), List.of()));
    }

    private static String keyReadBack(byte[] document) {
        return text(child(DomDocuments.s3Root(document, "ListBucketResult"), "Contents"), "Key");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<&>\"'",
        "a&amp;b",
        "]]>",
        "<![CDATA[x]]>",
        "tab\tand\nnewline",
        "  leading and trailing spaces  ",
        "caf\u00e9/\u65e5\u672c/\ud83d\ude00",
        "\u007f\u0085\u2028\ufffd",
        ""
    })
    void keysSurviveTheRoundTrip(String key) {
        assertThat(keyReadBack(listingWithKey(key))).isEqualTo(key);
    }

    @Test
    void markupCharactersAreEscaped() {
        String document = new String(listingWithKey("a<b>&c"), StandardCharsets.UTF_8);

        assertThat(document).contains("<Key>a&lt;b&gt;&amp;c</Key>");
    }

    @Test
    void aCarriageReturnIsWrittenAsAReferenceSoThatParsersDoNotTurnItIntoALineFeed() {
        byte[] document = listingWithKey("a\rb\r\nc\r");

        assertThat(new String(document, StandardCharsets.UTF_8)).contains("<Key>a&#13;b&#13;\nc&#13;</Key>");
        assertThat(keyReadBack(document)).isEqualTo("a\rb\r\nc\r");
    }

    static Stream<Arguments> keysAnXmlDocumentCannotCarry() {
        return Stream.of(
                arguments("a\u0001b", "<Key>a&#x1;b</Key>"),
                arguments("\u0000", "<Key>&#x0;</Key>"),
                arguments("\u0008\u000b\u000c", "<Key>&#x8;&#xb;&#xc;</Key>"),
                arguments("esc\u001b", "<Key>esc&#x1b;</Key>"),
                arguments("\u001f/\ufffe/\uffff", "<Key>&#x1f;/&#xfffe;/&#xffff;</Key>"),
                arguments("a\ud800b", "<Key>a&#xd800;b</Key>"));
    }

    @ParameterizedTest(name = "[{index}] -> {1}")
    @MethodSource("keysAnXmlDocumentCannotCarry")
    void textAnXmlDocumentCannotCarryIsWrittenAsAHexadecimalReferenceAsS3WritesIt(String key, String element) {
        assertThat(new String(listingWithKey(key), StandardCharsets.UTF_8)).contains(element);
    }

    @Test
    void suchKeysCanStillBeListedUrlEncoded() {
        assertThat(keyReadBack(listingWithKey(S3Xml.urlEncodeKey("a\u0001b")))).isEqualTo("a%01b");
    }

    @Test
    void theErrorDocumentWritesControlCharactersAsReferencesToo() {
        var error = new ErrorDocument("NoSuchKey", "gone", null, java.util.Map.of("Key", "a\u0002b"), "REQ", null);

        assertThat(new String(S3Xml.renderError(error), StandardCharsets.UTF_8)).contains("<Key>a&#x2;b</Key>");
    }

    @Test
    void timestampsAreUtcWithMilliseconds() {
        assertThat(XmlDocumentWriter.timestamp(Instant.parse("2026-11-22T09:17:00Z"))).isEqualTo("2026-11-22T09:17:00.000Z");
        assertThat(XmlDocumentWriter.timestamp(Instant.parse("2026-11-22T09:17:00.987654321Z")))
                .isEqualTo("2026-11-22T09:17:00.987Z");
        assertThat(XmlDocumentWriter.timestamp(Instant.parse("2026-11-22T09:17:00.5+02:00")))
                .isEqualTo("2026-11-22T07:17:00.500Z");
        assertThat(XmlDocumentWriter.timestamp(Instant.EPOCH)).isEqualTo("1970-01-01T00:00:00.000Z");
    }

    @Test
    void documentsAreUtf8() {
        byte[] document = listingWithKey("\u00e9");

        assertThat(new String(document, StandardCharsets.UTF_8)).contains("<Key>\u00e9</Key>");
        assertThat(document).containsSequence((byte) 0xC3, (byte) 0xA9);
    }
}
