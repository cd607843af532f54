package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childElements;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class ListVersionsRenderingTest {
    private static final Instant EARLIER = Instant.parse("2026-10-12T17:50:30Z");
    private static final Instant LATER = Instant.parse("2026-11-12T17:50:30.5Z");
    private static final Owner OWNER = new Owner("75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a");

    @Test
    void interleavesVersionsAndDeleteMarkersInListOrder() {
        var result = new ListVersionsResult(
                "bucket", "my", "", "", null, null, 5, null, null, false,
                List.of(
                        new DeleteMarkerEntry("my-image.jpg", "03jpff543dhffds434rfdsFDN943fdsFkdmqnh892", true, LATER, OWNER),
                        new ObjectVersionEntry("my-image.jpg", "3/L4kqtJl40Nr8X8gdRQBpUMLUo", false, EARLIER,
                                "\"fba9dede5f27731c9771645a39863328\"", 434234, OWNER, "STANDARD"),
                        new ObjectVersionEntry("my-second-image.jpg", "null", true, EARLIER, "\"e\"", 0, null, "STANDARD")),
                List.of());

        Element root = DomDocuments.s3Root(S3Xml.renderListVersions(result), "ListVersionsResult");

        assertThat(childNames(root)).containsExactly(
                "Name", "Prefix", "KeyMarker", "VersionIdMarker", "MaxKeys", "IsTruncated",
                "DeleteMarker", "Version", "Version");
        assertThat(text(root, "KeyMarker")).isEmpty();
        assertThat(text(root, "VersionIdMarker")).isEmpty();
        assertThat(text(root, "MaxKeys")).isEqualTo("5");
        List<Element> entries = childElements(root).subList(6, 9);
        assertThat(childNames(entries.get(0))).containsExactly("Key", "VersionId", "IsLatest", "LastModified", "Owner");
        assertThat(text(entries.get(0), "IsLatest")).isEqualTo("true");
        assertThat(text(entries.get(0), "LastModified")).isEqualTo("2026-11-12T17:50:30.500Z");
        assertThat(childNames(entries.get(1)))
                .containsExactly("Key", "VersionId", "IsLatest", "LastModified", "ETag", "Size", "Owner", "StorageClass");
        assertThat(text(entries.get(1), "VersionId")).isEqualTo("3/L4kqtJl40Nr8X8gdRQBpUMLUo");
        assertThat(text(entries.get(1), "IsLatest")).isEqualTo("false");
        assertThat(text(entries.get(1), "ETag")).isEqualTo("\"fba9dede5f27731c9771645a39863328\"");
        assertThat(text(entries.get(1), "Size")).isEqualTo("434234");
        assertThat(childNames(child(entries.get(1), "Owner"))).containsExactly("ID");
        assertThat(childNames(entries.get(2)))
                .containsExactly("Key", "VersionId", "IsLatest", "LastModified", "ETag", "Size", "StorageClass");
        assertThat(text(entries.get(2), "VersionId")).isEqualTo("null");
    }

    @Test
    void putsTheNextMarkersBeforeMaxKeysAndTheDelimiterAndEncodingBeforeIsTruncated() {
        var result = new ListVersionsResult(
                "bucket", "photos/", "photos/a", "v1", "photos/b", "d-d309mfjFrUmoQ0DBsVqmcMV15OI.", 3, "/", "url",
                true, List.of(), List.of("photos/2006/", "photos/2007/"));

        Element root = DomDocuments.s3Root(S3Xml.renderListVersions(result), "ListVersionsResult");

        assertThat(childNames(root)).containsExactly(
                "Name", "Prefix", "KeyMarker", "VersionIdMarker", "NextKeyMarker", "NextVersionIdMarker", "MaxKeys",
                "Delimiter", "EncodingType", "IsTruncated", "CommonPrefixes", "CommonPrefixes");
        assertThat(text(root, "NextKeyMarker")).isEqualTo("photos/b");
        assertThat(text(root, "NextVersionIdMarker")).isEqualTo("d-d309mfjFrUmoQ0DBsVqmcMV15OI.");
        assertThat(text(root, "EncodingType")).isEqualTo("url");
        assertThat(text(root, "IsTruncated")).isEqualTo("true");
        assertThat(children(root, "CommonPrefixes"))
                .extracting(prefix -> text(prefix, "Prefix"))
                .containsExactly("photos/2006/", "photos/2007/");
    }

    @Test
    void putsTheChecksumAlgorithmAndTypeBetweenTheEtagAndTheSize() {
        var version = new ObjectVersionEntry(
                "k", "v", true, EARLIER, "\"e\"", "CRC64NVME", "FULL_OBJECT", 11, OWNER, "STANDARD");
        var result = new ListVersionsResult(
                "b", "", "", "", null, null, 1000, null, null, false, List.of(version), List.of());

        Element entry = child(DomDocuments.s3Root(S3Xml.renderListVersions(result), "ListVersionsResult"), "Version");

        assertThat(childNames(entry)).containsExactly(
                "Key", "VersionId", "IsLatest", "LastModified", "ETag", "ChecksumAlgorithm", "ChecksumType", "Size",
                "Owner", "StorageClass");
        assertThat(text(entry, "ChecksumAlgorithm")).isEqualTo("CRC64NVME");
        assertThat(text(entry, "ChecksumType")).isEqualTo("FULL_OBJECT");
    }

    @Test
    void refusesNextMarkersS3WouldNotSend() {
        assertThatThrownBy(() -> new ListVersionsResult("b", "", "", "", null, null, 1, null, null, true, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ListVersionsResult("b", "", "", "", "k", "v", 1, null, null, false, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ListVersionsResult("b", "", "", "", null, "v", 1, null, null, false, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
