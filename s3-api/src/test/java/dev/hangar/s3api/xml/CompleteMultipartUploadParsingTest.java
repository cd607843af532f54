package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.RequestBodies.NAMESPACE;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompleteMultipartUploadParsingTest {

    private static final String TWO_PARTS = """
            <CompleteMultipartUpload%s>
              <Part>
                <PartNumber>1</PartNumber>
                <ETag>"a54357aff0632cce46d942af68356b38"</ETag>
              </Part>
              <Part>
                <ETag>"0c78aef83f66abc1fa1e8477f296d394"</ETag>
                <ChecksumCRC32>AAAAAA==</ChecksumCRC32>
                <PartNumber>2</PartNumber>
              </Part>
            </CompleteMultipartUpload>""";

    @ParameterizedTest
    @ValueSource(strings = {"", NAMESPACE, " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01\""})
    void readsPartsWithOrWithoutTheNamespace(String namespace) {
        CompleteMultipartUpload upload = S3Xml.parseCompleteMultipartUpload(body(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + TWO_PARTS.formatted(namespace)));

        assertThat(upload.parts()).containsExactly(
                new CompletedPart(1, "\"a54357aff0632cce46d942af68356b38\"", Checksums.none()),
                new CompletedPart(2, "\"0c78aef83f66abc1fa1e8477f296d394\"", new Checksums("AAAAAA==", null, null, null, null)));
    }

    @Test
    void readsAPrefixedNamespace() {
        CompleteMultipartUpload upload = S3Xml.parseCompleteMultipartUpload(body(
                "<s3:CompleteMultipartUpload xmlns:s3=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                        + "<s3:Part><s3:PartNumber>7</s3:PartNumber><s3:ETag>e</s3:ETag></s3:Part>"
                        + "</s3:CompleteMultipartUpload>"));

        assertThat(upload.parts()).containsExactly(new CompletedPart(7, "e", Checksums.none()));
    }

    @Test
    void keepsThePartsInTheOrderSentWithoutJudgingIt() {
        CompleteMultipartUpload upload = S3Xml.parseCompleteMultipartUpload(body(
                "<CompleteMultipartUpload>"
                        + "<Part><PartNumber>3</PartNumber><ETag>c</ETag></Part>"
                        + "<Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>"
                        + "<Part><PartNumber>3</PartNumber><ETag>c</ETag></Part>"
                        + "<Part><PartNumber>0</PartNumber><ETag>z</ETag></Part>"
                        + "</CompleteMultipartUpload>"));

        assertThat(upload.parts()).extracting(CompletedPart::partNumber).containsExactly(3, 1, 3, 0);
    }

    @Test
    void readsEveryChecksumAndSkipsElementsItDoesNotKnow() {
        CompleteMultipartUpload upload = S3Xml.parseCompleteMultipartUpload(body(
                "<CompleteMultipartUpload><!-- a comment -->"
                        + "<ChecksumType>COMPOSITE</ChecksumType>"
                        + "<Part><PartNumber> 1 </PartNumber><ETag> \"e\" </ETag>"
                        + "<ChecksumCRC32>c1</ChecksumCRC32><ChecksumCRC32C>c2</ChecksumCRC32C>"
                        + "<ChecksumCRC64NVME>c3</ChecksumCRC64NVME><ChecksumSHA1>s1</ChecksumSHA1>"
                        + "<ChecksumSHA256>s2</ChecksumSHA256><Future><Nested>x</Nested></Future>"
                        + "<Other xmlns=\"urn:other\">y</Other></Part>"
                        + "</CompleteMultipartUpload>"));

        assertThat(upload.parts()).containsExactly(
                new CompletedPart(1, "\"e\"", new Checksums("c1", "c2", "c3", "s1", "s2")));
    }

    @Test
    void readsEscapedEtags() {
        CompleteMultipartUpload upload = S3Xml.parseCompleteMultipartUpload(body(
                "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber>"
                        + "<ETag>&quot;a54357aff0632cce46d942af68356b38&quot;</ETag></Part></CompleteMultipartUpload>"));

        assertThat(upload.parts().getFirst().etag()).isEqualTo("\"a54357aff0632cce46d942af68356b38\"");
    }

    @Test
    void refusesAPartWithoutPartNumber() {
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(
                        "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>"
                                + "<Part><ETag>b</ETag></Part></CompleteMultipartUpload>")),
                "Part 2 has no PartNumber");
    }

    @Test
    void refusesAPartWithoutEtag() {
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(
                        "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>")),
                "Part 1 has no ETag");
    }

    @ParameterizedTest
    @ValueSource(strings = {"one", "", "1.5", "99999999999", "0x10"})
    void refusesAPartNumberThatIsNotAnInteger(String partNumber) {
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(
                        "<CompleteMultipartUpload><Part><PartNumber>" + partNumber
                                + "</PartNumber><ETag>a</ETag></Part></CompleteMultipartUpload>")),
                "PartNumber that is not an integer");
    }

    @Test
    void refusesAPartThatNamesItsNumberTwice() {
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(
                        "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><PartNumber>2</PartNumber>"
                                + "<ETag>a</ETag></Part></CompleteMultipartUpload>")),
                "more than one PartNumber");
    }

    @Test
    void refusesAnElementWhereTextBelongs() {
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(
                        "<CompleteMultipartUpload><Part><PartNumber><Value>1</Value></PartNumber>"
                                + "<ETag>a</ETag></Part></CompleteMultipartUpload>")),
                "PartNumber has to hold text only");
    }

    @Test
    void refusesTextWhereElementsBelong() {
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(
                        "<CompleteMultipartUpload>text<Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>"
                                + "</CompleteMultipartUpload>")),
                "CompleteMultipartUpload holds text where elements belong");
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(
                        "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><![CDATA[x]]><ETag>a</ETag></Part>"
                                + "</CompleteMultipartUpload>")),
                "Part 1 holds text where elements belong");
    }

    @Test
    void refusesNoParts() {
        assertMalformed(() -> S3Xml.parseCompleteMultipartUpload(body("<CompleteMultipartUpload/>")), "names no Part");
    }

    @Test
    void refusesAnEmptyBody() {
        assertMalformed(() -> S3Xml.parseCompleteMultipartUpload(body("")), "empty");
        assertMalformed(() -> S3Xml.parseCompleteMultipartUpload(body(" \r\n")), "empty");
    }

    @Test
    void refusesTheWrongRoot() {
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body("<Delete><Object><Key>k</Key></Object></Delete>")),
                "not CompleteMultipartUpload");
    }

    @Test
    void refusesTheRightNameInAnotherNamespace() {
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(
                        "<CompleteMultipartUpload xmlns=\"urn:other\"><Part><PartNumber>1</PartNumber><ETag>a</ETag>"
                                + "</Part></CompleteMultipartUpload>")),
                "not CompleteMultipartUpload");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<CompleteMultipartUpload><Part>",
        "<CompleteMultipartUpload><Part></CompleteMultipartUpload>",
        "not xml at all",
        "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>a</ETag></Part></CompleteMultipartUpload><Other/>",
        "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>a &bogus; b</ETag></Part></CompleteMultipartUpload>"
    })
    void refusesBodiesThatAreNotWellFormed(String text) {
        assertMalformed(() -> S3Xml.parseCompleteMultipartUpload(body(text)), "");
    }

    @Test
    void refusesInvalidUtf8() {
        byte[] bytes = {'<', 'C', 'o', 'm', 'p', 'l', 'e', 't', 'e', 'M', 'u', 'l', 't', 'i', 'p', 'a', 'r', 't', 'U', 'p',
            'l', 'o', 'a', 'd', '>', (byte) 0xC3, (byte) 0x28, '<', '/', 'C', 'o', 'm', 'p', 'l', 'e', 't', 'e', 'M', 'u',
            'l', 't', 'i', 'p', 'a', 'r', 't', 'U', 'p', 'l', 'o', 'a', 'd', '>'};

        assertMalformed(() -> S3Xml.parseCompleteMultipartUpload(new ByteArrayInputStream(bytes)), "not UTF-8");
    }

    @Test
    void readsABodyWithAByteOrderMarkOrAnotherDeclaredEncoding() {
        String document = "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\u00e9</ETag></Part>"
                + "</CompleteMultipartUpload>";

        assertThat(S3Xml.parseCompleteMultipartUpload(body("\uFEFF" + document)).parts().getFirst().etag())
                .isEqualTo("\u00e9");
        assertThat(S3Xml.parseCompleteMultipartUpload(body("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + document))
                        .parts().getFirst().etag())
                .as("the body is read as UTF-8, whatever its declaration says")
                .isEqualTo("\u00e9");
    }

    @Test
    void refusesABodyOverTheBound() {
        String document = "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>a</ETag></Part>"
                + "</CompleteMultipartUpload>";

        assertThat(S3Xml.parseCompleteMultipartUpload(body(document), document.length()).parts()).hasSize(1);
        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(document), document.length() - 1),
                "larger than the " + (document.length() - 1) + " bytes");
    }

    @Test
    void acceptsTenThousandPartsWithAChecksumUnderTheDefaultBound() {
        StringBuilder document = new StringBuilder("<CompleteMultipartUpload" + NAMESPACE + ">");
        for (int partNumber = 1; partNumber <= 10_000; partNumber++) {
            document.append("<Part><PartNumber>").append(partNumber)
                    .append("</PartNumber><ETag>\"0c78aef83f66abc1fa1e8477f296d394\"</ETag>")
                    .append("<ChecksumSHA256>47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=</ChecksumSHA256></Part>");
        }
        document.append("</CompleteMultipartUpload>");

        assertThat(S3Xml.parseCompleteMultipartUpload(body(document.toString())).parts()).hasSize(10_000);
    }
}
