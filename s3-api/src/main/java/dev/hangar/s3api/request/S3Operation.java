package dev.hangar.s3api.request;

/**
 * Every S3 operation Hangar routes, named as in the S3 API reference. Operations Hangar does not
 * implement yet are {@link Unsupported}, which still carries the operation's name for the error.
 */
public sealed interface S3Operation {

    /** The S3 API name, e.g. {@code PutObject}; also the {@code operation} tag of metrics. */
    default String name() {
        return getClass().getSimpleName();
    }

    record ListBuckets() implements S3Operation {}

    record CreateBucket() implements S3Operation {}

    record HeadBucket() implements S3Operation {}

    record DeleteBucket() implements S3Operation {}

    record GetBucketLocation() implements S3Operation {}

    record ListObjects() implements S3Operation {}

    record ListObjectsV2() implements S3Operation {}

    record ListMultipartUploads() implements S3Operation {}

    record DeleteObjects() implements S3Operation {}

    record PutObject() implements S3Operation {}

    record CopyObject() implements S3Operation {}

    record GetObject() implements S3Operation {}

    record HeadObject() implements S3Operation {}

    record DeleteObject() implements S3Operation {}

    record CreateMultipartUpload() implements S3Operation {}

    record UploadPart(String uploadId, int partNumber) implements S3Operation {}

    record UploadPartCopy(String uploadId, int partNumber) implements S3Operation {}

    record CompleteMultipartUpload(String uploadId) implements S3Operation {}

    record AbortMultipartUpload(String uploadId) implements S3Operation {}

    record ListParts(String uploadId) implements S3Operation {}

    record ListObjectVersions() implements S3Operation {}

    record GetObjectAttributes() implements S3Operation {}

    /** A browser upload: POST of a multipart form to the bucket, authorized by a signed policy. */
    record PostObject() implements S3Operation {}

    /** A CORS preflight: OPTIONS on a bucket or object, answered from the bucket's CORS rules. */
    record PreflightRequest() implements S3Operation {}

    /** Reading, replacing or removing one configuration document of a bucket. */
    record BucketConfiguration(BucketSubresource resource, Verb verb) implements S3Operation {
        @Override
        public String name() {
            if (resource == BucketSubresource.LIFECYCLE && verb == Verb.DELETE) {
                return "DeleteBucketLifecycle";
            }
            return verb.prefix() + resource.noun();
        }
    }

    /** Reading, replacing or removing one sub-resource of an object version. */
    record ObjectConfiguration(ObjectSubresource resource, Verb verb) implements S3Operation {
        @Override
        public String name() {
            return verb.prefix() + resource.noun();
        }
    }

    /** What a sub-resource request does. */
    enum Verb {
        GET("Get"),
        PUT("Put"),
        DELETE("Delete");

        private final String prefix;

        Verb(String prefix) {
            this.prefix = prefix;
        }

        public String prefix() {
            return prefix;
        }
    }

    /** The configuration documents of a bucket, by their query parameter. */
    enum BucketSubresource {
        VERSIONING("versioning", "BucketVersioning", false),
        TAGGING("tagging", "BucketTagging", true),
        CORS("cors", "BucketCors", true),
        WEBSITE("website", "BucketWebsite", true),
        LIFECYCLE("lifecycle", "BucketLifecycleConfiguration", true),
        POLICY("policy", "BucketPolicy", true),
        ACL("acl", "BucketAcl", false),
        OBJECT_LOCK("object-lock", "ObjectLockConfiguration", false),
        PUBLIC_ACCESS_BLOCK("publicAccessBlock", "PublicAccessBlock", true),
        POLICY_STATUS("policyStatus", "BucketPolicyStatus", false),
        OWNERSHIP_CONTROLS("ownershipControls", "BucketOwnershipControls", true),
        ENCRYPTION("encryption", "BucketEncryption", true);

        private final String parameter;
        private final String noun;
        private final boolean deletable;

        BucketSubresource(String parameter, String noun, boolean deletable) {
            this.parameter = parameter;
            this.noun = noun;
            this.deletable = deletable;
        }

        public String parameter() {
            return parameter;
        }

        public String noun() {
            return noun;
        }

        public boolean deletable() {
            return deletable;
        }

        /** Whether a PUT sets it; the policy status follows from the policy, so S3 has no PutBucketPolicyStatus. */
        public boolean writable() {
            return this != POLICY_STATUS;
        }
    }

    /** The sub-resources of an object version, by their query parameter. */
    enum ObjectSubresource {
        TAGGING("tagging", "ObjectTagging", true),
        ACL("acl", "ObjectAcl", false),
        RETENTION("retention", "ObjectRetention", false),
        LEGAL_HOLD("legal-hold", "ObjectLegalHold", false);

        private final String parameter;
        private final String noun;
        private final boolean deletable;

        ObjectSubresource(String parameter, String noun, boolean deletable) {
            this.parameter = parameter;
            this.noun = noun;
            this.deletable = deletable;
        }

        public String parameter() {
            return parameter;
        }

        public String noun() {
            return noun;
        }

        public boolean deletable() {
            return deletable;
        }
    }

    /** An operation S3 has and Hangar does not implement yet. */
    record Unsupported(String operation) implements S3Operation {
        @Override
        public String name() {
            return operation;
        }
    }
}
