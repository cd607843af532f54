package dev.hangar.s3api.semantics;

import dev.hangar.metadata.BucketNotEmptyException;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Bucket-level operations: create, head, delete, location, the object listings and DeleteObjects. */
final class BucketOperations {
    private static final int MAX_CONFIGURATION_DOCUMENT = 64 << 10;
    private static final int MAX_DELETE_DOCUMENT = 2 << 20;

    private final MetadataStore metadata;
    private final ObjectOperations objects;
    private final Documents documents;
    private final S3Settings settings;

    BucketOperations(MetadataStore metadata, ObjectOperations objects, Documents documents, S3Settings settings) {
        this.metadata = metadata;
        this.objects = objects;
        this.documents = documents;
        this.settings = settings;
    }

    S3Response listBuckets() {
        return S3Response.xml(200, documents.listAllMyBucketsResult(metadata.listBuckets()));
    }

    S3Response create(S3Request request, Payload payload) {
        String bucket = request.requireBucket();
        BucketNames.validate(bucket);
        byte[] document = RequestBodies.readDocument(payload, MAX_CONFIGURATION_DOCUMENT);
        Optional<String> constraint = documents.parseLocationConstraint(document);
        if (constraint.isPresent() && !constraint.get().equals(settings.region())) {
            throw new S3Exception(S3Error.ILLEGAL_LOCATION_CONSTRAINT, "The " + constraint.get()
                    + " location constraint is incompatible for the region specific endpoint this request was sent to ("
                    + settings.region() + ").");
        }
        if (!metadata.createBucket(new BucketRecord(bucket, objects.now(), settings.region()))) {
            throw new S3Exception(S3Error.BUCKET_ALREADY_OWNED_BY_YOU);
        }
        return S3Response.empty(200, Map.of("Location", "/" + bucket));
    }

    S3Response head(S3Request request) {
        BucketRecord bucket = objects.requireBucket(request.requireBucket());
        return S3Response.empty(200, Map.of("x-amz-bucket-region", bucket.region()));
    }

    S3Response delete(S3Request request) {
        try {
            if (!metadata.deleteBucket(request.requireBucket())) {
                throw new S3Exception(S3Error.NO_SUCH_BUCKET);
            }
        } catch (BucketNotEmptyException e) {
            throw new S3Exception(S3Error.BUCKET_NOT_EMPTY);
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

    S3Response deleteObjects(S3Request request, Payload payload) {
        String bucket = request.requireBucket();
        objects.requireBucket(bucket);
        byte[] document = RequestBodies.readDocument(payload, MAX_DELETE_DOCUMENT);
        Documents.DeleteRequest delete = documents.parseDelete(document);
        List<Documents.DeleteOutcome> outcomes = new ArrayList<>(delete.keys().size());
        for (String key : delete.keys()) {
            try {
                ObjectKeys.validate(key);
                objects.deleteQuietly(bucket, key);
                outcomes.add(Documents.DeleteOutcome.deleted(key));
            } catch (S3Exception e) {
                outcomes.add(Documents.DeleteOutcome.failed(key, e.error(), e.getMessage()));
            }
        }
        return S3Response.xml(200, documents.deleteResult(outcomes, delete.quiet()));
    }
}
