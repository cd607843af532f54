package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class MultipartRenderingTest {
    private static final Instant WHEN = Instant.parse("2026-11-22T09:17:00Z");
    private static final Checksums ALL_CHECKSUMS =
            new Checksums("crc32==", "crc32c==", "crc64nvme==", "sha1==", "sha256==");

    @Test
    void initiateMultipartUpload() {
        var result = new InitiateMultipartUploadResult("example-bucket", "example-object", "VXBsb2FkIElE");

        Element root = DomDocuments.s3Root(S3Xml.renderInitiateMultipartUpload(result), "InitiateMultipartUploadResult");

        assertThat(childNames(root)).containsExactly("Bucket", "Key", "UploadId");
        assertThat(text(root, "Bucket")).isEqualTo("example-bucket");
        assertThat(text(root, "Key")).isEqualTo("example-object");
        assertThat(text(root, "UploadId")).isEqualTo("VXBsb2FkIElE");
    }

    @Test
    void completeMultipartUploadWithoutChecksums() {
        var result = new CompleteMultipartUploadResult(
                "http://localhost:9000/b/k", "b", "k", "\"3858f62230ac3c915f300c664312c11f-9\"");

        Element root = DomDocuments.s3Root(S3Xml.renderCompleteMultipartUpload(result), "CompleteMultipartUploadResult");

        assertThat(childNames(root)).containsExactly("Location", "Bucket", "Key", "ETag");
        assertThat(text(root, "Location")).isEqualTo("http://localhost:9000/b/k");
        assertThat(text(root, "ETag")).isEqualTo("\"3858f62230ac3c915f300c664312c11f-9\"");
    }

    @Test
    void completeMultipartUploadPutsChecksumsAfterTheEtagAndTheTypeLast() {
        var result = new CompleteMultipartUploadResult("loc", "b", "k", "\"e-2\"", ALL_CHECKSUMS, "COMPOSITE");

        Element root = DomDocuments.s3Root(S3Xml.renderCompleteMultipartUpload(result), "CompleteMultipartUploadResult");

        assertThat(childNames(root)).containsExactly(
                "Location", "Bucket", "Key", "ETag", "ChecksumCRC32", "ChecksumCRC32C", "ChecksumCRC64NVME",
                "ChecksumSHA1", "ChecksumSHA256", "ChecksumType");
        assertThat(text(root, "ChecksumCRC64NVME")).isEqualTo("crc64nvme==");
        assertThat(text(root, "ChecksumType")).isEqualTo("COMPOSITE");
    }

    @Test
    void copyObjectAndCopyPartShareAShapeUnderTheirOwnRoots() {
        var result = new CopyResult("\"9b2cf535f27731c974343645a3985328\"", WHEN, new Checksums("crc==", null, null, null, null));

        Element copyObject = DomDocuments.s3Root(S3Xml.renderCopyObject(result), "CopyObjectResult");
        Element copyPart = DomDocuments.s3Root(S3Xml.renderCopyPart(result), "CopyPartResult");

        for (Element root : List.of(copyObject, copyPart)) {
            assertThat(childNames(root)).containsExactly("LastModified", "ETag", "ChecksumCRC32");
            assertThat(text(root, "LastModified")).isEqualTo("2026-11-22T09:17:00.000Z");
            assertThat(text(root, "ETag")).isEqualTo("\"9b2cf535f27731c974343645a3985328\"");
        }
        assertThat(childNames(DomDocuments.s3Root(S3Xml.renderCopyObject(new CopyResult("\"e\"", WHEN)), "CopyObjectResult")))
                .containsExactly("LastModified", "ETag");
    }

    @Test
    void listPartsPutsInitiatorOwnerAndStorageClassBeforeTheMarkers() {
        var result = new ListPartsResult(
                "example-bucket", "example-object", "XXBsb2FkIElE",
                new Owner("arn:aws:iam::111122223333:user/someone", "someone"), new Owner("75aa57f09aa0c8ca", "owner"),
                "STANDARD", 1, 3, 2, true,
                List.of(
                        new PartEntry(2, WHEN, "\"7778aef83f66abc1fa1e8477f296d394\"", 10485760),
                        new PartEntry(3, WHEN, "\"aaaa18db4cc2f85cedef654fccc4a4x8\"", 10485760, ALL_CHECKSUMS)));

        Element root = DomDocuments.s3Root(S3Xml.renderListParts(result), "ListPartsResult");

        assertThat(childNames(root)).containsExactly(
                "Bucket", "Key", "UploadId", "Initiator", "Owner", "StorageClass", "PartNumberMarker",
                "NextPartNumberMarker", "MaxParts", "IsTruncated", "Part", "Part");
        assertThat(childNames(child(root, "Initiator"))).containsExactly("ID", "DisplayName");
        assertThat(text(child(root, "Initiator"), "ID")).isEqualTo("arn:aws:iam::111122223333:user/someone");
        assertThat(text(root, "PartNumberMarker")).isEqualTo("1");
        assertThat(text(root, "NextPartNumberMarker")).isEqualTo("3");
        assertThat(text(root, "MaxParts")).isEqualTo("2");
        assertThat(text(root, "IsTruncated")).isEqualTo("true");
        List<Element> parts = children(root, "Part");
        assertThat(childNames(parts.get(0))).containsExactly("PartNumber", "LastModified", "ETag", "Size");
        assertThat(text(parts.get(0), "PartNumber")).isEqualTo("2");
        assertThat(text(parts.get(0), "Size")).isEqualTo("10485760");
        assertThat(childNames(parts.get(1))).containsExactly(
                "PartNumber", "LastModified", "ETag", "Size", "ChecksumCRC32", "ChecksumCRC32C", "ChecksumCRC64NVME",
                "ChecksumSHA1", "ChecksumSHA256");
    }

    @Test
    void listMultipartUploadsAlwaysSendsTheFourMarkersAndPutsDelimiterBeforePrefix() {
        var owner = new Owner("75aa57f09aa0c8ca", "owner");
        var result = new ListMultipartUploadsResult(
                "bucket", "", "", "my-movie.m2ts", "YW55IGlkZWE", "/", "", 3, "url", true,
                List.of(new UploadEntry("my-divisor", "XMgbGlr", new Owner("arn:initiator"), owner, "STANDARD", WHEN)),
                List.of("photos/", "videos/"));

        Element root = DomDocuments.s3Root(S3Xml.renderListMultipartUploads(result), "ListMultipartUploadsResult");

        assertThat(childNames(root)).containsExactly(
                "Bucket", "KeyMarker", "UploadIdMarker", "NextKeyMarker", "NextUploadIdMarker", "Delimiter", "Prefix",
                "MaxUploads", "EncodingType", "IsTruncated", "Upload", "CommonPrefixes", "CommonPrefixes");
        assertThat(text(root, "KeyMarker")).isEmpty();
        assertThat(text(root, "NextKeyMarker")).isEqualTo("my-movie.m2ts");
        assertThat(text(root, "MaxUploads")).isEqualTo("3");
        Element upload = child(root, "Upload");
        assertThat(childNames(upload))
                .containsExactly("Key", "UploadId", "Initiator", "Owner", "StorageClass", "Initiated");
        assertThat(childNames(child(upload, "Initiator"))).containsExactly("ID");
        assertThat(text(upload, "Initiated")).isEqualTo("2026-11-22T09:17:00.000Z");
        assertThat(children(root, "CommonPrefixes"))
                .extracting(prefix -> text(prefix, "Prefix"))
                .containsExactly("photos/", "videos/");
    }

    @Test
    void listMultipartUploadsWithNothingInProgress() {
        var result = new ListMultipartUploadsResult(
                "bucket", "", "", "", "", null, null, 1000, null, false, List.of(), List.of());

        Element root = DomDocuments.s3Root(S3Xml.renderListMultipartUploads(result), "ListMultipartUploadsResult");

        assertThat(childNames(root)).containsExactly(
                "Bucket", "KeyMarker", "UploadIdMarker", "NextKeyMarker", "NextUploadIdMarker", "MaxUploads",
                "IsTruncated");
    }
}
