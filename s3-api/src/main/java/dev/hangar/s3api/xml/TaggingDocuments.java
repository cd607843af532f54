package dev.hangar.s3api.xml;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Tagging} document both ways, and the {@code x-amz-tagging} header. Both forms of a tag
 * set are held to the same rules, in the order S3 applies them: each tag in turn (its key, its
 * value, then whether its key came before), and the count last.
 */
final class TaggingDocuments {
    /** S3's text for a header that does not decode, or that names a key twice (InvalidArgument). */
    static final String INVALID_HEADER = "The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded "
            + "URL query parameters without tag name duplicates.";

    private static final String ROOT = "Tagging";
    private static final Set<String> TAG_ELEMENTS = Set.of("Key", "Value");

    // "Keys can only contain Unicode letters or numbers, white space, and the following symbols:
    // _ . : / = + @ -", and values the same; IAM's API reference writes that set as this pattern.
    private static final Pattern TAG_CHARACTERS = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");

    // S3 counts in UTF-16 code units: "Amazon S3 object tags are internally represented in UTF-16.
    // Note that in UTF-16, characters consume either 1 or 2 character positions." String.length()
    // is exactly that count.
    private static final int MAXIMUM_KEY_LENGTH = 128;
    private static final int MAXIMUM_VALUE_LENGTH = 256;

    private TaggingDocuments() {}

    static Tagging parse(InputStream body, TaggedResource resource, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        @Nullable List<Tag> tags = null;
        while (document.nextChild(ROOT)) {
            if (document.isS3Element("TagSet")) {
                tags = RequestValues.once(tags, tagSet(document, "TagSet"), ROOT, "TagSet");
            } else {
                document.skip();
            }
        }
        document.finish();
        return validated(RequestValues.required(tags, ROOT, "TagSet"), resource);
    }

    /** Reads the {@code Tag} children of the current element, as in a TagSet; leaves the cursor at its end. */
    static List<Tag> tagSet(XmlDocumentReader document, String context) {
        List<Tag> tags = new ArrayList<>();
        while (document.nextChild(context)) {
            if (document.isS3Element("Tag")) {
                tags.add(tag(document, "Tag " + (tags.size() + 1)));
            } else {
                document.skip();
            }
        }
        return tags;
    }

    /** Reads the current {@code Tag} element; leaves the cursor at its end. Key and Value are both required. */
    static Tag tag(XmlDocumentReader document, String context) {
        Map<String, String> leaves = document.readLeaves(TAG_ELEMENTS, context);
        return new Tag(
                RequestValues.required(leaves.get("Key"), context, "Key"),
                RequestValues.required(leaves.get("Value"), context, "Value"));
    }

    static Tagging parseHeader(String header, TaggedResource resource) {
        List<Tag> tags = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (String pair : header.split("&", -1)) {
            if (pair.isEmpty()) {
                // "a=1&&b=2" and a trailing "&" hold no tag, as a form parser reads them.
                continue;
            }
            int equals = pair.indexOf('=');
            String key = formDecode(equals < 0 ? pair : pair.substring(0, equals));
            // A key without "=" holds the empty value (s3-tests' "foo=bar&bar", not marked as
            // failing on AWS). A pair with a second "=" does not decode: S3 answered
            // "TagSet=[{Key=string,Value=string}]" with the header's InvalidArgument, not with
            // the InvalidTag its characters would have earned.
            String rawValue = equals < 0 ? "" : pair.substring(equals + 1);
            if (rawValue.indexOf('=') >= 0) {
                throw RequestValues.invalidArgument(INVALID_HEADER);
            }
            if (!keys.add(key)) {
                throw RequestValues.invalidArgument(INVALID_HEADER);
            }
            tags.add(new Tag(key, formDecode(rawValue)));
        }
        return validated(tags, resource);
    }

    static byte[] render(Tagging tagging) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace(ROOT).start("TagSet");
        for (Tag tag : tagging.tagSet()) {
            tag(document, tag);
        }
        return document.end().finish();
    }

    static void tag(XmlDocumentWriter document, Tag tag) {
        document.start("Tag").element("Key", tag.key()).element("Value", tag.value()).end();
    }

    private static Tagging validated(List<Tag> tags, TaggedResource resource) {
        Set<String> keys = new HashSet<>();
        for (Tag tag : tags) {
            if (!isValidTagKey(tag.key())) {
                throw RequestValues.invalidTag("The TagKey you have provided is invalid");
            }
            if (!isValidTagValue(tag.value())) {
                throw RequestValues.invalidTag("The TagValue you have provided is invalid");
            }
            if (!keys.add(tag.key())) {
                throw RequestValues.invalidTag("Cannot provide multiple Tags with the same key");
            }
        }
        if (tags.size() > resource.maximumTags()) {
            throw RequestValues.invalidTag(resource.tooManyTagsMessage());
        }
        return new Tagging(tags);
    }

    static boolean isValidTagKey(String key) {
        return !key.isEmpty() && key.length() <= MAXIMUM_KEY_LENGTH && TAG_CHARACTERS.matcher(key).matches();
    }

    static boolean isValidTagValue(String value) {
        return value.length() <= MAXIMUM_VALUE_LENGTH && TAG_CHARACTERS.matcher(value).matches();
    }

    /**
     * application/x-www-form-urlencoded decoding, strictly: {@code +} is a space, {@code %XX} a
     * byte, the bytes UTF-8. A stray {@code %} or bytes that are not UTF-8 are the header's
     * InvalidArgument, where Java's URLDecoder would quietly put U+FFFD in their place.
     */
    private static String formDecode(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        int index = 0;
        while (index < text.length()) {
            char character = text.charAt(index);
            if (character == '+') {
                bytes.write(' ');
                index++;
            } else if (character == '%') {
                if (index + 2 >= text.length()) {
                    throw RequestValues.invalidArgument(INVALID_HEADER);
                }
                int high = hexDigit(text.charAt(index + 1));
                int low = hexDigit(text.charAt(index + 2));
                if (high < 0 || low < 0) {
                    throw RequestValues.invalidArgument(INVALID_HEADER);
                }
                bytes.write(high << 4 | low);
                index += 3;
            } else {
                int codePoint = text.codePointAt(index);
                if (Character.getType(codePoint) == Character.SURROGATE) {
                    // A lone surrogate has no UTF-8 form.
                    throw RequestValues.invalidArgument(INVALID_HEADER);
                }
                bytes.writeBytes(new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8));
                index += Character.charCount(codePoint);
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException exception) {
            throw RequestValues.invalidArgument(INVALID_HEADER);
        }
    }

    private static int hexDigit(char character) {
        if (character >= '0' && character <= '9') {
            return character - '0';
        }
        if (character >= 'A' && character <= 'F') {
            return character - 'A' + 10;
        }
        if (character >= 'a' && character <= 'f') {
            return character - 'a' + 10;
        }
        return -1;
    }
}
