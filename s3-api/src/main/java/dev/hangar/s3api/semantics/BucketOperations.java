package dev.hangar.s3api.semantics;

import dev.hangar.metadata.command.AccessKeyChange;
import dev.hangar.metadata.BucketNotEmptyException;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.ObjectLockConfiguration;
import dev.hangar.s3api.xml.OwnershipControls;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.VersioningConfiguration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Bucket-level operations: create, head, delete, location, the object listings (current objects and
 * every version) and DeleteObjects.
 */
final class BucketOperations {
    private static final int MAX_CONFIGURATION_DOCUMENT = 64 << 10;
    private static final int MAX_DELETE_DOCUMENT = 2 << 20;
    private static final String OBJECT_LOCK_HEADER = "x-amz-bucket-object-lock-enabled";
    private static final String OBJECT_OWNERSHIP_HEADER = "x-amz-object-ownership";

    private final MetadataStore metadata;
    private final ObjectOperations objects;
    private final Documents documents;
    private final S3Settings settings;
    private final BucketConfigurations configurations;
    private final AccessGuard guard;

    BucketOperations(MetadataStore metadata, ObjectOperations objects, Documents documents, S3Settings settings,
            BucketConfigurations configurations, AccessGuard guard) {
        this.metadata = metadata;
        this.objects = objects;
        this.documents = documents;
        this.settings = settings;
        this.configurations = configurations;
        this.guard = guard;
    }

    /** Every bucket for the root key; for another key, the buckets it has any permission on. */
    /**
     * ListBuckets: the buckets the caller may see, filtered and paginated as {@link BucketPage} says
     * ({@code prefix}, {@code bucket-region}, {@code max-buckets}, {@code continuation-token}).
     */
    S3Response listBuckets(S3Request request, Caller caller) {
        List<BucketRecord> buckets = metadata.listBuckets();
        if (!caller.isRoot()) {
            Map<String, BucketPermission> granted = caller.key() == null ? Map.of() : caller.key().buckets();
            buckets = buckets.stream()
                    .filter(bucket -> {
                        BucketPermission permission = granted.get(bucket.name());
                        return permission != null && (permission.read() || permission.write() || permission.owner());
                    })
                    .toList();
        }
        return S3Response.xml(200, documents.listAllMyBucketsResult(BucketPage.of(buckets, request)));
    }

    /**
     * CreateBucket, with the settings S3 takes at creation: an ACL ({@code x-amz-acl}, or
     * {@code x-amz-grant-*} headers), Object
     * Ownership ({@code x-amz-object-ownership}; BucketOwnerEnforced with an ACL that grants others is
     * InvalidBucketAclWithObjectOwnership) and Object Lock ({@code x-amz-bucket-object-lock-enabled:
     * true}, which enables versioning too). A key other
     * than the root key becomes the bucket's owner, with read and write.
     */
    S3Response create(S3Request request, Payload payload, Caller caller) {
        String bucket = request.requireBucket();
        BucketNames.validate(bucket);
        BucketAcl acl = BucketAcls.forCreate(request::header, configurations::canonicalIdExists);
        OwnershipControls.ObjectOwnership ownership = objectOwnership(request.header(OBJECT_OWNERSHIP_HEADER));
        if (ownership == OwnershipControls.ObjectOwnership.BUCKET_OWNER_ENFORCED && acl != null) {
            AclWrites.requireOwnerOnly(acl);
        }
        boolean objectLock = objectLockRequested(request);
        byte[] document = RequestBodies.readDocument(payload, MAX_CONFIGURATION_DOCUMENT);
        Optional<String> constraint = documents.parseLocationConstraint(document);
        if (constraint.isPresent() && !constraint.get().equals(settings.region())) {
            throw new S3Exception(S3Error.ILLEGAL_LOCATION_CONSTRAINT, "The " + constraint.get()
                    + " location constraint is incompatible for the region specific endpoint this request was sent to ("
                    + settings.region() + ").");
        }
        if (!metadata.createBucket(new BucketRecord(bucket, objects.now(), settings.region()))) {
            throw alreadyExists(bucket, caller);
        }
        if (acl != null) {
            configurations.put(bucket, BucketConfigurations.ACL, BucketAcls.stored(acl));
        }
        if (ownership != null) {
            configurations.put(bucket, BucketConfigurations.OWNERSHIP_CONTROLS,
                    S3Xml.renderOwnershipControls(new OwnershipControls(ownership)));
        }
        if (objectLock) {
            configurations.put(bucket, BucketConfigurations.OBJECT_LOCK,
                    S3Xml.renderObjectLockConfiguration(new ObjectLockConfiguration(null)));
            configurations.put(bucket, BucketConfigurations.VERSIONING, S3Xml.renderVersioningConfiguration(
                    new VersioningConfiguration(VersioningConfiguration.Status.ENABLED, null)));
        }
        if (caller.key() != null && !caller.isRoot()) {
            metadata.changeAccessKey(caller.key().accessKeyId(),
                    new AccessKeyChange.SetBucketPermission(bucket, new BucketPermission(true, true, true)));
        }
        return S3Response.empty(200, Map.of("Location", "/" + bucket));
    }

    /**
     * The Object Ownership an {@code x-amz-object-ownership} header asks for, null without one.
     *
     * @throws S3Exception InvalidArgument for a value S3 does not know
     */
    private static OwnershipControls.@Nullable ObjectOwnership objectOwnership(@Nullable String header) {
        if (header == null) {
            return null;
        }
        for (OwnershipControls.ObjectOwnership ownership : OwnershipControls.ObjectOwnership.values()) {
            if (ownership.wireName().equals(header.strip())) {
                return ownership;
            }
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid x-amz-object-ownership header: " + header);
    }

    /**
     * BucketAlreadyOwnedByYou for the root key and for a key that owns the bucket; BucketAlreadyExists for
     * everyone else, who learns only that the name is taken.
     */
    private static S3Exception alreadyExists(String bucket, Caller caller) {
        BucketPermission granted = caller.key() == null ? null : caller.key().buckets().get(bucket);
        boolean owner = caller.isRoot() || (granted != null && granted.owner());
        return new S3Exception(owner ? S3Error.BUCKET_ALREADY_OWNED_BY_YOU : S3Error.BUCKET_ALREADY_EXISTS);
    }

    S3Response head(S3Request request) {
        BucketRecord bucket = objects.requireBucket(request.requireBucket());
        return S3Response.empty(200, Map.of("x-amz-bucket-region", bucket.region()));
    }

    S3Response delete(S3Request request) {
        String bucket = request.requireBucket();
        try {
            if (!metadata.deleteBucket(bucket)) {
                throw new S3Exception(S3Error.NO_SUCH_BUCKET);
            }
        } catch (BucketNotEmptyException e) {
            throw new S3Exception(S3Error.BUCKET_NOT_EMPTY);
        }
        // A later bucket of the same name must not inherit what keys were granted on this one.
        for (dev.hangar.metadata.AccessKey key : metadata.listAccessKeys()) {
            if (key.buckets().containsKey(bucket)) {
                metadata.changeAccessKey(key.accessKeyId(), new AccessKeyChange.SetBucketPermission(bucket, null));
            }
        }
        return S3Response.empty(204);
    }

    S3Response location(S3Request request) {
        BucketRecord bucket = objects.requireBucket(request.requireBucket());
        return S3Response.xml(200, documents.locationConstraint(bucket.region()));
    }

    S3Response listObjects(S3Request request) {
        String bucket = request.requireBucket();
        objects.requireBucket(bucket);
        Listings.Encoding encoding = Listings.encoding(request);
        String prefix = Optional.ofNullable(request.parameter("prefix")).orElse("");
        String delimiter = request.parameter("delimiter");
        String marker = request.parameter("marker");
        int maxKeys = Listings.limit(request, "max-keys", 1000);
        ObjectListing page = metadata.listObjects(bucket, new ListQuery(prefix, delimiter, marker, maxKeys));
        return S3Response.xml(200, documents.listObjectsResult(bucket, prefix, delimiter, marker, maxKeys, encoding, page));
    }

    S3Response listObjectsV2(S3Request request) {
        String bucket = request.requireBucket();
        objects.requireBucket(bucket);
        Listings.Encoding encoding = Listings.encoding(request);
        String prefix = Optional.ofNullable(request.parameter("prefix")).orElse("");
        String delimiter = request.parameter("delimiter");
        String token = request.parameter("continuation-token");
        String startAfter = request.parameter("start-after");
        int maxKeys = Listings.limit(request, "max-keys", 1000);
        boolean fetchOwner = "true".equalsIgnoreCase(request.parameter("fetch-owner"));
        String after = token != null ? Listings.resumeAfter(token) : startAfter;
        ObjectListing page = metadata.listObjects(bucket, new ListQuery(prefix, delimiter, after, maxKeys));
        String nextToken = page.truncated() && page.nextMarker() != null
                ? Listings.continuationToken(page.nextMarker())
                : null;
        return S3Response.xml(200, documents.listObjectsV2Result(bucket, prefix, delimiter, maxKeys, encoding, token,
                nextToken, startAfter, fetchOwner, page));
    }

    /** ListObjectVersions: every version and delete marker, by key then newest first. */
    S3Response listVersions(S3Request request) {
        String bucket = request.requireBucket();
        objects.requireBucket(bucket);
        Listings.Encoding encoding = Listings.encoding(request);
        String prefix = Optional.ofNullable(request.parameter("prefix")).orElse("");
        String delimiter = request.parameter("delimiter");
        String keyMarker = Optional.ofNullable(request.parameter("key-marker")).filter(marker -> !marker.isEmpty())
                .orElse(null);
        String versionIdMarker = Optional.ofNullable(request.parameter("version-id-marker"))
                .filter(marker -> !marker.isEmpty())
                .orElse(null);
        if (versionIdMarker != null) {
            if (keyMarker == null) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT,
                        "A version-id marker cannot be specified without a key marker.");
            }
            VersionIds.parameter(versionIdMarker);
        }
        int maxKeys = Listings.limit(request, "max-keys", 1000);
        VersionListing page = metadata.listVersions(bucket,
                new VersionQuery(prefix, delimiter, keyMarker, versionIdMarker, maxKeys));
        return S3Response.xml(200, documents.listVersionsResult(bucket, prefix, delimiter, keyMarker, versionIdMarker,
                maxKeys, encoding, page));
    }

    /**
     * DeleteObjects: each object is authorized and deleted on its own (a version, or the key as its
     * bucket's versioning says), and reported as deleted or failed.
     */
    S3Response deleteObjects(S3Request request, Payload payload, Caller caller) {
        String bucket = request.requireBucket();
        objects.requireBucket(bucket);
        byte[] document = RequestBodies.readDocument(payload, MAX_DELETE_DOCUMENT);
        Documents.DeleteRequest delete = documents.parseDelete(document);
        boolean bypass = ObjectLocks.bypass(request);
        List<Documents.DeleteOutcome> outcomes = new ArrayList<>(delete.objects().size());
        for (Documents.DeleteTarget target : delete.objects()) {
            try {
                ObjectKeys.validate(target.key());
                String versionId = target.versionId();
                if (versionId != null && !VersionIds.wellFormed(versionId)) {
                    throw new S3Exception(S3Error.NO_SUCH_VERSION);
                }
                guard.authorizeObject(caller, request, "DeleteObjects", bucket, target.key(), versionId);
                outcomes.add(Documents.DeleteOutcome.deleted(target, objects.delete(bucket, target.key(), versionId,
                        bypass)));
            } catch (S3Exception e) {
                outcomes.add(Documents.DeleteOutcome.failed(target, e.error(), e.getMessage()));
            }
        }
        return S3Response.xml(200, documents.deleteResult(outcomes, delete.quiet()));
    }

    private static boolean objectLockRequested(S3Request request) {
        String value = request.header(OBJECT_LOCK_HEADER);
        if (value == null) {
            return false;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "x-amz-bucket-object-lock-enabled must be true or false");
        };
    }
}
