package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static dev.hangar.s3api.xml.RequestBodies.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.xml.GetObjectAttributesResult.ObjectParts;
import dev.hangar.s3api.xml.GetObjectAttributesResult.Page;
import dev.hangar.s3api.xml.GetObjectAttributesResult.Part;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class GetObjectAttributesTest {
    private static final Set<ObjectAttribute> ALL = EnumSet.allOf(ObjectAttribute.class);
    private static final Checksums CRC = new Checksums(null, null, "AAAAAAAAAAA=", null, null);
    private static final GetObjectAttributesResult SINGLE_PART = new GetObjectAttributesResult(
            "\"fc3ff98e8c6a0d3087d515c0473f8677\"", CRC, "FULL_OBJECT", null, "STANDARD", 1024);
    private static final GetObjectAttributesResult COMPOSITE = new GetObjectAttributesResult(
            "\"b30e35fa7fcee018c17d0b9152178c4d-2\"", new Checksums(null, null, null, null, "sha256=="), "COMPOSITE",
            new ObjectParts(2, new Page(0, 2, 1000, false, List.of(
                    new Part(1, 5242880, new Checksums(null, null, null, null, "p1==")),
                    new Part(2, 1048576, new Checksums(null, null, null, null, "p2=="))))),
            "STANDARD", 6291456);

    private static Element render(GetObjectAttributesResult result, Set<ObjectAttribute> requested) {
        return DomDocuments.s3Root(S3Xml.renderGetObjectAttributes(result, requested), "GetObjectAttributesResponse");
    }

    @Test
    void rendersEveryAttributeInTheOrderS3AnswersWithTheEtagUnquoted() {
        Element root = render(COMPOSITE, ALL);

        assertThat(childNames(root)).containsExactly("ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize");
        assertThat(text(root, "ETag")).isEqualTo("b30e35fa7fcee018c17d0b9152178c4d-2");
        assertThat(childNames(child(root, "Checksum"))).containsExactly("ChecksumSHA256", "ChecksumType");
        assertThat(text(child(root, "Checksum"), "ChecksumType")).isEqualTo("COMPOSITE");
        Element parts = child(root, "ObjectParts");
        assertThat(childNames(parts)).containsExactly(
                "PartsCount", "PartNumberMarker", "NextPartNumberMarker", "MaxParts", "IsTruncated", "Part", "Part");
        assertThat(text(parts, "PartsCount")).isEqualTo("2");
        assertThat(text(parts, "NextPartNumberMarker")).isEqualTo("2");
        assertThat(text(parts, "IsTruncated")).isEqualTo("false");
        Element first = children(parts, "Part").getFirst();
        assertThat(childNames(first)).containsExactly("PartNumber", "Size", "ChecksumSHA256");
        assertThat(text(first, "Size")).isEqualTo("5242880");
        assertThat(text(root, "StorageClass")).isEqualTo("STANDARD");
        assertThat(text(root, "ObjectSize")).isEqualTo("6291456");
    }

    @Test
    void rendersOnlyWhatWasAskedFor() {
        assertThat(childNames(render(SINGLE_PART, EnumSet.of(ObjectAttribute.OBJECT_SIZE, ObjectAttribute.ETAG))))
                .containsExactly("ETag", "ObjectSize");
        assertThat(childNames(render(SINGLE_PART, EnumSet.of(ObjectAttribute.CHECKSUM)))).containsExactly("Checksum");
    }

    @Test
    void leavesOutWhatTheObjectDoesNotHave() {
        assertThat(childNames(render(SINGLE_PART, EnumSet.of(ObjectAttribute.OBJECT_PARTS)))).isEmpty();
        assertThat(childNames(render(SINGLE_PART, EnumSet.of(ObjectAttribute.CHECKSUM, ObjectAttribute.OBJECT_PARTS))))
                .containsExactly("Checksum");
        var unchecked = new GetObjectAttributesResult("\"e\"", Checksums.none(), null, null, "STANDARD", 0);
        assertThat(childNames(render(unchecked, ALL))).containsExactly("ETag", "StorageClass", "ObjectSize");
    }

    @Test
    void writesTheCountAloneForPartsS3DoesNotList() {
        var result = new GetObjectAttributesResult("\"e-2\"", CRC, "FULL_OBJECT", new ObjectParts(2, null), "STANDARD", 10);

        Element parts = child(render(result, EnumSet.of(ObjectAttribute.OBJECT_PARTS)), "ObjectParts");

        assertThat(childNames(parts)).containsExactly("PartsCount");
        assertThat(text(parts, "PartsCount")).isEqualTo("2");
    }

    @Test
    void readsTheAttributesHeader() {
        assertThat(S3Xml.parseObjectAttributes("ETag,Checksum,ObjectParts,StorageClass,ObjectSize")).isEqualTo(ALL);
        assertThat(S3Xml.parseObjectAttributes("ObjectSize, ETag")).containsExactlyInAnyOrder(
                ObjectAttribute.OBJECT_SIZE, ObjectAttribute.ETAG);
        assertThat(S3Xml.parseObjectAttributes("ETag,")).containsExactly(ObjectAttribute.ETAG);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", ",", " , "})
    void refusesAHeaderThatNamesNothing(String header) {
        assertRefused(() -> S3Xml.parseObjectAttributes(header), S3Error.INVALID_REQUEST,
                "The x-amz-object-attributes header specifying the attributes to be retrieved is either missing or empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"etag", "ETag,Size", "Owner"})
    void refusesANameS3DoesNotKnow(String header) {
        assertRefused(() -> S3Xml.parseObjectAttributes(header), S3Error.INVALID_ARGUMENT, "Invalid attribute name specified.");
    }
}
