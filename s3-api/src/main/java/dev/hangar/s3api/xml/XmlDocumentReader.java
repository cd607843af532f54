package dev.hangar.s3api.xml;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.jspecify.annotations.Nullable;

/**
 * A request document being read: a bounded copy of the body and a secure StAX cursor over it, with
 * the few moves the request parsers need (enter the root, step through children, read a leaf's
 * text, skip what is not understood). Every failure becomes S3's MalformedXML.
 */
final class XmlDocumentReader {
    // Some clients write the namespace without its final slash; both name the same schema.
    private static final String S3_NAMESPACE_WITHOUT_SLASH =
            XmlDocumentWriter.S3_NAMESPACE.substring(0, XmlDocumentWriter.S3_NAMESPACE.length() - 1);

    private final XMLStreamReader reader;

    private XmlDocumentReader(XMLStreamReader reader) {
        this.reader = reader;
    }

    /**
     * Reads the whole body, refusing it as soon as it runs past {@code maximumBytes}: the bound is
     * what keeps a hostile client from making the server buffer an unbounded document.
     */
    static byte[] readBounded(InputStream body, int maximumBytes) {
        if (maximumBytes <= 0 || maximumBytes == Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maximum body size must be positive and finite: " + maximumBytes);
        }
        byte[] bytes;
        try {
            bytes = body.readNBytes(maximumBytes + 1);
        } catch (IOException exception) {
            throw new UncheckedIOException("could not read the request body", exception);
        }
        if (bytes.length > maximumBytes) {
            throw malformed("The request body is larger than the " + maximumBytes + " bytes this request may have.");
        }
        return bytes;
    }

    /** Whether the body holds nothing but XML white space. */
    static boolean isBlank(byte[] body) {
        for (byte octet : body) {
            if (octet != ' ' && octet != '\t' && octet != '\n' && octet != '\r') {
                return false;
            }
        }
        return true;
    }

    /** Opens the document and moves to its root element, which has to be {@code rootName}. */
    static XmlDocumentReader openAtRoot(byte[] body, String rootName) {
        XMLStreamReader reader;
        try {
            reader = secureFactory().createXMLStreamReader(new StringReader(utf8(body)));
            int event = reader.getEventType();
            while (event != XMLStreamConstants.START_ELEMENT) {
                if (event == XMLStreamConstants.DTD) {
                    // The factory already ignores DTDs; refusing them outright leaves no room for
                    // a parser quirk to expand an entity declared in one.
                    throw malformed("A document type declaration is not allowed.");
                }
                if (event == XMLStreamConstants.END_DOCUMENT) {
                    throw malformed("The body has no root element.");
                }
                event = reader.next();
            }
        } catch (XMLStreamException exception) {
            throw notWellFormed(exception);
        }
        XmlDocumentReader document = new XmlDocumentReader(reader);
        if (!document.isS3Element(rootName)) {
            throw malformed("The root element is " + reader.getName() + ", not " + rootName + ".");
        }
        return document;
    }

    /**
     * The body as text. S3's request documents are UTF-8, so the body is decoded here, strictly,
     * rather than by the parser: the JDK's parser prints "[Fatal Error]" to standard error when it
     * meets a malformed byte sequence, which any client could then write into the server's log.
     * The parser reads the text and ignores the encoding the declaration names.
     */
    private static String utf8(byte[] body) {
        try {
            String text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
            // A byte order mark is allowed before a UTF-8 document; the parser, reading text,
            // would take it for content before the prolog.
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException exception) {
            throw malformed("The body is not UTF-8.");
        }
    }

    /**
     * Moves to the next child element of the element the cursor is in and returns true, or to that
     * element's end and returns false. Text between children is refused, comments are skipped.
     *
     * @param parent the element the cursor is in, as messages should name it (the cursor may sit
     *     on the end of the previous child, whose name is not the parent's)
     */
    boolean nextChild(String parent) {
        try {
            while (true) {
                switch (reader.next()) {
                    case XMLStreamConstants.START_ELEMENT -> {
                        return true;
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        return false;
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                        if (!reader.isWhiteSpace()) {
                            throw malformed(parent + " holds text where elements belong.");
                        }
                    }
                    default -> {
                        // Comments and processing instructions are no part of the request.
                    }
                }
            }
        } catch (XMLStreamException exception) {
            throw notWellFormed(exception);
        }
    }

    /**
     * Whether the current element is {@code localName} in the S3 namespace or in none. An element
     * of another namespace is never one of ours, whatever its local name.
     */
    boolean isS3Element(String localName) {
        return localName.equals(reader.getLocalName()) && isS3Namespace(reader.getNamespaceURI());
    }

    /** The current element's local name when it is in the S3 namespace or in none, otherwise null. */
    @Nullable String s3LocalName() {
        return isS3Namespace(reader.getNamespaceURI()) ? reader.getLocalName() : null;
    }

    /**
     * The value of the current element's attribute with that namespace and local name, or null when
     * it has none. The cursor has to be on a start element.
     */
    @Nullable String attribute(String namespace, String localName) {
        return reader.getAttributeValue(namespace, localName);
    }

    /**
     * The text of the current element, which has to be a leaf; leaves the cursor at its end.
     * Written out rather than left to getElementText, which reports a child element and a parse
     * error alike and leaves the cursor where its name can no longer be read.
     */
    String text() {
        String elementName = reader.getLocalName();
        StringBuilder text = new StringBuilder();
        try {
            while (true) {
                switch (reader.next()) {
                    case XMLStreamConstants.CHARACTERS,
                            XMLStreamConstants.CDATA,
                            XMLStreamConstants.SPACE,
                            XMLStreamConstants.ENTITY_REFERENCE -> text.append(reader.getText());
                    case XMLStreamConstants.END_ELEMENT -> {
                        return text.toString();
                    }
                    case XMLStreamConstants.START_ELEMENT ->
                        throw malformed("The element " + elementName + " has to hold text only.");
                    default -> {
                        // Comments and processing instructions carry nothing of the value.
                    }
                }
            }
        } catch (XMLStreamException exception) {
            throw notWellFormed(exception);
        }
    }

    /** Skips the current element and everything in it; leaves the cursor at its end. */
    void skip() {
        try {
            int depth = 1;
            while (depth > 0) {
                int event = reader.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    depth++;
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    depth--;
                }
            }
        } catch (XMLStreamException exception) {
            throw notWellFormed(exception);
        }
    }

    /**
     * Reads the children of the current element that are named in {@code names}, each at most once,
     * and skips the others, which newer clients may send. Leaves the cursor at the element's end.
     */
    Map<String, String> readLeaves(Set<String> names, String context) {
        Map<String, String> values = new HashMap<>();
        while (nextChild(context)) {
            String name = s3LocalName();
            if (name != null && names.contains(name)) {
                if (values.putIfAbsent(name, text()) != null) {
                    throw malformed(context + " has more than one " + name + ".");
                }
            } else {
                skip();
            }
        }
        return values;
    }

    /**
     * Reads past the root's end to the end of the document, so that anything after the root (a
     * second root, stray text) is refused as S3 refuses it, then releases the parser.
     */
    void finish() {
        try {
            while (reader.hasNext()) {
                reader.next();
            }
            reader.close();
        } catch (XMLStreamException exception) {
            throw notWellFormed(exception);
        }
    }

    static S3Exception malformed(String detail) {
        return new S3Exception(S3Error.MALFORMED_XML, S3Error.MALFORMED_XML.message() + " " + detail);
    }

    private static S3Exception notWellFormed(XMLStreamException exception) {
        Location location = exception.getLocation();
        String where = location == null
                ? ""
                : " (line " + location.getLineNumber() + ", column " + location.getColumnNumber() + ")";
        return malformed("The body is not well-formed XML" + where + ".");
    }

    private static boolean isS3Namespace(@Nullable String namespace) {
        return namespace == null
                || namespace.isEmpty()
                || namespace.equals(XmlDocumentWriter.S3_NAMESPACE)
                || namespace.equals(S3_NAMESPACE_WITHOUT_SLASH);
    }

    private static XMLInputFactory secureFactory() {
        // The JDK's own factory, configured per document: a shared factory is not documented as
        // safe to use from many threads, and building one is cheap beside reading a request body.
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        factory.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("external resources are not read: " + systemId);
        });
        return factory;
    }
}
