package dev.hangar.s3api.request;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.List;

/**
 * Decides which S3 operation a request is, from its method, whether it names a bucket and a key,
 * its sub-resource query parameters and a few headers — the routing S3 does and annotated
 * controllers cannot express.
 */
public final class OperationRouter {

    /** Sub-resources of buckets that S3 has and Hangar does not implement yet, with their GET names. */
    private static final List<String[]> UNSUPPORTED_BUCKET_RESOURCES = List.of(
            new String[] {"versioning", "BucketVersioning"},
            new String[] {"versions", "ObjectVersions"},
            new String[] {"acl", "BucketAcl"},
            new String[] {"policy", "BucketPolicy"},
            new String[] {"policyStatus", "BucketPolicyStatus"},
            new String[] {"cors", "BucketCors"},
            new String[] {"website", "BucketWebsite"},
            new String[] {"lifecycle", "BucketLifecycleConfiguration"},
            new String[] {"tagging", "BucketTagging"},
            new String[] {"encryption", "BucketEncryption"},
            new String[] {"object-lock", "ObjectLockConfiguration"},
            new String[] {"replication", "BucketReplication"},
            new String[] {"logging", "BucketLogging"},
            new String[] {"notification", "BucketNotificationConfiguration"},
            new String[] {"requestPayment", "BucketRequestPayment"},
            new String[] {"accelerate", "BucketAccelerateConfiguration"},
            new String[] {"ownershipControls", "BucketOwnershipControls"},
            new String[] {"publicAccessBlock", "PublicAccessBlock"},
            new String[] {"analytics", "BucketAnalyticsConfiguration"},
            new String[] {"inventory", "BucketInventoryConfiguration"},
            new String[] {"metrics", "BucketMetricsConfiguration"},
            new String[] {"intelligent-tiering", "BucketIntelligentTieringConfiguration"});

    private static final List<String[]> UNSUPPORTED_OBJECT_RESOURCES = List.of(
            new String[] {"acl", "ObjectAcl"},
            new String[] {"tagging", "ObjectTagging"},
            new String[] {"retention", "ObjectRetention"},
            new String[] {"legal-hold", "ObjectLegalHold"},
            new String[] {"attributes", "ObjectAttributes"},
            new String[] {"torrent", "ObjectTorrent"},
            new String[] {"restore", "RestoreObject"},
            new String[] {"select", "SelectObjectContent"});

    private OperationRouter() {}

    public static S3Operation route(S3Request request) {
        String method = request.method();
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
        for (String[] resource : UNSUPPORTED_BUCKET_RESOURCES) {
            if (request.hasParameter(resource[0])) {
                return new S3Operation.Unsupported(verb(method) + resource[1]);
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
                yield new S3Operation.Unsupported("PostObject");
            }
            default -> throw methodNotAllowed();
        };
    }

    private static S3Operation routeObject(String method, S3Request request) {
        for (String[] resource : UNSUPPORTED_OBJECT_RESOURCES) {
            if (request.hasParameter(resource[0])) {
                String name = resource[1].startsWith("Object") ? verb(method) + resource[1] : resource[1];
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
