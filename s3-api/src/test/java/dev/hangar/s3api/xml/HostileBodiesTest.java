package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
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
    void refusesADocumentTypeDeclarationInEveryConfigurationParser() {
        String doctype = "<!DOCTYPE x [<!ENTITY e \"v\">]>";
        List<ThrowingCallable> parsers = List.of(
                () -> S3Xml.parseVersioningConfiguration(body(doctype
                        + "<VersioningConfiguration><Status>&e;</Status></VersioningConfiguration>")),
                () -> S3Xml.parseTagging(body(doctype + "<Tagging><TagSet><Tag><Key>&e;</Key><Value>v</Value></Tag>"
                        + "</TagSet></Tagging>"), TaggedResource.OBJECT),
                () -> S3Xml.parseCorsConfiguration(body(doctype + "<CORSConfiguration><CORSRule><AllowedOrigin>&e;"
                        + "</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>")),
                () -> S3Xml.parseWebsiteConfiguration(body(doctype
                        + "<WebsiteConfiguration><IndexDocument><Suffix>&e;</Suffix></IndexDocument></WebsiteConfiguration>")),
                () -> S3Xml.parseLifecycleConfiguration(body(doctype + "<LifecycleConfiguration><Rule><Filter><Prefix>&e;"
                        + "</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>"
                        + "</LifecycleConfiguration>")),
                () -> S3Xml.parseAccessControlPolicy(body(doctype + "<AccessControlPolicy><Owner><ID>&e;</ID></Owner>"
                        + "<AccessControlList/></AccessControlPolicy>")),
                () -> S3Xml.parseObjectLockConfiguration(body(doctype
                        + "<ObjectLockConfiguration><ObjectLockEnabled>&e;</ObjectLockEnabled></ObjectLockConfiguration>")),
                () -> S3Xml.parseRetention(body(doctype + "<Retention><Mode>&e;</Mode></Retention>")),
                () -> S3Xml.parseLegalHold(body(doctype + "<LegalHold><Status>&e;</Status></LegalHold>")));

        for (ThrowingCallable parse : parsers) {
            assertMalformed(parse, "");
        }
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
