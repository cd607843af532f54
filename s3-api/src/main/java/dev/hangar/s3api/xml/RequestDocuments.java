package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The parsers behind {@link S3Xml}. Each reads the elements it knows and skips the rest, since
 * newer clients send elements older servers do not know (conditional deletes, checksum types),
 * and S3 itself ignores what it does not use.
 */
final class RequestDocuments {
    private static final Set<String> PART_ELEMENTS = Set.of(
            "PartNumber", "ETag", "ChecksumCRC32", "ChecksumCRC32C", "ChecksumCRC64NVME", "ChecksumSHA1", "ChecksumSHA256");
    private static final Set<String> OBJECT_ELEMENTS = Set.of("Key", "VersionId");
    private static final Set<String> CREATE_BUCKET_ELEMENTS = Set.of("LocationConstraint");

    private RequestDocuments() {}

    static CompleteMultipartUpload completeMultipartUpload(InputStream body, int maximumBytes) {
        byte[] bytes = XmlDocumentReader.readBounded(body, maximumBytes);
        if (XmlDocumentReader.isBlank(bytes)) {
            throw XmlDocumentReader.malformed("The request body is empty.");
        }
        XmlDocumentReader document = XmlDocumentReader.openAtRoot(bytes, "CompleteMultipartUpload");
        List<CompletedPart> parts = new ArrayList<>();
        while (document.nextChild("CompleteMultipartUpload")) {
            if (document.isS3Element("Part")) {
                parts.add(part(document, parts.size() + 1));
            } else {
                document.skip();
            }
        }
        document.finish();
        if (parts.isEmpty()) {
            // S3 answers MalformedXML for a completion that names no part.
            throw XmlDocumentReader.malformed("The request names no Part.");
        }
        return new CompleteMultipartUpload(parts);
    }

    static DeleteObjects delete(InputStream body, int maximumBytes) {
        byte[] bytes = XmlDocumentReader.readBounded(body, maximumBytes);
        if (XmlDocumentReader.isBlank(bytes)) {
            throw XmlDocumentReader.malformed("The request body is empty.");
        }
        XmlDocumentReader document = XmlDocumentReader.openAtRoot(bytes, "Delete");
        @Nullable Boolean quiet = null;
        List<ObjectIdentifier> objects = new ArrayList<>();
        while (document.nextChild("Delete")) {
            if (document.isS3Element("Object")) {
                if (objects.size() == S3Xml.MAXIMUM_OBJECTS_PER_DELETE) {
                    // Refused as soon as it is known, without reading the rest of the list.
                    throw XmlDocumentReader.malformed(
                            "The request names more than " + S3Xml.MAXIMUM_OBJECTS_PER_DELETE + " objects.");
                }
                objects.add(object(document, objects.size() + 1));
            } else if (document.isS3Element("Quiet")) {
                if (quiet != null) {
                    throw XmlDocumentReader.malformed("The request has more than one Quiet.");
                }
                quiet = parseBoolean(document.text(), "Quiet");
            } else {
                document.skip();
            }
        }
        document.finish();
        if (objects.isEmpty()) {
            throw XmlDocumentReader.malformed("The request names no Object.");
        }
        return new DeleteObjects(quiet != null && quiet, objects);
    }

    static CreateBucketConfiguration createBucketConfiguration(InputStream body, int maximumBytes) {
        byte[] bytes = XmlDocumentReader.readBounded(body, maximumBytes);
        if (XmlDocumentReader.isBlank(bytes)) {
            // Clients send no body at all to create a bucket in us-east-1.
            return new CreateBucketConfiguration(null);
        }
        XmlDocumentReader document = XmlDocumentReader.openAtRoot(bytes, "CreateBucketConfiguration");
        Map<String, String> leaves = document.readLeaves(CREATE_BUCKET_ELEMENTS, "CreateBucketConfiguration");
        document.finish();
        return new CreateBucketConfiguration(trimmedOrNull(leaves.get("LocationConstraint")));
    }

    /**
     * The attributes an {@code x-amz-object-attributes} header asks for: names separated by commas,
     * white space around them and empty items ignored ({@code ETag,} and {@code ObjectSize, ETag}
     * are both accepted by S3). No name at all is S3's InvalidRequest; a name S3 does not know,
     * in any other case ({@code etag}), its InvalidArgument.
     */
    static Set<ObjectAttribute> objectAttributes(String header) {
        Set<ObjectAttribute> attributes = EnumSet.noneOf(ObjectAttribute.class);
        for (String item : header.split(",", -1)) {
            String name = item.strip();
            if (name.isEmpty()) {
                continue;
            }
            ObjectAttribute attribute = ObjectAttribute.byHeaderName(name);
            if (attribute == null) {
                throw RequestValues.invalidArgument("Invalid attribute name specified.");
            }
            attributes.add(attribute);
        }
        if (attributes.isEmpty()) {
            throw RequestValues.invalidRequest("The x-amz-object-attributes header specifying the attributes to be "
                    + "retrieved is either missing or empty");
        }
        return attributes;
    }

    private static CompletedPart part(XmlDocumentReader document, int position) {
        String context = "Part " + position;
        Map<String, String> leaves = document.readLeaves(PART_ELEMENTS, context);
        String partNumberText = leaves.get("PartNumber");
        if (partNumberText == null) {
            throw XmlDocumentReader.malformed(context + " has no PartNumber.");
        }
        int partNumber;
        try {
            partNumber = Integer.parseInt(partNumberText.strip());
        } catch (NumberFormatException exception) {
            throw XmlDocumentReader.malformed(context + " has a PartNumber that is not an integer.");
        }
        String etag = leaves.get("ETag");
        if (etag == null) {
            throw XmlDocumentReader.malformed(context + " has no ETag.");
        }
        Checksums checksums = new Checksums(
                trimmedOrNull(leaves.get("ChecksumCRC32")),
                trimmedOrNull(leaves.get("ChecksumCRC32C")),
                trimmedOrNull(leaves.get("ChecksumCRC64NVME")),
                trimmedOrNull(leaves.get("ChecksumSHA1")),
                trimmedOrNull(leaves.get("ChecksumSHA256")));
        return new CompletedPart(partNumber, etag.strip(), checksums);
    }

    private static ObjectIdentifier object(XmlDocumentReader document, int position) {
        String context = "Object " + position;
        Map<String, String> leaves = document.readLeaves(OBJECT_ELEMENTS, context);
        // The key is kept exactly as sent: a key may begin or end with white space.
        String key = leaves.get("Key");
        if (key == null) {
            throw XmlDocumentReader.malformed(context + " has no Key.");
        }
        return new ObjectIdentifier(key, leaves.get("VersionId"));
    }

    /** An xsd:boolean, as S3's schema types Quiet; case is forgiven because clients differ. */
    private static boolean parseBoolean(String text, String elementName) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw XmlDocumentReader.malformed(elementName + " has to be true or false.");
        };
    }

    private static @Nullable String trimmedOrNull(@Nullable String text) {
        if (text == null) {
            return null;
        }
        String trimmed = text.strip();
        return trimmed.isEmpty() ? null : trimmed;
    }
}
