package dev.hangar.s3api.xml;

import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The renderers behind {@link S3Xml}. Each writes its elements in the order its record's
 * documentation states; the order is the contract with strict clients, so it lives in straight-line
 * code rather than in reflection over the record.
 */
final class ResponseDocuments {
    private static final String DEFAULT_REGION = "us-east-1";

    private ResponseDocuments() {}

    static byte[] error(ErrorDocument error) {
        XmlDocumentWriter document = XmlDocumentWriter.withoutNamespace("Error")
                .element("Code", error.code())
                .element("Message", error.message())
                .elementIfPresent("Resource", error.resource());
        error.extras().forEach(document::element);
        return document.element("RequestId", error.requestId())
                .elementIfPresent("HostId", error.hostId())
                .finish();
    }

    static byte[] listAllMyBuckets(ListAllMyBucketsResult result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("ListAllMyBucketsResult");
        owner(document, "Owner", result.owner());
        document.start("Buckets");
        for (BucketEntry bucket : result.buckets()) {
            document.start("Bucket")
                    .element("Name", bucket.name())
                    .element("CreationDate", bucket.creationDate())
                    .elementIfPresent("BucketRegion", bucket.bucketRegion())
                    .end();
        }
        return document.end()
                .elementIfPresent("Prefix", result.prefix())
                .elementIfPresent("ContinuationToken", result.continuationToken())
                .finish();
    }

    static byte[] locationConstraint(@Nullable String region) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("LocationConstraint");
        // S3 answers an empty LocationConstraint for us-east-1, for historical reasons, and the
        // SDKs map the empty answer back to us-east-1.
        if (region != null && !region.equals(DEFAULT_REGION)) {
            document.text("LocationConstraint", region);
        }
        return document.finish();
    }

    static byte[] listObjects(ListObjectsResult result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("ListBucketResult")
                .element("Name", result.name())
                .element("Prefix", result.prefix())
                .element("Marker", result.marker())
                .elementIfPresent("NextMarker", result.nextMarker())
                .element("MaxKeys", result.maxKeys())
                .elementIfPresent("Delimiter", result.delimiter())
                .elementIfPresent("EncodingType", result.encodingType())
                .element("IsTruncated", result.isTruncated());
        for (ObjectEntry entry : result.contents()) {
            contents(document, entry);
        }
        commonPrefixes(document, result.commonPrefixes());
        return document.finish();
    }

    static byte[] listObjectsV2(ListObjectsV2Result result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("ListBucketResult")
                .element("Name", result.name())
                .element("Prefix", result.prefix())
                .elementIfPresent("StartAfter", result.startAfter())
                .elementIfPresent("ContinuationToken", result.continuationToken())
                .elementIfPresent("NextContinuationToken", result.nextContinuationToken())
                .element("KeyCount", result.keyCount())
                .element("MaxKeys", result.maxKeys())
                .elementIfPresent("Delimiter", result.delimiter())
                .elementIfPresent("EncodingType", result.encodingType())
                .element("IsTruncated", result.isTruncated());
        for (ObjectEntry entry : result.contents()) {
            contents(document, entry);
        }
        commonPrefixes(document, result.commonPrefixes());
        return document.finish();
    }

    static byte[] initiateMultipartUpload(InitiateMultipartUploadResult result) {
        return XmlDocumentWriter.inS3Namespace("InitiateMultipartUploadResult")
                .element("Bucket", result.bucket())
                .element("Key", result.key())
                .element("UploadId", result.uploadId())
                .finish();
    }

    static byte[] completeMultipartUpload(CompleteMultipartUploadResult result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("CompleteMultipartUploadResult")
                .element("Location", result.location())
                .element("Bucket", result.bucket())
                .element("Key", result.key())
                .element("ETag", result.etag());
        checksums(document, result.checksums());
        return document.elementIfPresent("ChecksumType", result.checksumType()).finish();
    }

    static byte[] copy(String rootName, CopyResult result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace(rootName)
                .element("LastModified", result.lastModified())
                .element("ETag", result.etag());
        checksums(document, result.checksums());
        return document.finish();
    }

    static byte[] listParts(ListPartsResult result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("ListPartsResult")
                .element("Bucket", result.bucket())
                .element("Key", result.key())
                .element("UploadId", result.uploadId());
        owner(document, "Initiator", result.initiator());
        owner(document, "Owner", result.owner());
        document.element("StorageClass", result.storageClass())
                .element("PartNumberMarker", result.partNumberMarker())
                .element("NextPartNumberMarker", result.nextPartNumberMarker())
                .element("MaxParts", result.maxParts())
                .element("IsTruncated", result.isTruncated());
        for (PartEntry part : result.parts()) {
            document.start("Part")
                    .element("PartNumber", part.partNumber())
                    .element("LastModified", part.lastModified())
                    .element("ETag", part.etag())
                    .element("Size", part.size());
            checksums(document, part.checksums());
            document.end();
        }
        return document.finish();
    }

    static byte[] listMultipartUploads(ListMultipartUploadsResult result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("ListMultipartUploadsResult")
                .element("Bucket", result.bucket())
                .element("KeyMarker", result.keyMarker())
                .element("UploadIdMarker", result.uploadIdMarker())
                .element("NextKeyMarker", result.nextKeyMarker())
                .element("NextUploadIdMarker", result.nextUploadIdMarker())
                .elementIfPresent("Delimiter", result.delimiter())
                .elementIfPresent("Prefix", result.prefix())
                .element("MaxUploads", result.maxUploads())
                .elementIfPresent("EncodingType", result.encodingType())
                .element("IsTruncated", result.isTruncated());
        for (UploadEntry upload : result.uploads()) {
            document.start("Upload").element("Key", upload.key()).element("UploadId", upload.uploadId());
            owner(document, "Initiator", upload.initiator());
            owner(document, "Owner", upload.owner());
            document.element("StorageClass", upload.storageClass())
                    .element("Initiated", upload.initiated())
                    .end();
        }
        commonPrefixes(document, result.commonPrefixes());
        return document.finish();
    }

    static byte[] deleteResult(DeleteResult result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("DeleteResult");
        for (DeletedEntry deleted : result.deleted()) {
            document.start("Deleted")
                    .element("Key", deleted.key())
                    .elementIfPresent("VersionId", deleted.versionId());
            if (deleted.deleteMarker()) {
                document.element("DeleteMarker", true);
            }
            document.elementIfPresent("DeleteMarkerVersionId", deleted.deleteMarkerVersionId()).end();
        }
        for (DeleteErrorEntry error : result.errors()) {
            document.start("Error")
                    .element("Key", error.key())
                    .elementIfPresent("VersionId", error.versionId())
                    .element("Code", error.code())
                    .element("Message", error.message())
                    .end();
        }
        return document.finish();
    }

    static byte[] listVersions(ListVersionsResult result) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("ListVersionsResult")
                .element("Name", result.name())
                .element("Prefix", result.prefix())
                .element("KeyMarker", result.keyMarker())
                .element("VersionIdMarker", result.versionIdMarker())
                .elementIfPresent("NextKeyMarker", result.nextKeyMarker())
                .elementIfPresent("NextVersionIdMarker", result.nextVersionIdMarker())
                .element("MaxKeys", result.maxKeys())
                .elementIfPresent("Delimiter", result.delimiter())
                .elementIfPresent("EncodingType", result.encodingType())
                .element("IsTruncated", result.isTruncated());
        for (VersionListEntry entry : result.entries()) {
            switch (entry) {
                case ObjectVersionEntry version -> {
                    document.start("Version")
                            .element("Key", version.key())
                            .element("VersionId", version.versionId())
                            .element("IsLatest", version.isLatest())
                            .element("LastModified", version.lastModified())
                            .element("ETag", version.etag())
                            .elementIfPresent("ChecksumAlgorithm", version.checksumAlgorithm())
                            .elementIfPresent("ChecksumType", version.checksumType())
                            .element("Size", version.size());
                    Owner owner = version.owner();
                    if (owner != null) {
                        owner(document, "Owner", owner);
                    }
                    document.element("StorageClass", version.storageClass()).end();
                }
                case DeleteMarkerEntry marker -> {
                    document.start("DeleteMarker")
                            .element("Key", marker.key())
                            .element("VersionId", marker.versionId())
                            .element("IsLatest", marker.isLatest())
                            .element("LastModified", marker.lastModified());
                    Owner owner = marker.owner();
                    if (owner != null) {
                        owner(document, "Owner", owner);
                    }
                    document.end();
                }
            }
        }
        commonPrefixes(document, result.commonPrefixes());
        return document.finish();
    }

    static byte[] getObjectAttributes(GetObjectAttributesResult result, Set<ObjectAttribute> requested) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace("GetObjectAttributesResponse");
        if (requested.contains(ObjectAttribute.ETAG)) {
            document.element("ETag", unquoted(result.etag()));
        }
        if (requested.contains(ObjectAttribute.CHECKSUM) && !result.checksums().equals(Checksums.none())) {
            document.start("Checksum");
            checksums(document, result.checksums());
            document.elementIfPresent("ChecksumType", result.checksumType()).end();
        }
        GetObjectAttributesResult.ObjectParts parts = result.objectParts();
        if (requested.contains(ObjectAttribute.OBJECT_PARTS) && parts != null) {
            document.start("ObjectParts").element("PartsCount", parts.totalPartsCount());
            GetObjectAttributesResult.Page page = parts.page();
            if (page != null) {
                document.element("PartNumberMarker", page.partNumberMarker())
                        .element("NextPartNumberMarker", page.nextPartNumberMarker())
                        .element("MaxParts", page.maxParts())
                        .element("IsTruncated", page.isTruncated());
                for (GetObjectAttributesResult.Part part : page.parts()) {
                    document.start("Part").element("PartNumber", part.partNumber()).element("Size", part.size());
                    checksums(document, part.checksums());
                    document.end();
                }
            }
            document.end();
        }
        if (requested.contains(ObjectAttribute.STORAGE_CLASS)) {
            document.element("StorageClass", result.storageClass());
        }
        if (requested.contains(ObjectAttribute.OBJECT_SIZE)) {
            document.element("ObjectSize", result.objectSize());
        }
        return document.finish();
    }

    static byte[] postResponse(PostResponse response) {
        // No namespace: every recorded S3 answer to a browser upload has none.
        return XmlDocumentWriter.withoutNamespace("PostResponse")
                .element("Location", response.location())
                .element("Bucket", response.bucket())
                .element("Key", response.key())
                .element("ETag", response.etag())
                .finish();
    }

    private static String unquoted(String etag) {
        return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
                ? etag.substring(1, etag.length() - 1)
                : etag;
    }

    private static void contents(XmlDocumentWriter document, ObjectEntry entry) {
        document.start("Contents")
                .element("Key", entry.key())
                .element("LastModified", entry.lastModified())
                .element("ETag", entry.etag())
                .element("Size", entry.size());
        Owner owner = entry.owner();
        if (owner != null) {
            owner(document, "Owner", owner);
        }
        document.element("StorageClass", entry.storageClass()).end();
    }

    static void commonPrefixes(XmlDocumentWriter document, Iterable<String> prefixes) {
        // One CommonPrefixes element per prefix, each holding one Prefix: that is S3's shape, and
        // the SDKs read a list of CommonPrefixes, not one element with many Prefix children.
        for (String prefix : prefixes) {
            document.start("CommonPrefixes").element("Prefix", prefix).end();
        }
    }

    static void owner(XmlDocumentWriter document, String elementName, Owner owner) {
        document.start(elementName)
                .element("ID", owner.id())
                .elementIfPresent("DisplayName", owner.displayName())
                .end();
    }

    static void checksums(XmlDocumentWriter document, Checksums checksums) {
        document.elementIfPresent("ChecksumCRC32", checksums.crc32())
                .elementIfPresent("ChecksumCRC32C", checksums.crc32c())
                .elementIfPresent("ChecksumCRC64NVME", checksums.crc64nvme())
                .elementIfPresent("ChecksumSHA1", checksums.sha1())
                .elementIfPresent("ChecksumSHA256", checksums.sha256());
    }
}
