package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class PostResponseRenderingTest {

    @Test
    void rendersLocationBucketKeyAndEtagInNoNamespace() {
        var response = new PostResponse("https://foobar.s3.amazonaws.com/pr%C3%A9sident.jpg", "foobar", "pr\u00e9sident.jpg",
                "\"14dd4667441ada2b3914e5c1b72573b3\"");

        byte[] document = S3Xml.renderPostResponse(response);
        Element root = DomDocuments.root(document, "PostResponse");

        assertThat(root.getNamespaceURI()).isNull();
        assertThat(new String(document, StandardCharsets.UTF_8)).doesNotContain("xmlns");
        assertThat(childNames(root)).containsExactly("Location", "Bucket", "Key", "ETag");
        assertThat(text(root, "Location")).isEqualTo("https://foobar.s3.amazonaws.com/pr%C3%A9sident.jpg");
        assertThat(text(root, "Bucket")).isEqualTo("foobar");
        assertThat(text(root, "Key")).isEqualTo("pr\u00e9sident.jpg");
        assertThat(text(root, "ETag")).isEqualTo("\"14dd4667441ada2b3914e5c1b72573b3\"");
    }
}
