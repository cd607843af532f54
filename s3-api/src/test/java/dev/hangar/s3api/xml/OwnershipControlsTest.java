package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.xml.OwnershipControls.ObjectOwnership;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

class OwnershipControlsTest {

    @ParameterizedTest
    @EnumSource(ObjectOwnership.class)
    void survivesTheRoundTripAsOneRule(ObjectOwnership ownership) {
        byte[] document = S3Xml.renderOwnershipControls(new OwnershipControls(ownership));

        Element root = DomDocuments.s3Root(document, "OwnershipControls");
        assertThat(childNames(root)).containsExactly("Rule");
        assertThat(S3Xml.parseOwnershipControls(body(document))).isEqualTo(new OwnershipControls(ownership));
    }

    @Test
    void readsTheSettingAsS3SpellsIt() {
        OwnershipControls parsed = S3Xml.parseOwnershipControls(body("""
                <OwnershipControls xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
                  <Rule><ObjectOwnership>BucketOwnerEnforced</ObjectOwnership></Rule>
                </OwnershipControls>"""));

        assertThat(parsed.objectOwnership()).isEqualTo(ObjectOwnership.BUCKET_OWNER_ENFORCED);
    }

    @Test
    void refusesAnythingButOneRuleWithOneKnownSetting() {
        for (String document : List.of(
                "<OwnershipControls/>",
                "<OwnershipControls><Rule/></OwnershipControls>",
                "<OwnershipControls><Rule><ObjectOwnership>Everyone</ObjectOwnership></Rule></OwnershipControls>",
                "<OwnershipControls><Rule><ObjectOwnership>ObjectWriter</ObjectOwnership>"
                        + "<ObjectOwnership>ObjectWriter</ObjectOwnership></Rule></OwnershipControls>",
                "<OwnershipControls><Rule><ObjectOwnership>ObjectWriter</ObjectOwnership></Rule>"
                        + "<Rule><ObjectOwnership>ObjectWriter</ObjectOwnership></Rule></OwnershipControls>",
                "<PublicAccessBlockConfiguration/>",
                "")) {
            assertMalformed(() -> S3Xml.parseOwnershipControls(body(document)), "");
        }
    }
}
