package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bodies written to attack an XML parser: each is refused as MalformedXML and nothing is fetched. */
class HostileBodiesTest {

    @ParameterizedTest
    @ValueSource(strings = {
        // An external entity (XXE) reading a local file.
        "<!DOCTYPE Delete [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>"
                + "<Delete><Object><Key>&secret;</Key></Object></Delete>",
        // An external entity fetched over the network.
        "<!DOCTYPE Delete [<!ENTITY remote SYSTEM \"http://127.0.0.1:1/x\">]>"
                + "<Delete><Object><Key>&remote;</Key></Object></Delete>",
        // Exponential entity expansion ("billion laughs").
        "<!DOCTYPE Delete [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
                + "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>"
                + "<Delete><Object><Key>&d;</Key></Object></Delete>",
        // A parameter entity and an external DTD.
        "<!DOCTYPE Delete [<!ENTITY % remote SYSTEM \"http://127.0.0.1:1/x.dtd\"> %remote;]>"
                + "<Delete><Object><Key>k</Key></Object></Delete>",
        "<!DOCTYPE Delete SYSTEM \"http://127.0.0.1:1/x.dtd\"><Delete><Object><Key>k</Key></Object></Delete>",
        // A harmless DTD is refused too: no DTD has a place in an S3 request.
        "<!DOCTYPE Delete><Delete><Object><Key>k</Key></Object></Delete>"
    })
    void refusesDocumentTypeDeclarations(String text) {
        assertMalformed(() -> S3Xml.parseDelete(body(text)), "");
    }

    @Test
    void refusesADocumentTypeDeclarationInEveryParser() {
        String doctype = "<!DOCTYPE x [<!ENTITY e \"v\">]>";

        assertMalformed(
                () -> S3Xml.parseCompleteMultipartUpload(body(doctype
                        + "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&e;</ETag></Part>"
                        + "</CompleteMultipartUpload>")),
                "");
        assertMalformed(
                () -> S3Xml.parseCreateBucketConfiguration(body(doctype
                        + "<CreateBucketConfiguration><LocationConstraint>&e;</LocationConstraint>"
                        + "</CreateBucketConfiguration>")),
                "");
    }

    @Test
    void survivesDeepNestingInAnUnknownElement() {
        String deep = "<x>".repeat(50_000) + "</x>".repeat(50_000);

        assertMalformed(() -> S3Xml.parseDelete(body("<Delete>" + deep + "</Delete>")), "");
    }

    @Test
    void reportsAStreamThatFailsAsAnInputOutputFailure() {
        InputStream failing = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }
        };

        assertThatThrownBy(() -> S3Xml.parseDelete(failing)).isInstanceOf(UncheckedIOException.class);
    }

    @Test
    void refusesANonsensicalBound() {
        assertThatThrownBy(() -> S3Xml.parseDelete(body("<Delete/>"), 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
