package dev.hangar.s3api.xml;

import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jspecify.annotations.Nullable;

/**
 * One XML document being written into memory: a thin layer over the JDK's {@link XMLStreamWriter}
 * that knows S3's conventions (timestamps, booleans, optional elements) and writes what XML 1.0
 * cannot carry as S3 does (see {@link #writeText}).
 */
final class XmlDocumentWriter {
    static final String S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

    /** XML Schema's instance namespace, whose {@code type} attribute types an ACL grantee. */
    static final String XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

    // S3 writes every timestamp in UTC with exactly three fraction digits, and some clients parse
    // it with a fixed pattern, so the format is fixed here rather than left to Instant.toString().
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final ByteArrayOutputStream output = new ByteArrayOutputStream(1024);
    private final XMLStreamWriter writer;

    private XmlDocumentWriter(String rootName, @Nullable String defaultNamespace) {
        try {
            // The default factory, not the service-loaded one: another StAX implementation on the
            // class path (Woodstox comes with some libraries) would change escaping and could
            // refuse the character reference that carries a carriage return. A factory per
            // document costs next to nothing and sidesteps any question of sharing one.
            writer = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(output, "UTF-8");
            writer.writeStartDocument("UTF-8", "1.0");
            writer.writeStartElement(rootName);
            if (defaultNamespace != null) {
                writer.writeDefaultNamespace(defaultNamespace);
            }
        } catch (XMLStreamException exception) {
            throw writeFailure(exception);
        }
    }

    /** A document whose root, and so every element in it, is in the S3 namespace. */
    static XmlDocumentWriter inS3Namespace(String rootName) {
        return new XmlDocumentWriter(rootName, S3_NAMESPACE);
    }

    /** A document in no namespace: S3's {@code Error} document is the one such. */
    static XmlDocumentWriter withoutNamespace(String rootName) {
        return new XmlDocumentWriter(rootName, null);
    }

    static String timestamp(Instant instant) {
        return TIMESTAMP.format(instant);
    }

    XmlDocumentWriter start(String name) {
        try {
            writer.writeStartElement(name);
        } catch (XMLStreamException exception) {
            throw writeFailure(exception);
        }
        return this;
    }

    /**
     * Starts an element that declares the {@code xsi} prefix and carries {@code xsi:type}, as S3
     * writes an ACL's {@code Grantee}: {@code <Grantee xmlns:xsi="..." xsi:type="CanonicalUser">}.
     */
    XmlDocumentWriter startWithXsiType(String name, String type) {
        try {
            writer.writeStartElement(name);
            writer.writeNamespace("xsi", XSI_NAMESPACE);
            writer.writeAttribute("xsi", XSI_NAMESPACE, "type", type);
        } catch (XMLStreamException exception) {
            throw writeFailure(exception);
        }
        return this;
    }

    XmlDocumentWriter end() {
        try {
            writer.writeEndElement();
        } catch (XMLStreamException exception) {
            throw writeFailure(exception);
        }
        return this;
    }

    XmlDocumentWriter element(String name, String text) {
        try {
            writer.writeStartElement(name);
            writeText(text);
            writer.writeEndElement();
        } catch (XMLStreamException exception) {
            throw writeFailure(exception);
        }
        return this;
    }

    /** Text directly inside the element last started, the root included. */
    XmlDocumentWriter text(String elementName, String text) {
        try {
            writeText(text);
        } catch (XMLStreamException exception) {
            throw writeFailure(exception);
        }
        return this;
    }

    /** The element when there is a value, nothing when there is none. */
    XmlDocumentWriter elementIfPresent(String name, @Nullable String text) {
        return text == null ? this : element(name, text);
    }

    XmlDocumentWriter element(String name, long number) {
        return element(name, Long.toString(number));
    }

    XmlDocumentWriter element(String name, boolean flag) {
        return element(name, flag ? "true" : "false");
    }

    XmlDocumentWriter element(String name, Instant instant) {
        return element(name, timestamp(instant));
    }

    /** Closes the root element and returns the document's bytes. */
    byte[] finish() {
        try {
            writer.writeEndElement();
            writer.writeEndDocument();
            writer.close();
        } catch (XMLStreamException exception) {
            throw writeFailure(exception);
        }
        return output.toByteArray();
    }

    /**
     * Writes text, escaping markup. Two kinds of character are written as character references instead:
     *
     * <ul>
     *   <li>a carriage return, as {@code &#13;}: a literal one reaches the client as a line feed, because
     *       XML parsers normalise line ends (XML 1.0, section 2.11), and a reference survives;
     *   <li>a character outside XML 1.0's Char production (the C0 controls but tab, line feed and carriage
     *       return, U+FFFE, U+FFFF, a lone surrogate), as {@code &#x1;}: what S3 writes for the keys that
     *       hold them when a listing is not asked for {@code encoding-type=url}. Such a document is not
     *       well-formed XML 1.0, and strict parsers refuse it, exactly as they refuse S3's; clients that list
     *       such keys ask for {@code encoding-type=url} (the AWS CLI and boto3 always do), which leaves none
     *       in the document. Refusing to answer instead would make every listing of the bucket fail.
     * </ul>
     *
     * The JDK's writer writes an entity reference's name as given, so {@code "#13"} becomes {@code &#13;}.
     */
    private void writeText(String text) throws XMLStreamException {
        int segmentStart = 0;
        int index = 0;
        while (index < text.length()) {
            int codePoint = text.codePointAt(index);
            int next = index + Character.charCount(codePoint);
            String reference = codePoint == '\r' ? "#13"
                    : isXmlCharacter(codePoint) ? null
                    : "#x" + Integer.toHexString(codePoint);
            if (reference != null) {
                if (index > segmentStart) {
                    writer.writeCharacters(text.substring(segmentStart, index));
                }
                writer.writeEntityRef(reference);
                segmentStart = next;
            }
            index = next;
        }
        if (segmentStart < text.length()) {
            writer.writeCharacters(segmentStart == 0 ? text : text.substring(segmentStart));
        }
    }

    /** The Char production of XML 1.0: what a document may hold, even as a character reference. */
    private static boolean isXmlCharacter(int codePoint) {
        return codePoint == 0x9
                || codePoint == 0xA
                || codePoint == 0xD
                || (codePoint >= 0x20 && codePoint <= 0xD7FF)
                || (codePoint >= 0xE000 && codePoint <= 0xFFFD)
                || (codePoint >= 0x10000 && codePoint <= 0x10FFFF);
    }

    private static IllegalStateException writeFailure(XMLStreamException exception) {
        // Writing to memory only fails on a programming error (an unbalanced end, say).
        return new IllegalStateException("could not write an XML document", exception);
    }
}
