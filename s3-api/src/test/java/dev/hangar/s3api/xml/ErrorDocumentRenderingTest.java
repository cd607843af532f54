package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class ErrorDocumentRenderingTest {

    @Test
    void rendersCodeMessageAndRequestIdInNoNamespace() {
        byte[] document = S3Xml.renderError(ErrorDocument.of(S3Error.NO_SUCH_BUCKET, "The specified bucket does not exist", "4442587FB7D0A2F9"));

        Element root = DomDocuments.root(document, "Error");
        assertThat(root.getNamespaceURI()).isNull();
        assertThat(root.hasAttribute("xmlns")).isFalse();
        assertThat(childNames(root)).containsExactly("Code", "Message", "RequestId");
        assertThat(text(root, "Code")).isEqualTo("NoSuchBucket");
        assertThat(text(root, "Message")).isEqualTo("The specified bucket does not exist");
        assertThat(text(root, "RequestId")).isEqualTo("4442587FB7D0A2F9");
    }

    @Test
    void putsResourceAfterMessageAndExtrasInTheirOrderBeforeTheRequestIds() {
        var extras = new LinkedHashMap<String, String>();
        extras.put("BucketName", "photos");
        extras.put("Key", "2026/a.jpg");
        extras.put("Region", "eu-west-1");
        var error = new ErrorDocument("NoSuchKey", "The specified key does not exist.", "/photos/2026/a.jpg", extras, "REQ1", "HOST1");

        Element root = DomDocuments.root(S3Xml.renderError(error), "Error");

        assertThat(childNames(root))
                .containsExactly("Code", "Message", "Resource", "BucketName", "Key", "Region", "RequestId", "HostId");
        assertThat(text(root, "Resource")).isEqualTo("/photos/2026/a.jpg");
        assertThat(text(root, "Key")).isEqualTo("2026/a.jpg");
        assertThat(text(root, "HostId")).isEqualTo("HOST1");
    }

    @Test
    void buildsTheSameDocumentStepByStep() {
        var error = ErrorDocument.of(S3Error.NO_SUCH_KEY, "The specified key does not exist.", "REQ")
                .withResource("/b/k")
                .withExtra("Key", "k")
                .withExtra("BucketName", "b")
                .withHostId("HOST");

        Element root = DomDocuments.root(S3Xml.renderError(error), "Error");

        assertThat(childNames(root))
                .containsExactly("Code", "Message", "Resource", "Key", "BucketName", "RequestId", "HostId");
    }

    @Test
    void keepsTheOrderOfExtrasAfterCopying() {
        var extras = new LinkedHashMap<String, String>();
        for (String name : new String[] {"Zeta", "Alpha", "Mu", "Beta", "Omega", "Gamma"}) {
            extras.put(name, name.toLowerCase());
        }
        var error = new ErrorDocument("InvalidArgument", "Invalid Argument", null, extras, "REQ", null);

        assertThat(error.extras().keySet()).containsExactly("Zeta", "Alpha", "Mu", "Beta", "Omega", "Gamma");
        assertThat(childNames(DomDocuments.root(S3Xml.renderError(error), "Error")))
                .containsExactly("Code", "Message", "Zeta", "Alpha", "Mu", "Beta", "Omega", "Gamma", "RequestId");
    }

    @Test
    void refusesExtrasThatAreNotElementNamesOrThatRepeatAFixedElement() {
        assertThatThrownBy(() -> new ErrorDocument("C", "M", null, Map.of("Not A Name", "x"), "R", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ErrorDocument("C", "M", null, Map.of("<Key>", "x"), "R", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ErrorDocument("C", "M", null, Map.of("RequestId", "x"), "R", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ErrorDocument.of(S3Error.NO_SUCH_KEY, "m", "r").withExtra("Key", "a").withExtra("Key", "b"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void escapesTheMessage() {
        var error = ErrorDocument.of(S3Error.INVALID_ARGUMENT, "<x> & \"y\" 'z'", "REQ");

        assertThat(text(DomDocuments.root(S3Xml.renderError(error), "Error"), "Message")).isEqualTo("<x> & \"y\" 'z'");
    }
}
