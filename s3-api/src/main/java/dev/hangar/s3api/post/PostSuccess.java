package dev.hangar.s3api.post;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jspecify.annotations.Nullable;

/**
 * How S3 answers a POST upload that succeeded, as the form asks:
 * <ul>
 *   <li>{@code success_action_redirect} (or the deprecated {@code redirect}) holding an http(s) URL: {@code 303}
 *       to that URL with {@code bucket}, {@code key} and {@code etag} added to its query
 *       ({@link #redirectLocation});</li>
 *   <li>otherwise {@code success_action_status}: {@code 200} or {@code 204} with no body, {@code 201} with a
 *       {@code PostResponse} document ({@link #responseDocument}); a missing or other value is {@code 204}.</li>
 * </ul>
 * A redirect field whose value S3 cannot read as a URL is ignored, "as if the field is not present".
 *
 * @param status 200, 201, 204 or 303
 * @param redirectUrl the URL to redirect to when the status is 303, otherwise {@code null}
 */
public record PostSuccess(int status, @Nullable String redirectUrl) {
    public static final int OK = 200;
    public static final int CREATED = 201;
    public static final int NO_CONTENT = 204;
    public static final int SEE_OTHER = 303;

    public PostSuccess {
        if (status != OK && status != CREATED && status != NO_CONTENT && status != SEE_OTHER) {
            throw new IllegalArgumentException("not a status S3 answers a POST upload with: " + status);
        }
        if ((status == SEE_OTHER) != (redirectUrl != null)) {
            throw new IllegalArgumentException("a redirect URL goes with status 303 and only with it");
        }
    }

    /** The answer the form's fields ask for; names are looked up case-insensitively. */
    public static PostSuccess decide(Map<String, String> formFields) {
        Map<String, String> fields = new HashMap<>();
        formFields.forEach((name, value) -> fields.put(name.toLowerCase(Locale.ROOT), value));
        @Nullable String redirect = redirectUrl(fields.get("success_action_redirect"));
        if (redirect == null) {
            redirect = redirectUrl(fields.get("redirect"));
        }
        if (redirect != null) {
            return new PostSuccess(SEE_OTHER, redirect);
        }
        @Nullable String status = fields.get("success_action_status");
        if (status == null) {
            return new PostSuccess(NO_CONTENT, null);
        }
        return switch (status) {
            case "200" -> new PostSuccess(OK, null);
            case "201" -> new PostSuccess(CREATED, null);
            default -> new PostSuccess(NO_CONTENT, null);
        };
    }

    /**
     * The {@code Location} of the 303: the redirect URL with {@code bucket}, {@code key} and {@code etag} appended
     * to any query it has, form-encoded as S3 sends them ({@code /} as {@code %2F}, a space as {@code +}, the
     * ETag's quotes as {@code %22}). A fragment stays at the end.
     *
     * @param etag the entity tag as the {@code ETag} header carries it, quotes included
     */
    public String redirectLocation(String bucket, String key, String etag) {
        if (redirectUrl == null) {
            throw new IllegalStateException("this answer is not a redirect");
        }
        int hash = redirectUrl.indexOf('#');
        String url = hash < 0 ? redirectUrl : redirectUrl.substring(0, hash);
        String fragment = hash < 0 ? "" : redirectUrl.substring(hash);
        String separator = url.indexOf('?') < 0 ? "?" : (url.endsWith("?") || url.endsWith("&") ? "" : "&");
        return url + separator + "bucket=" + formEncode(bucket) + "&key=" + formEncode(key) + "&etag="
                + formEncode(etag) + fragment;
    }

    /**
     * The URL of an uploaded object, for the 201 document and the {@code Location} header: the bucket's URL
     * followed by the key with every byte but {@code A-Z a-z 0-9 - . _ ~} percent-encoded, {@code /} included,
     * as S3 writes it ({@code https://b.s3.amazonaws.com/photos%2Fpr%C3%A9sident.jpg}).
     *
     * @param bucketUrl the bucket's URL as the client addressed it, with or without a trailing slash
     */
    public static String objectLocation(String bucketUrl, String key) {
        String base = bucketUrl.endsWith("/") ? bucketUrl : bucketUrl + "/";
        StringBuilder encoded = new StringBuilder(base);
        for (byte octet : key.getBytes(StandardCharsets.UTF_8)) {
            int value = octet & 0xFF;
            if ((value >= 'A' && value <= 'Z') || (value >= 'a' && value <= 'z') || (value >= '0' && value <= '9')
                    || value == '-' || value == '.' || value == '_' || value == '~') {
                encoded.append((char) value);
            } else {
                encoded.append('%').append(String.format(Locale.ROOT, "%02X", value));
            }
        }
        return encoded.toString();
    }

    /**
     * The body of a 201: {@code <PostResponse><Location/><Bucket/><Key/><ETag/></PostResponse>}, in no namespace
     * and in that order, as S3 sends it. The key is written raw, the ETag with its quotes.
     *
     * @throws IllegalArgumentException when a value holds a character XML 1.0 cannot carry
     */
    public static byte[] responseDocument(String location, String bucket, String key, String etag) {
        ByteArrayOutputStream output = new ByteArrayOutputStream(256);
        try {
            // The JDK's own factory, as the xml package uses: another StAX on the class path could escape
            // differently.
            XMLStreamWriter writer = XMLOutputFactory.newDefaultFactory().createXMLStreamWriter(output, "UTF-8");
            writer.writeStartDocument("UTF-8", "1.0");
            writer.writeStartElement("PostResponse");
            element(writer, "Location", location);
            element(writer, "Bucket", bucket);
            element(writer, "Key", key);
            element(writer, "ETag", etag);
            writer.writeEndElement();
            writer.writeEndDocument();
            writer.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("could not write a PostResponse document", e);
        }
        return output.toByteArray();
    }

    private static void element(XMLStreamWriter writer, String name, String text) throws XMLStreamException {
        writer.writeStartElement(name);
        int start = 0;
        for (int index = 0; index < text.length(); ) {
            int codePoint = text.codePointAt(index);
            if (!isXmlCharacter(codePoint)) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "%s holds U+%04X, which an XML 1.0 document cannot carry", name, codePoint));
            }
            int next = index + Character.charCount(codePoint);
            if (codePoint == '\r') {
                // A literal carriage return would reach the client as a line feed; a reference survives.
                writer.writeCharacters(text.substring(start, index));
                writer.writeEntityRef("#13");
                start = next;
            }
            index = next;
        }
        writer.writeCharacters(text.substring(start));
        writer.writeEndElement();
    }

    private static boolean isXmlCharacter(int codePoint) {
        return codePoint == 0x9 || codePoint == 0xA || codePoint == 0xD
                || (codePoint >= 0x20 && codePoint <= 0xD7FF)
                || (codePoint >= 0xE000 && codePoint <= 0xFFFD)
                || (codePoint >= 0x10000 && codePoint <= 0x10FFFF);
    }

    /** S3 redirects only to an absolute http or https URL; it answered a relative one with 204. */
    private static @Nullable String redirectUrl(@Nullable String value) {
        if (value == null) {
            return null;
        }
        String lower = value.toLowerCase(Locale.ROOT);
        boolean absolute = (lower.startsWith("http://") && lower.length() > "http://".length())
                || (lower.startsWith("https://") && lower.length() > "https://".length());
        return absolute ? value : null;
    }

    private static String formEncode(String value) {
        return URLEncoder.encode(Objects.requireNonNull(value), StandardCharsets.UTF_8);
    }
}
