package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.RequestBodies.NAMESPACE;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DeleteParsingTest {

    private static String deleteOf(int objects) {
        StringBuilder document = new StringBuilder("<Delete" + NAMESPACE + ">");
        for (int index = 0; index < objects; index++) {
            document.append("<Object><Key>key-").append(index).append("</Key></Object>");
        }
        return document.append("</Delete>").toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", NAMESPACE})
    void readsObjectsWithOrWithoutTheNamespace(String namespace) {
        DeleteObjects delete = S3Xml.parseDelete(body("""
                <?xml version="1.0" encoding="UTF-8"?>
                <Delete%s>
                  <Quiet>true</Quiet>
                  <Object>
                    <Key>sample1.txt</Key>
                  </Object>
                  <Object>
                    <VersionId>OYcLXagmS.WaD..oyH4KRguB95_YhLs7</VersionId>
                    <Key>sample2.txt</Key>
                  </Object>
                </Delete>""".formatted(namespace)));

        assertThat(delete.quiet()).isTrue();
        assertThat(delete.objects()).containsExactly(
                new ObjectIdentifier("sample1.txt", null),
                new ObjectIdentifier("sample2.txt", "OYcLXagmS.WaD..oyH4KRguB95_YhLs7"));
    }

    @Test
    void isNotQuietUnlessAsked() {
        assertThat(S3Xml.parseDelete(body("<Delete><Object><Key>k</Key></Object></Delete>")).quiet()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"true, true", "True, true", " TRUE , true", "1, true", "false, false", "FALSE, false", "0, false"})
    void readsQuietAsABoolean(String text, boolean quiet) {
        DeleteObjects delete = S3Xml.parseDelete(body(
                "<Delete><Quiet>" + text + "</Quiet><Object><Key>k</Key></Object></Delete>"));

        assertThat(delete.quiet()).isEqualTo(quiet);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "", "2", "tru"})
    void refusesAQuietThatIsNotABoolean(String text) {
        assertMalformed(
                () -> S3Xml.parseDelete(body("<Delete><Quiet>" + text + "</Quiet><Object><Key>k</Key></Object></Delete>")),
                "Quiet has to be true or false");
    }

    @Test
    void refusesTwoQuiets() {
        assertMalformed(
                () -> S3Xml.parseDelete(body(
                        "<Delete><Quiet>true</Quiet><Quiet>false</Quiet><Object><Key>k</Key></Object></Delete>")),
                "more than one Quiet");
    }

    @Test
    void keepsKeysExactlyAsSent() {
        DeleteObjects delete = S3Xml.parseDelete(body(
                "<Delete>"
                        + "<Object><Key>  padded  </Key></Object>"
                        + "<Object><Key>a&lt;b&gt;&amp;c&quot;&apos;</Key></Object>"
                        + "<Object><Key>line&#13;&#10;end</Key></Object>"
                        + "<Object><Key><![CDATA[<raw & cdata>]]></Key></Object>"
                        + "<Object><Key>caf\u00e9/\ud83d\ude00</Key></Object>"
                        + "<Object><Key></Key></Object>"
                        + "</Delete>"));

        assertThat(delete.objects()).extracting(ObjectIdentifier::key).containsExactly(
                "  padded  ", "a<b>&c\"'", "line\r\nend", "<raw & cdata>", "caf\u00e9/\ud83d\ude00", "");
    }

    @Test
    void skipsElementsItDoesNotKnow() {
        DeleteObjects delete = S3Xml.parseDelete(body(
                "<Delete><Object><Key>k</Key><ETag>\"e\"</ETag><Size>3</Size></Object><Extra/></Delete>"));

        assertThat(delete.objects()).containsExactly(new ObjectIdentifier("k", null));
    }

    @Test
    void acceptsAThousandObjects() {
        assertThat(S3Xml.parseDelete(body(deleteOf(1000))).objects()).hasSize(1000);
    }

    @Test
    void refusesMoreThanAThousandObjects() {
        assertMalformed(() -> S3Xml.parseDelete(body(deleteOf(1001))), "more than 1000 objects");
    }

    @Test
    void acceptsAThousandLongestKeysUnderTheDefaultBound() {
        String longestKey = "k".repeat(1024);
        StringBuilder document = new StringBuilder("<Delete" + NAMESPACE + "><Quiet>true</Quiet>");
        for (int index = 0; index < 1000; index++) {
            document.append("<Object><Key>").append(longestKey).append("</Key></Object>");
        }
        document.append("</Delete>");

        assertThat(S3Xml.parseDelete(body(document.toString())).objects()).hasSize(1000);
    }

    @Test
    void refusesNoObjects() {
        assertMalformed(() -> S3Xml.parseDelete(body("<Delete><Quiet>true</Quiet></Delete>")), "names no Object");
    }

    @Test
    void refusesAnObjectWithoutKey() {
        assertMalformed(
                () -> S3Xml.parseDelete(body(
                        "<Delete><Object><Key>a</Key></Object><Object><VersionId>v</VersionId></Object></Delete>")),
                "Object 2 has no Key");
    }

    @Test
    void refusesAnObjectWithTwoKeys() {
        assertMalformed(
                () -> S3Xml.parseDelete(body("<Delete><Object><Key>a</Key><Key>b</Key></Object></Delete>")),
                "Object 1 has more than one Key");
    }

    @Test
    void refusesTheWrongRoot() {
        assertMalformed(() -> S3Xml.parseDelete(body("<DeleteObjects><Object><Key>a</Key></Object></DeleteObjects>")),
                "not Delete");
    }

    @Test
    void refusesAnEmptyBody() {
        assertMalformed(() -> S3Xml.parseDelete(body("")), "empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"<Delete><Object><Key>a</Key></Object>", "<Delete><Object><Key>a</Object></Key></Delete>", "{}"})
    void refusesBodiesThatAreNotWellFormed(String text) {
        assertMalformed(() -> S3Xml.parseDelete(body(text)), "not well-formed");
    }

    @Test
    void refusesABodyOverTheBound() {
        assertMalformed(() -> S3Xml.parseDelete(body(deleteOf(10)), 100), "larger than the 100 bytes");
    }
}
