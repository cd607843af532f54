package dev.hangar.s3api.request;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.List;
import java.util.Map;

/**
 * Decides which S3 operation a request is, from its method, whether it names a bucket and a key,
 * its sub-resource query parameters and a few headers — the routing S3 does and annotated
 * controllers cannot express.
 */
public final class OperationRouter {

    /** Sub-resources of buckets that S3 has and Hangar does not implement yet, with their GET names. */
    private static final List<Map.Entry<String, String>> UNSUPPORTED_BUCKET_RESOURCES = List.of(
            Map.entry("replication", "BucketReplication"),
            Map.entry("logging", "BucketLogging"),
            Map.entry("notification", "BucketNotificationConfiguration"),
            Map.entry("requestPayment", "BucketRequestPayment"),
            Map.entry("accelerate", "BucketAccelerateConfiguration"),
            Map.entry("analytics", "BucketAnalyticsConfiguration"),
            Map.entry("inventory", "BucketInventoryConfiguration"),
            Map.entry("metrics", "BucketMetricsConfiguration"),
            Map.entry("intelligent-tiering", "BucketIntelligentTieringConfiguration"));

    private static final List<Map.Entry<String, String>> UNSUPPORTED_OBJECT_RESOURCES = List.of(
            Map.entry("torrent", "ObjectTorrent"),
            Map.entry("restore", "RestoreObject"),
            Map.entry("select", "SelectObjectContent"));

    private static final java.util.Set<String> SUPPORTED_METHODS = java.util.Set.of("GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS");

    private OperationRouter() {}

    /**
     * @throws S3Exception MethodNotAllowed for a method S3 does not have or not on this resource; the errors
     *     of {@link RequestShape#check} for a name no bucket, key or parameter can hold
     */
    public static S3Operation route(S3Request request) {
        RequestShape.check(request);
        String method = request.method();
        if (!SUPPORTED_METHODS.contains(method)) {
            throw methodNotAllowed();
        }
        if (method.equals("OPTIONS")) {
            if (request.bucket() == null) {
                throw methodNotAllowed();
            }
            return new S3Operation.PreflightRequest();
        }
        if (request.bucket() == null) {
            return switch (method) {
                case "GET" -> new S3Operation.ListBuckets();
                default -> throw methodNotAllowed();
            };
        }
        if (request.key() == null) {
            return routeBucket(method, request);
        }
        return routeObject(method, request);
    }

    private static S3Operation routeBucket(String method, S3Request request) {
        for (S3Operation.BucketSubresource resource : S3Operation.BucketSubresource.values()) {
            if (request.hasParameter(resource.parameter())) {
                S3Operation.Verb verb = verb(method, resource.deletable());
                if (verb == S3Operation.Verb.PUT && !resource.writable()) {
                    throw methodNotAllowed();
                }
                return new S3Operation.BucketConfiguration(resource, verb);
            }
        }
        if (request.hasParameter("versions") && (method.equals("GET") || method.equals("HEAD"))) {
            return new S3Operation.ListObjectVersions();
        }
        for (Map.Entry<String, String> resource : UNSUPPORTED_BUCKET_RESOURCES) {
            if (request.hasParameter(resource.getKey())) {
                return new S3Operation.Unsupported(bucketOperationName(method, resource.getValue()));
            }
        }
        return switch (method) {
            case "GET" -> {
                if (request.hasParameter("location")) {
                    yield new S3Operation.GetBucketLocation();
                }
                if (request.hasParameter("uploads")) {
                    yield new S3Operation.ListMultipartUploads();
                }
                if ("2".equals(request.parameter("list-type"))) {
                    yield new S3Operation.ListObjectsV2();
                }
                yield new S3Operation.ListObjects();
            }
            case "PUT" -> new S3Operation.CreateBucket();
            case "HEAD" -> new S3Operation.HeadBucket();
            case "DELETE" -> new S3Operation.DeleteBucket();
            case "POST" -> {
                if (request.hasParameter("delete")) {
                    yield new S3Operation.DeleteObjects();
                }
                yield new S3Operation.PostObject();
            }
            default -> throw methodNotAllowed();
        };
    }

    private static S3Operation routeObject(String method, S3Request request) {
        for (S3Operation.ObjectSubresource resource : S3Operation.ObjectSubresource.values()) {
            if (request.hasParameter(resource.parameter())) {
                return new S3Operation.ObjectConfiguration(resource, verb(method, resource.deletable()));
            }
        }
        if (request.hasParameter("attributes")) {
            if (!method.equals("GET") && !method.equals("HEAD")) {
                throw methodNotAllowed();
            }
            return new S3Operation.GetObjectAttributes();
        }
        for (Map.Entry<String, String> resource : UNSUPPORTED_OBJECT_RESOURCES) {
            if (request.hasParameter(resource.getKey())) {
                String name = resource.getValue().startsWith("Object") ? verb(method) + resource.getValue() : resource.getValue();
                return new S3Operation.Unsupported(name);
            }
        }
        String uploadId = request.parameter("uploadId");
        boolean copy = request.headers().has("x-amz-copy-source");
        return switch (method) {
            case "PUT" -> {
                if (uploadId != null || request.hasParameter("partNumber")) {
                    String id = requireUploadId(uploadId);
                    int partNumber = partNumber(request.parameter("partNumber"));
                    yield copy ? new S3Operation.UploadPartCopy(id, partNumber) : new S3Operation.UploadPart(id, partNumber);
                }
                yield copy ? new S3Operation.CopyObject() : new S3Operation.PutObject();
            }
            case "GET" -> uploadId != null ? new S3Operation.ListParts(uploadId) : new S3Operation.GetObject();
            case "HEAD" -> new S3Operation.HeadObject();
            case "DELETE" -> uploadId != null
                    ? new S3Operation.AbortMultipartUpload(uploadId)
                    : new S3Operation.DeleteObject();
            case "POST" -> {
                if (request.hasParameter("uploads")) {
                    yield new S3Operation.CreateMultipartUpload();
                }
                if (uploadId != null) {
                    yield new S3Operation.CompleteMultipartUpload(uploadId);
                }
                throw methodNotAllowed();
            }
            default -> throw methodNotAllowed();
        };
    }

    private static S3Operation.Verb verb(String method, boolean deletable) {
        return switch (method) {
            case "GET", "HEAD" -> S3Operation.Verb.GET;
            case "PUT" -> S3Operation.Verb.PUT;
            case "DELETE" -> {
                if (!deletable) {
                    throw methodNotAllowed();
                }
                yield S3Operation.Verb.DELETE;
            }
            default -> throw methodNotAllowed();
        };
    }

    /** The S3 name of a bucket sub-resource operation; a few do not follow the verb + noun pattern. */
    private static String bucketOperationName(String method, String resource) {
        if (resource.startsWith("List")) {
            return resource;
        }
        String name = verb(method) + resource;
        return name.equals("DeleteBucketLifecycleConfiguration") ? "DeleteBucketLifecycle" : name;
    }

    private static String verb(String method) {
        return switch (method) {
            case "GET", "HEAD" -> "Get";
            case "PUT", "POST" -> "Put";
            case "DELETE" -> "Delete";
            default -> method;
        };
    }

    private static String requireUploadId(String uploadId) {
        if (uploadId == null || uploadId.isEmpty()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "A part upload needs both partNumber and uploadId.");
        }
        return uploadId;
    }

    private static int partNumber(String value) {
        try {
            int number = value == null ? -1 : Integer.parseInt(value);
            if (number >= 1 && number <= 10_000) {
                return number;
            }
        } catch (NumberFormatException ignored) {
            // falls through to the S3 error below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "Part number must be an integer between 1 and 10000, inclusive");
    }

    private static S3Exception methodNotAllowed() {
        return new S3Exception(S3Error.METHOD_NOT_ALLOWED);
    }
}
