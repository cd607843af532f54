package dev.hangar.s3api.semantics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EtagsTest {

    @Test
    void quotesTheLowerCaseHexOfTheMd5() {
        assertThat(Etags.of(md5("hello"))).isEqualTo("\"5d41402abc4b2a76b9719d911017c592\"");
        assertThat(Etags.of(md5(""))).isEqualTo("\"d41d8cd98f00b204e9800998ecf8427e\"");
    }

    @Test
    void computesTheMultipartEtagAsTheMd5OfThePartMd5sWithThePartCount() throws Exception {
        byte[][] partMd5s = {md5("part one"), md5("part two"), md5("part three")};
        ByteArrayOutputStream concatenated = new ByteArrayOutputStream();
        for (byte[] partMd5 : partMd5s) {
            concatenated.write(partMd5);
        }
        String expected = "\"" + HexFormat.of().formatHex(md5(concatenated.toByteArray())) + "-3\"";

        List<String> quoted = List.of(Etags.of(partMd5s[0]), Etags.of(partMd5s[1]), Etags.of(partMd5s[2]));
        List<String> unquoted = quoted.stream().map(Etags::unquote).toList();
        List<String> upperCase = unquoted.stream().map(etag -> etag.toUpperCase(Locale.ROOT)).toList();

        assertThat(Etags.multipart(quoted)).isEqualTo(expected);
        assertThat(Etags.multipart(unquoted)).isEqualTo(expected);
        assertThat(Etags.multipart(upperCase)).isEqualTo(expected);
    }

    @Test
    void countsASinglePartToo() {
        byte[] partMd5 = md5("only part");

        assertThat(Etags.multipart(List.of(Etags.of(partMd5))))
                .isEqualTo("\"" + HexFormat.of().formatHex(md5(partMd5)) + "-1\"");
    }

    @Test
    void dependsOnPartOrder() {
        String first = Etags.of(md5("a"));
        String second = Etags.of(md5("b"));

        assertThat(Etags.multipart(List.of(first, second))).isNotEqualTo(Etags.multipart(List.of(second, first)));
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(delimiter = '|', value = {
            "'\"abc\"'|abc",
            "abc|abc",
            "' \"abc\" '|abc",
            "'\"abc-3\"'|abc-3",
            "'\"\"'|''",
            "'\"'|'\"'",
            "'\"abc'|'\"abc'",
            "'abc\"'|'abc\"'"})
    void unquotesOnlyAMatchingPairOfQuotes(String etag, String unquoted) {
        assertThat(Etags.unquote(etag)).isEqualTo(unquoted);
    }

    @ParameterizedTest(name = "[{0}] vs [{1}] -> {2}")
    @CsvSource(delimiter = '|', value = {
            "'\"abc\"'|'\"abc\"'|true",
            "'\"abc\"'|abc|true",
            "abc|'\"abc\"'|true",
            "abc|abc|true",
            "' \"abc\"'|abc|true",
            "'\"abc\"'|'\"abd\"'|false",
            "abc|abd|false",
            "'\"abc-2\"'|abc|false"})
    void comparesTagsWithOrWithoutQuotes(String left, String right, boolean same) {
        assertThat(Etags.sameTag(left, right)).isEqualTo(same);
        assertThat(Etags.sameTag(right, left)).isEqualTo(same);
    }

    private static byte[] md5(String text) {
        return md5(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] md5(byte[] bytes) {
        try {
            return MessageDigest.getInstance("MD5").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
