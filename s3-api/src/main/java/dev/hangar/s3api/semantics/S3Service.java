package dev.hangar.s3api.semantics;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.WritesInFlight;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import java.time.Clock;
import org.jspecify.annotations.Nullable;

/**
 * The S3 semantics, free of HTTP types: executes one routed operation against the cluster. Every
 * method blocks; callers run it off the event loop.
 */
public final class S3Service {
    private final ObjectOperations objects;
    private final CopyOperations copies;
    private final BucketOperations buckets;
    private final MultipartOperations multipart;
    private final Documents documents;
    private final BucketConfigurations configurations;
    private final AccessGuard guard;
    private final CorsOperations cors;
    private final BucketConfigurationOperations bucketConfigurations;
    private final ObjectConfigurationOperations objectConfigurations;
    private final PostObjectOperations postObjects;
    private final LifecycleWorker lifecycle;
    private final WebsiteOperations website;
    private final WritesInFlight writes;
    private final Clock clock;
    private final java.util.Optional<dev.hangar.s3api.encryption.KmsKeys> kmsKeys;

    public S3Service(ClusterNode node, S3Settings settings, Clock clock) {
        this(node, settings, clock, node.metadata()::getAccessKey);
    }

    /**
     * @param keys the access key of an access key id, the configured root key included (it is not in the
     *     metadata store): browser uploads look up the key that signed their policy here
     */
    public S3Service(ClusterNode node, S3Settings settings, Clock clock,
            java.util.function.Function<String, java.util.Optional<dev.hangar.metadata.AccessKey>> keys) {
        ContentStore content = new ContentStore(node.blocks(), node.metadata(), node.leases(), settings);
        Reclamation reclamation = node::reclaimSoon;
        Documents documents = new Documents();
        this.configurations = new BucketConfigurations(node.metadata());
        this.guard = new AccessGuard(node.metadata(), configurations, clock);
        this.kmsKeys = settings.masterKeys().map(masterKeys -> new dev.hangar.s3api.encryption.KmsKeys(
                node.metadata(), masterKeys, settings.region(), clock));
        ServerSideEncryption encryption = new ServerSideEncryption(settings.customerKeysOverHttp(),
                settings.masterKeys(), kmsKeys, configurations::defaultEncryption);
        this.objects = new ObjectOperations(node.metadata(), content, reclamation, documents, configurations, encryption,
                clock);
        this.copies = new CopyOperations(objects, content, encryption, configurations, documents);
        this.buckets = new BucketOperations(node.metadata(), objects, documents, settings, configurations, guard);
        this.multipart = new MultipartOperations(node.metadata(), content, objects, reclamation, documents,
                new UploadIds(clock), configurations, encryption);
        this.documents = documents;
        this.cors = new CorsOperations(configurations, objects);
        this.bucketConfigurations = new BucketConfigurationOperations(configurations, objects);
        this.objectConfigurations = new ObjectConfigurationOperations(node.metadata(), objects, configurations);
        this.postObjects = new PostObjectOperations(objects, content, guard, keys, settings, configurations);
        this.lifecycle = new LifecycleWorker(node.metadata(), configurations, reclamation, clock);
        this.website = new WebsiteOperations(configurations, guard, objects);
        this.writes = node.maintenance().writesInFlight();
        this.clock = clock;
    }

    /** The time by the service's clock: every answer carries it in its Date header, as S3's answers do. */
    public String httpDate() {
        return HttpDates.http(clock.instant());
    }

    /**
     * A browser upload: the form's signed policy says what may be uploaded, and the key that signed it
     * must be allowed to PutObject (an unsigned form is an anonymous caller).
     */
    public S3Response postObject(S3Request request, PostForm form) {
        try (WritesInFlight.Write inFlight = writes.begin()) {
            return postObjects.upload(request, form);
        }
    }

    /** The key service's KMS keys (SSE-KMS), for administrators; none without a master key. */
    public java.util.Optional<dev.hangar.s3api.encryption.KmsKeys> kmsKeys() {
        return kmsKeys;
    }

    /** The lifecycle worker, run periodically by the application and on demand by administrators. */
    public LifecycleWorker lifecycle() {
        return lifecycle;
    }


    /**
     * Runs an operation for a caller: checks that the caller may, then executes it.
     *
     * @throws S3Exception with {@code AccessDenied} when it may not
     */
    public S3Response execute(S3Operation operation, S3Request request, Payload payload, Caller caller) {
        guard.authorize(operation, request, caller);
        // Before anything is read or stored: nothing the request asks for may be silently left undone.
        ServerSideEncryption.refuseUnsupported(operation, request.headers());
        if (storesAnObject(operation)) {
            StorageClasses.requireStored(request.headers());
        }
        if (operation instanceof S3Operation.GetObject || operation instanceof S3Operation.HeadObject) {
            ResponseOverrides.refuseAnonymous(request, caller);
        }
        if (writesBlocks(operation)) {
            // From before its first block until after its commit, so that no scrub takes its blocks for orphans.
            try (WritesInFlight.Write inFlight = writes.begin()) {
                return run(operation, request, payload, caller);
            }
        }
        return run(operation, request, payload, caller);
    }

    /** The operations that take {@code x-amz-storage-class}; others ignore it, as S3 does. */
    private static boolean storesAnObject(S3Operation operation) {
        return operation instanceof S3Operation.PutObject
                || operation instanceof S3Operation.CopyObject
                || operation instanceof S3Operation.CreateMultipartUpload;
    }

    private static boolean writesBlocks(S3Operation operation) {
        return operation instanceof S3Operation.PutObject
                || operation instanceof S3Operation.CopyObject
                || operation instanceof S3Operation.UploadPart
                || operation instanceof S3Operation.UploadPartCopy;
    }

    private S3Response run(S3Operation operation, S3Request request, Payload payload, Caller caller) {
        return switch (operation) {
            case S3Operation.ListBuckets ignored -> buckets.listBuckets(request, caller);
            case S3Operation.CreateBucket ignored -> buckets.create(request, payload, caller);
            case S3Operation.HeadBucket ignored -> buckets.head(request);
            case S3Operation.DeleteBucket ignored -> buckets.delete(request);
            case S3Operation.GetBucketLocation ignored -> buckets.location(request);
            case S3Operation.ListObjects ignored -> buckets.listObjects(request);
            case S3Operation.ListObjectsV2 ignored -> buckets.listObjectsV2(request);
            case S3Operation.ListMultipartUploads ignored -> multipart.listUploads(request);
            case S3Operation.DeleteObjects ignored -> buckets.deleteObjects(request, payload, caller);
            case S3Operation.PutObject ignored -> objects.put(request, payload);
            case S3Operation.CopyObject ignored -> copies.copy(request);
            case S3Operation.GetObject ignored -> objects.get(request, false);
            case S3Operation.HeadObject ignored -> objects.get(request, true);
            case S3Operation.DeleteObject ignored -> objects.delete(request);
            case S3Operation.CreateMultipartUpload ignored -> multipart.create(request);
            case S3Operation.UploadPart part -> multipart.uploadPart(request, part, payload);
            case S3Operation.UploadPartCopy copy -> multipart.uploadPartCopy(request, copy);
            case S3Operation.CompleteMultipartUpload complete -> multipart.complete(request, complete, payload);
            case S3Operation.AbortMultipartUpload abort -> multipart.abort(request, abort);
            case S3Operation.ListParts list -> multipart.listParts(request, list);
            case S3Operation.ListObjectVersions ignored -> buckets.listVersions(request);
            case S3Operation.GetObjectAttributes ignored -> objects.attributes(request);
            case S3Operation.PostObject ignored -> throw new S3Exception(S3Error.INVALID_REQUEST,
                    "A browser upload must be a multipart/form-data POST.");
            case S3Operation.PreflightRequest ignored -> cors.preflight(request);
            case S3Operation.BucketConfiguration configuration ->
                    bucketConfigurations.execute(configuration, request, payload, caller);
            case S3Operation.ObjectConfiguration configuration ->
                    objectConfigurations.execute(configuration, request, payload, caller);
            case S3Operation.Unsupported unsupported -> throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                    unsupported.operation() + " is not implemented by Hangar yet.");
        };
    }

    /**
     * Answers a request to the static website endpoint: a GET or HEAD of the bucket the Host names,
     * resolved against its website configuration, every key read as a GetObject by this caller would
     * be. Never throws {@link S3Exception}: errors come back as S3's HTML error pages.
     *
     * @param request the bucket, the percent-decoded key, the method, headers and request id
     * @param website the same request as website resolution sees it
     */
    public S3Response website(S3Request request, dev.hangar.s3api.website.WebsiteRequest website, Caller caller) {
        return this.website.serve(request, website, caller);
    }

    /** The CORS headers an actual (non-preflight) request gets from its bucket's rules. */
    public java.util.Map<String, String> corsHeaders(S3Request request) {
        return cors.actualRequestHeaders(request);
    }


    /** Renders an error as the S3 XML error document. */
    public byte[] errorDocument(S3Exception error, String resource, @Nullable String bucket, @Nullable String key,
            String requestId) {
        return documents.error(error, resource, bucket, key, requestId);
    }
}
