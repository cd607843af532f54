package dev.hangar.s3api.semantics;

import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.UploadListing;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.xml.BucketEntry;
import dev.hangar.s3api.xml.Checksums;
import dev.hangar.s3api.xml.CompleteMultipartUploadResult;
import dev.hangar.s3api.xml.CopyResult;
import dev.hangar.s3api.xml.DeleteErrorEntry;
import dev.hangar.s3api.xml.DeleteObjects;
import dev.hangar.s3api.xml.DeleteResult;
import dev.hangar.s3api.xml.DeletedEntry;
import dev.hangar.s3api.xml.ErrorDocument;
import dev.hangar.s3api.xml.InitiateMultipartUploadResult;
import dev.hangar.s3api.xml.ListAllMyBucketsResult;
import dev.hangar.s3api.xml.ListMultipartUploadsResult;
import dev.hangar.s3api.xml.ListObjectsResult;
import dev.hangar.s3api.xml.ListObjectsV2Result;
import dev.hangar.s3api.xml.ListPartsResult;
import dev.hangar.s3api.xml.ObjectEntry;
import dev.hangar.s3api.xml.ObjectIdentifier;
import dev.hangar.s3api.xml.Owner;
import dev.hangar.s3api.xml.PartEntry;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.UploadEntry;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/** Translates between the stored records and the S3 XML documents. */
final class Documents {
    private static final String STORAGE_CLASS = "STANDARD";

    /** One part of a CompleteMultipartUpload request. */
    record CompletedPart(int partNumber, String etag) {}

    /** The keys of a DeleteObjects request. */
    record DeleteRequest(boolean quiet, List<String> keys) {}

    /** What happened to one key of a DeleteObjects request. */
    record DeleteOutcome(String key, @Nullable S3Error error, @Nullable String message) {
        static DeleteOutcome deleted(String key) {
            return new DeleteOutcome(key, null, null);
        }

        static DeleteOutcome failed(String key, S3Error error, String message) {
            return new DeleteOutcome(key, error, message);
        }
    }

    /** Hangar has one tenant today, so one owner for everything. */
    private final Owner owner = new Owner("hangar", "hangar");

    /** The error document, with the BucketName or Key element S3 adds for errors about one. */
    byte[] error(S3Exception error, String resource, @Nullable String bucket, @Nullable String key, String requestId) {
        Map<String, String> extras = new LinkedHashMap<>();
        switch (error.error()) {
            case NO_SUCH_KEY -> {
                if (key != null) {
                    extras.put("Key", key);
                }
            }
            case NO_SUCH_BUCKET, BUCKET_NOT_EMPTY, BUCKET_ALREADY_OWNED_BY_YOU, BUCKET_ALREADY_EXISTS,
                    INVALID_BUCKET_NAME -> {
                if (bucket != null) {
                    extras.put("BucketName", bucket);
                }
            }
            case NO_SUCH_UPLOAD -> {
                if (key != null) {
                    extras.put("Key", key);
                }
            }
            default -> {
                // no element names the resource of other errors
            }
        }
        return S3Xml.renderError(new ErrorDocument(error.error().code(), error.getMessage(), resource, extras,
                requestId, requestId));
    }

    byte[] listAllMyBucketsResult(List<BucketRecord> buckets) {
        List<BucketEntry> entries = buckets.stream()
                .map(bucket -> new BucketEntry(bucket.name(), bucket.created(), bucket.region()))
                .toList();
        return S3Xml.renderListAllMyBuckets(new ListAllMyBucketsResult(owner, entries));
    }

    byte[] locationConstraint(String region) {
        return S3Xml.renderLocationConstraint(region);
    }

    byte[] listObjectsResult(String bucket, String prefix, @Nullable String delimiter, @Nullable String marker,
            int maxKeys, Listings.Encoding encoding, ObjectListing page) {
        UnaryOperator<String> encode = encoder(encoding);
        // S3 returns NextMarker only with a delimiter; without one clients resume after the last key.
        String nextMarker = page.truncated() && delimiter != null && page.nextMarker() != null
                ? encode.apply(page.nextMarker())
                : null;
        return S3Xml.renderListObjects(new ListObjectsResult(bucket, encode.apply(prefix),
                marker == null ? "" : encode.apply(marker), nextMarker, maxKeys, encodeNullable(encode, delimiter),
                encodingType(encoding), page.truncated(), entries(page, encode, true),
                page.commonPrefixes().stream().map(encode).toList()));
    }

    byte[] listObjectsV2Result(String bucket, String prefix, @Nullable String delimiter, int maxKeys,
            Listings.Encoding encoding, @Nullable String continuationToken, @Nullable String nextContinuationToken,
            @Nullable String startAfter, boolean fetchOwner, ObjectListing page) {
        UnaryOperator<String> encode = encoder(encoding);
        return S3Xml.renderListObjectsV2(new ListObjectsV2Result(bucket, encode.apply(prefix),
                encodeNullable(encode, startAfter), continuationToken, nextContinuationToken, maxKeys,
                encodeNullable(encode, delimiter), encodingType(encoding), page.truncated(),
                entries(page, encode, fetchOwner), page.commonPrefixes().stream().map(encode).toList()));
    }

    byte[] initiateMultipartUploadResult(String bucket, String key, String uploadId) {
        return S3Xml.renderInitiateMultipartUpload(new InitiateMultipartUploadResult(bucket, key, uploadId));
    }

    byte[] completeMultipartUploadResult(String location, ObjectVersion version) {
        Checksum checksum = version.checksum();
        return S3Xml.renderCompleteMultipartUpload(new CompleteMultipartUploadResult(location, version.bucket(),
                version.key(), version.etag(), checksums(checksum), checksum == null ? null : "COMPOSITE"));
    }

    byte[] copyObjectResult(ObjectVersion version) {
        return S3Xml.renderCopyObject(new CopyResult(version.etag(), version.lastModified(), checksums(version.checksum())));
    }

    byte[] copyPartResult(String etag, java.time.Instant lastModified) {
        return S3Xml.renderCopyPart(new CopyResult(etag, lastModified));
    }

    byte[] listPartsResult(MultipartUpload upload, PartListing page, int marker, int maxParts) {
        List<PartEntry> parts = new ArrayList<>(page.parts().size());
        for (Part part : page.parts()) {
            parts.add(new PartEntry(part.partNumber(), part.lastModified(), part.etag(), part.size(),
                    checksums(part.checksum())));
        }
        return S3Xml.renderListParts(new ListPartsResult(upload.bucket(), upload.key(), upload.uploadId(), owner,
                owner, STORAGE_CLASS, marker, page.nextPartNumberMarker(), maxParts, page.truncated(), parts));
    }

    byte[] listMultipartUploadsResult(String bucket, String prefix, @Nullable String delimiter,
            @Nullable String keyMarker, @Nullable String uploadIdMarker, int maxUploads, Listings.Encoding encoding,
            UploadListing page) {
        UnaryOperator<String> encode = encoder(encoding);
        List<UploadEntry> uploads = page.uploads().stream()
                .map(upload -> new UploadEntry(encode.apply(upload.key()), upload.uploadId(), owner, owner,
                        STORAGE_CLASS, upload.initiated()))
                .toList();
        return S3Xml.renderListMultipartUploads(new ListMultipartUploadsResult(bucket,
                keyMarker == null ? "" : encode.apply(keyMarker), uploadIdMarker == null ? "" : uploadIdMarker,
                page.nextKeyMarker() == null ? "" : encode.apply(page.nextKeyMarker()),
                page.nextUploadIdMarker() == null ? "" : page.nextUploadIdMarker(), encodeNullable(encode, delimiter),
                prefix.isEmpty() ? null : encode.apply(prefix), maxUploads, encodingType(encoding), page.truncated(),
                uploads, page.commonPrefixes().stream().map(encode).toList()));
    }

    byte[] deleteResult(List<DeleteOutcome> outcomes, boolean quiet) {
        List<DeletedEntry> deleted = new ArrayList<>();
        List<DeleteErrorEntry> errors = new ArrayList<>();
        for (DeleteOutcome outcome : outcomes) {
            if (outcome.error() == null) {
                if (!quiet) {
                    deleted.add(new DeletedEntry(outcome.key()));
                }
            } else {
                errors.add(new DeleteErrorEntry(outcome.key(), outcome.error().code(),
                        outcome.message() == null ? outcome.error().message() : outcome.message()));
            }
        }
        return S3Xml.renderDeleteResult(new DeleteResult(deleted, errors));
    }

    List<CompletedPart> parseCompleteMultipartUpload(byte[] document) {
        return S3Xml.parseCompleteMultipartUpload(new ByteArrayInputStream(document)).parts().stream()
                .map(part -> new CompletedPart(part.partNumber(), part.etag()))
                .toList();
    }

    DeleteRequest parseDelete(byte[] document) {
        DeleteObjects delete = S3Xml.parseDelete(new ByteArrayInputStream(document));
        return new DeleteRequest(delete.quiet(), delete.objects().stream().map(ObjectIdentifier::key).toList());
    }

    Optional<String> parseLocationConstraint(byte[] document) {
        if (document.length == 0) {
            return Optional.empty();
        }
        String constraint = S3Xml.parseCreateBucketConfiguration(new ByteArrayInputStream(document)).locationConstraint();
        return Optional.ofNullable(constraint).filter(value -> !value.isEmpty());
    }

    /** Encodes a key for a URL path (the Location of a completed upload). */
    static String pathEncode(String key) {
        return java.net.URLEncoder.encode(key, java.nio.charset.StandardCharsets.UTF_8)
                .replace("+", "%20")
                .replace("%2F", "/");
    }

    private List<ObjectEntry> entries(ObjectListing page, UnaryOperator<String> encode, boolean withOwner) {
        return page.entries().stream()
                .map(version -> new ObjectEntry(encode.apply(version.key()), version.lastModified(), version.etag(),
                        version.size(), withOwner ? owner : null, STORAGE_CLASS))
                .toList();
    }

    private static Checksums checksums(@Nullable Checksum checksum) {
        if (checksum == null) {
            return Checksums.none();
        }
        String value = checksum.value();
        return switch (checksum.algorithm().toUpperCase(Locale.ROOT)) {
            case "CRC32" -> new Checksums(value, null, null, null, null);
            case "CRC32C" -> new Checksums(null, value, null, null, null);
            case "CRC64NVME" -> new Checksums(null, null, value, null, null);
            case "SHA1" -> new Checksums(null, null, null, value, null);
            case "SHA256" -> new Checksums(null, null, null, null, value);
            default -> Checksums.none();
        };
    }

    private static UnaryOperator<String> encoder(Listings.Encoding encoding) {
        return switch (encoding) {
            case NONE -> UnaryOperator.identity();
            case URL -> S3Xml::urlEncodeKey;
        };
    }

    private static @Nullable String encodeNullable(UnaryOperator<String> encode, @Nullable String value) {
        return value == null ? null : encode.apply(value);
    }

    private static @Nullable String encodingType(Listings.Encoding encoding) {
        return switch (encoding) {
            case NONE -> null;
            case URL -> "url";
        };
    }
}
