package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class ListObjectsRenderingTest {
    private static final Instant MODIFIED = Instant.parse("2026-11-22T09:17:00Z");
    private static final ObjectEntry PLAIN =
            new ObjectEntry("photos/2006/index.html", MODIFIED, "\"fba9dede5f27731c9771645a39863328\"", 434234, null, "STANDARD");
    private static final ObjectEntry OWNED =
            new ObjectEntry("photos/2006/a.jpg", MODIFIED, "\"d41d8cd98f00b204e9800998ecf8427e\"", 0, new Owner("owner-id", "owner"), "STANDARD");

    @Test
    void versionOneFollowsTheListBucketResultSequence() {
        var result = new ListObjectsResult(
                "example-bucket", "photos/2006/", "photos/2006/0", "photos/2006/b/", 2, "/", null, true,
                List.of(PLAIN, OWNED), List.of("photos/2006/February/", "photos/2006/January/"));

        Element root = DomDocuments.s3Root(S3Xml.renderListObjects(result), "ListBucketResult");

        assertThat(childNames(root)).containsExactly(
                "Name", "Prefix", "Marker", "NextMarker", "MaxKeys", "Delimiter", "IsTruncated",
                "Contents", "Contents", "CommonPrefixes", "CommonPrefixes");
        assertThat(text(root, "Name")).isEqualTo("example-bucket");
        assertThat(text(root, "Prefix")).isEqualTo("photos/2006/");
        assertThat(text(root, "Marker")).isEqualTo("photos/2006/0");
        assertThat(text(root, "NextMarker")).isEqualTo("photos/2006/b/");
        assertThat(text(root, "MaxKeys")).isEqualTo("2");
        assertThat(text(root, "Delimiter")).isEqualTo("/");
        assertThat(text(root, "IsTruncated")).isEqualTo("true");
        List<Element> contents = children(root, "Contents");
        assertThat(childNames(contents.get(0))).containsExactly("Key", "LastModified", "ETag", "Size", "StorageClass");
        assertThat(text(contents.get(0), "Key")).isEqualTo("photos/2006/index.html");
        assertThat(text(contents.get(0), "LastModified")).isEqualTo("2026-11-22T09:17:00.000Z");
        assertThat(text(contents.get(0), "ETag")).isEqualTo("\"fba9dede5f27731c9771645a39863328\"");
        assertThat(text(contents.get(0), "Size")).isEqualTo("434234");
        assertThat(text(contents.get(0), "StorageClass")).isEqualTo("STANDARD");
        assertThat(childNames(contents.get(1)))
                .containsExactly("Key", "LastModified", "ETag", "Size", "Owner", "StorageClass");
        assertThat(childNames(child(contents.get(1), "Owner"))).containsExactly("ID", "DisplayName");
        assertThat(children(root, "CommonPrefixes"))
                .extracting(prefix -> text(prefix, "Prefix"))
                .containsExactly("photos/2006/February/", "photos/2006/January/");
    }

    @Test
    void versionOneAlwaysHasPrefixAndMarkerAndPutsEncodingTypeBeforeIsTruncated() {
        var result = new ListObjectsResult(
                "b", "", "", null, 1000, null, "url", false, List.of(PLAIN), List.of());

        Element root = DomDocuments.s3Root(S3Xml.renderListObjects(result), "ListBucketResult");

        assertThat(childNames(root))
                .containsExactly("Name", "Prefix", "Marker", "MaxKeys", "EncodingType", "IsTruncated", "Contents");
        assertThat(text(root, "Prefix")).isEmpty();
        assertThat(text(root, "Marker")).isEmpty();
        assertThat(text(root, "EncodingType")).isEqualTo("url");
        assertThat(text(root, "IsTruncated")).isEqualTo("false");
    }

    @Test
    void versionOneRefusesANextMarkerS3WouldNotSend() {
        assertThatThrownBy(() -> new ListObjectsResult("b", "", "", "k", 1, null, null, true, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ListObjectsResult("b", "", "", "k", 1, "/", null, false, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void versionTwoPutsTokensAndKeyCountBeforeMaxKeys() {
        var result = new ListObjectsV2Result(
                "quotes", "E", null, "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=", "next/token+=", 3, "/", "url", true,
                List.of(PLAIN, OWNED), List.of("E/sub/"));

        Element root = DomDocuments.s3Root(S3Xml.renderListObjectsV2(result), "ListBucketResult");

        assertThat(childNames(root)).containsExactly(
                "Name", "Prefix", "ContinuationToken", "NextContinuationToken", "KeyCount", "MaxKeys", "Delimiter",
                "EncodingType", "IsTruncated", "Contents", "Contents", "CommonPrefixes");
        assertThat(text(root, "ContinuationToken")).isEqualTo("1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
        assertThat(text(root, "NextContinuationToken")).isEqualTo("next/token+=");
        assertThat(text(root, "KeyCount")).as("contents and common prefixes together").isEqualTo("3");
        assertThat(text(root, "MaxKeys")).isEqualTo("3");
        assertThat(childNames(children(root, "Contents").get(1)))
                .containsExactly("Key", "LastModified", "ETag", "Size", "Owner", "StorageClass");
    }

    @Test
    void versionTwoEchoesStartAfterAndLeavesOutWhatWasNotSent() {
        var result = new ListObjectsV2Result(
                "quotes", "E", "ExampleGuide.pdf", null, null, 3, null, null, false, List.of(PLAIN), List.of());

        Element root = DomDocuments.s3Root(S3Xml.renderListObjectsV2(result), "ListBucketResult");

        assertThat(childNames(root))
                .containsExactly("Name", "Prefix", "StartAfter", "KeyCount", "MaxKeys", "IsTruncated", "Contents");
        assertThat(text(root, "StartAfter")).isEqualTo("ExampleGuide.pdf");
        assertThat(text(root, "KeyCount")).isEqualTo("1");
    }

    @Test
    void versionTwoOfAnEmptyBucket() {
        var result = new ListObjectsV2Result("b", "", null, null, null, 1000, null, null, false, List.of(), List.of());

        Element root = DomDocuments.s3Root(S3Xml.renderListObjectsV2(result), "ListBucketResult");

        assertThat(childNames(root)).containsExactly("Name", "Prefix", "KeyCount", "MaxKeys", "IsTruncated");
        assertThat(text(root, "KeyCount")).isEqualTo("0");
    }

    @Test
    void versionTwoNeedsATokenExactlyWhenTruncated() {
        assertThatThrownBy(() -> new ListObjectsV2Result("b", "", null, null, null, 1, null, null, true, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ListObjectsV2Result("b", "", null, null, "t", 1, null, null, false, List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void encodedKeysAreRenderedAsGiven() {
        String key = S3Xml.urlEncodeKey("run books/a+b.txt");
        var result = new ListObjectsV2Result(
                "b", "", null, null, null, 1000, null, "url", false,
                List.of(new ObjectEntry(key, MODIFIED, "\"e\"", 1, null, "STANDARD")), List.of());

        Element root = DomDocuments.s3Root(S3Xml.renderListObjectsV2(result), "ListBucketResult");

        assertThat(text(child(root, "Contents"), "Key")).isEqualTo("run+books/a%2Bb.txt");
    }
}
