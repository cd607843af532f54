package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class PublicAccessBlockConfigurationTest {

    @Test
    void survivesTheRoundTripWithEveryElementInS3sOrder() {
        PublicAccessBlockConfiguration configuration = new PublicAccessBlockConfiguration(true, false, true, false);
        byte[] document = S3Xml.renderPublicAccessBlockConfiguration(configuration);

        Element root = DomDocuments.s3Root(document, "PublicAccessBlockConfiguration");
        assertThat(childNames(root))
                .containsExactly("BlockPublicAcls", "IgnorePublicAcls", "BlockPublicPolicy", "RestrictPublicBuckets");
        assertThat(S3Xml.parsePublicAccessBlockConfiguration(body(document))).isEqualTo(configuration);
    }

    @Test
    void aSettingLeftOutIsFalse() {
        PublicAccessBlockConfiguration parsed = S3Xml.parsePublicAccessBlockConfiguration(body("""
                <PublicAccessBlockConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
                  <RestrictPublicBuckets> true </RestrictPublicBuckets>
                </PublicAccessBlockConfiguration>"""));

        assertThat(parsed).isEqualTo(new PublicAccessBlockConfiguration(false, false, false, true));
    }

    @Test
    void refusesAValueThatIsNoBooleanAnEmptyBodyAndAnotherRoot() {
        assertMalformed(() -> S3Xml.parsePublicAccessBlockConfiguration(body(
                "<PublicAccessBlockConfiguration><BlockPublicAcls>yes</BlockPublicAcls></PublicAccessBlockConfiguration>")),
                "BlockPublicAcls");
        assertMalformed(() -> S3Xml.parsePublicAccessBlockConfiguration(body(
                "<PublicAccessBlockConfiguration><BlockPublicAcls>true</BlockPublicAcls>"
                        + "<BlockPublicAcls>false</BlockPublicAcls></PublicAccessBlockConfiguration>")),
                "more than one");
        assertMalformed(() -> S3Xml.parsePublicAccessBlockConfiguration(body("")), "");
        assertMalformed(() -> S3Xml.parsePublicAccessBlockConfiguration(body(
                "<OwnershipControls><BlockPublicAcls>true</BlockPublicAcls></OwnershipControls>")), "");
    }
}
