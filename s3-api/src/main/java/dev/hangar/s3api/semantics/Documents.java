package dev.hangar.s3api.semantics;

import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.xml.BucketEntry;
import dev.hangar.s3api.xml.Checksums;
import dev.hangar.s3api.xml.CompleteMultipartUploadResult;
import dev.hangar.s3api.xml.CopyResult;
import dev.hangar.s3api.xml.DeleteErrorEntry;
import dev.hangar.s3api.xml.DeleteMarkerEntry;
import dev.hangar.s3api.xml.DeleteObjects;
import dev.hangar.s3api.xml.DeleteResult;
import dev.hangar.s3api.xml.DeletedEntry;
import dev.hangar.s3api.xml.ErrorDocument;
import dev.hangar.s3api.xml.GetObjectAttributesResult;
import dev.hangar.s3api.xml.InitiateMultipartUploadResult;
import dev.hangar.s3api.xml.ListAllMyBucketsResult;
import dev.hangar.s3api.xml.ListMultipartUploadsResult;
import dev.hangar.s3api.xml.ListObjectsResult;
import dev.hangar.s3api.xml.ListObjectsV2Result;
import dev.hangar.s3api.xml.ListPartsResult;
import dev.hangar.s3api.xml.ListVersionsResult;
import dev.hangar.s3api.xml.ObjectAttribute;
import dev.hangar.s3api.xml.ObjectEntry;
import dev.hangar.s3api.xml.ObjectVersionEntry;
import dev.hangar.s3api.xml.Owner;
import dev.hangar.s3api.xml.PartEntry;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.UploadEntry;
import dev.hangar.s3api.xml.VersionListEntry;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/** Translates between the stored records and the S3 XML documents. */
final class Documents {
    private static final String STORAGE_CLASS = StorageClasses.STANDARD;

    /** One part of a CompleteMultipartUpload request. */
    record CompletedPart(int partNumber, String etag) {}

    /** One object of a DeleteObjects request: a key, and the version to remove if it names one. */
    record DeleteTarget(String key, @Nullable String versionId) {}

    /** The objects of a DeleteObjects request. */
    record DeleteRequest(boolean quiet, List<DeleteTarget> objects) {}

    /** What happened to one object of a DeleteObjects request: a deletion, or an error. */
    record DeleteOutcome(DeleteTarget target, ObjectOperations.@Nullable Deletion deletion, @Nullable S3Error error,
            @Nullable String message) {
        static DeleteOutcome deleted(DeleteTarget target, ObjectOperations.Deletion deletion) {
            return new DeleteOutcome(target, deletion, null, null);
        }

        static DeleteOutcome failed(DeleteTarget target, S3Error error, String message) {
            return new DeleteOutcome(target, null, error, message);
        }
    }

    /**
     * Hangar has one tenant today, so one canonical owner of every bucket and object: in listings,
     * ACLs and uploads alike.
     */
    static final Owner OWNER = new Owner("hangar", "hangar");

    private final Owner owner = OWNER;

    /** The error document, with the BucketName or Key element S3 adds for errors about one. */
    byte[] error(S3Exception error, String resource, @Nullable String bucket, @Nullable String key, String requestId) {
        Map<String, String> extras = new LinkedHashMap<>();
        switch (error.error()) {
            case NO_SUCH_KEY, NO_SUCH_VERSION -> {
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

    /**
     * The error of a GET, HEAD or GetObjectAttributes that found a delete marker: NoSuchKey for the
     * current version, MethodNotAllowed naming the method and the {@code DeleteMarker} resource type
     * for one named by its id, as S3 answers.
     */
    byte[] deleteMarkerError(S3Error error, String method, String resource, String bucket, String key,
            String requestId) {
        Map<String, String> extras = new LinkedHashMap<>();
        if (error == S3Error.METHOD_NOT_ALLOWED) {
            extras.put("Method", method);
            extras.put("ResourceType", "DeleteMarker");
        } else {
            extras.put("Key", key);
        }
        return S3Xml.renderError(new ErrorDocument(error.code(), error.message(), resource, extras, requestId,
                requestId));
    }

    byte[] listAllMyBucketsResult(BucketPage page) {
        List<BucketEntry> entries = page.buckets().stream()
                .map(bucket -> new BucketEntry(bucket.name(), bucket.created(), bucket.region()))
                .toList();
        return S3Xml.renderListAllMyBuckets(
                new ListAllMyBucketsResult(owner, entries, page.prefix(), page.continuationToken()));
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
                version.key(), version.etag(), checksums(checksum), checksum == null ? null : checksumType(checksum)));
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
            DeleteTarget target = outcome.target();
            if (outcome.error() == null) {
                ObjectOperations.Deletion deletion = outcome.deletion();
                if (!quiet && deletion != null) {
                    deleted.add(new DeletedEntry(target.key(), deletion.versionId(), deletion.deleteMarker(),
                            deletion.deleteMarkerVersionId()));
                }
            } else {
                errors.add(new DeleteErrorEntry(target.key(), target.versionId(), outcome.error().code(),
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
        return new DeleteRequest(delete.quiet(), delete.objects().stream()
                .map(object -> new DeleteTarget(object.key(), object.versionId()))
                .toList());
    }

    byte[] listVersionsResult(String bucket, String prefix, @Nullable String delimiter, @Nullable String keyMarker,
            @Nullable String versionIdMarker, int maxKeys, Listings.Encoding encoding, VersionListing page) {
        UnaryOperator<String> encode = encoder(encoding);
        List<VersionListEntry> entries = new ArrayList<>(page.versions().size());
        for (ListedVersion listed : page.versions()) {
            ObjectVersion version = listed.version();
            String key = encode.apply(version.key());
            if (version.isDeleteMarker()) {
                entries.add(new DeleteMarkerEntry(key, version.versionId(), listed.latest(), version.lastModified(),
                        owner));
            } else {
                Checksum checksum = version.checksum();
                entries.add(new ObjectVersionEntry(key, version.versionId(), listed.latest(), version.lastModified(),
                        version.etag(), checksum == null ? null : checksum.algorithm().toUpperCase(Locale.ROOT),
                        checksum == null ? null : checksumType(checksum), version.size(), owner, STORAGE_CLASS));
            }
        }
        String nextKeyMarker = page.truncated() && page.nextKeyMarker() != null
                ? encode.apply(page.nextKeyMarker())
                : null;
        String nextVersionIdMarker = nextKeyMarker == null ? null : page.nextVersionIdMarker();
        return S3Xml.renderListVersions(new ListVersionsResult(bucket, encode.apply(prefix),
                keyMarker == null ? "" : encode.apply(keyMarker), versionIdMarker == null ? "" : versionIdMarker,
                nextKeyMarker, nextVersionIdMarker, maxKeys, encodeNullable(encode, delimiter), encodingType(encoding),
                nextKeyMarker != null, entries, page.commonPrefixes().stream().map(encode).toList()));
    }

    /**
     * GetObjectAttributes' document. A multipart object lists its parts (sizes; Hangar keeps no
     * per-part checksums of completed objects) when it was uploaded with a composite checksum, as S3
     * does, else only their count.
     */
    byte[] objectAttributes(ObjectVersion version, Set<ObjectAttribute> requested, int partNumberMarker,
            int maxParts) {
        Checksum checksum = version.checksum();
        GetObjectAttributesResult.ObjectParts parts = null;
        List<Long> sizes = version.partSizes();
        if (!sizes.isEmpty()) {
            GetObjectAttributesResult.Page page = null;
            if (checksum != null && checksumType(checksum).equals("COMPOSITE")) {
                List<GetObjectAttributesResult.Part> listed = new ArrayList<>();
                int number = partNumberMarker;
                while (number < sizes.size() && listed.size() < maxParts) {
                    number++;
                    listed.add(new GetObjectAttributesResult.Part(number, sizes.get(number - 1), Checksums.none()));
                }
                page = new GetObjectAttributesResult.Page(partNumberMarker,
                        listed.isEmpty() ? partNumberMarker : listed.getLast().partNumber(), maxParts,
                        number < sizes.size(), listed);
            }
            parts = new GetObjectAttributesResult.ObjectParts(sizes.size(), page);
        }
        GetObjectAttributesResult result = new GetObjectAttributesResult(version.etag(), checksums(checksum),
                checksum == null ? null : checksumType(checksum), parts, STORAGE_CLASS, version.size());
        return S3Xml.renderGetObjectAttributes(result, requested);
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

    /** A composite checksum (of a multipart upload) ends in the part count, {@code -N}. */
    private static String checksumType(Checksum checksum) {
        return checksum.value().contains("-") ? "COMPOSITE" : "FULL_OBJECT";
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
