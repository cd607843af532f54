package dev.hangar.s3api.xml;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** Reads a rendered document back with a DOM parser, the way a client would, for assertions. */
final class DomDocuments {
    static final String DECLARATION = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

    private DomDocuments() {}

    /** Parses the document and checks the prolog, the root's name and that it is in the S3 namespace. */
    static Element s3Root(byte[] document, String rootName) {
        Element root = root(document, rootName);
        assertThat(root.getNamespaceURI()).isEqualTo(S3Xml.S3_NAMESPACE);
        assertThat(root.getAttribute("xmlns")).isEqualTo(S3Xml.S3_NAMESPACE);
        assertAllInNamespace(root, S3Xml.S3_NAMESPACE);
        return root;
    }

    /** Parses the document and checks the prolog and the root's name. */
    static Element root(byte[] document, String rootName) {
        assertThat(new String(document, StandardCharsets.UTF_8)).startsWith(DECLARATION);
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newDefaultInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            Element root = factory.newDocumentBuilder()
                    .parse(new ByteArrayInputStream(document))
                    .getDocumentElement();
            assertThat(root.getLocalName()).isEqualTo(rootName);
            return root;
        } catch (Exception exception) {
            throw new AssertionError("not a well-formed document: " + new String(document, StandardCharsets.UTF_8), exception);
        }
    }

    /** The local names of the element's child elements, in document order. */
    static List<String> childNames(Element element) {
        return childElements(element).stream().map(Element::getLocalName).toList();
    }

    static List<Element> childElements(Element element) {
        List<Element> children = new ArrayList<>();
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element child) {
                children.add(child);
            }
        }
        return children;
    }

    static List<Element> children(Element element, String name) {
        return childElements(element).stream().filter(child -> child.getLocalName().equals(name)).toList();
    }

    /** The one child element with that name. */
    static Element child(Element element, String name) {
        List<Element> matches = children(element, name);
        assertThat(matches).as("children named %s", name).hasSize(1);
        return matches.getFirst();
    }

    /** The text of the one child element with that name. */
    static String text(Element element, String name) {
        return child(element, name).getTextContent();
    }

    private static void assertAllInNamespace(Element element, String namespace) {
        for (Element child : childElements(element)) {
            assertThat(child.getNamespaceURI()).as("namespace of %s", child.getLocalName()).isEqualTo(namespace);
            assertAllInNamespace(child, namespace);
        }
    }
}
