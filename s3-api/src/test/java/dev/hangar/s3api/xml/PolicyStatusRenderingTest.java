package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class PolicyStatusRenderingTest {

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void saysWhetherThePolicyIsPublic(boolean isPublic) {
        Element root = DomDocuments.s3Root(S3Xml.renderPolicyStatus(isPublic), "PolicyStatus");

        assertThat(childNames(root)).containsExactly("IsPublic");
        assertThat(text(root, "IsPublic")).isEqualTo(Boolean.toString(isPublic));
    }
}
