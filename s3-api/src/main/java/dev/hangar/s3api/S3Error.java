package dev.hangar.s3api;

/** The S3 error codes Hangar answers with, each with the HTTP status and default message AWS uses. */
public enum S3Error {
    ACCESS_DENIED("AccessDenied", 403, "Access Denied"),
    /** An ACL write to a bucket whose Object Ownership is BucketOwnerEnforced. */
    ACCESS_CONTROL_LIST_NOT_SUPPORTED("AccessControlListNotSupported", 400, "The bucket does not allow ACLs"),
    /** A CORS preflight S3 refuses; AWS adds {@code Method} and {@code ResourceType} to the error document. */
    ACCESS_FORBIDDEN("AccessForbidden", 403,
            "CORSResponse: This CORS request is not allowed. This is usually because the evalution of Origin, "
                    + "request method / Access-Control-Request-Method or Access-Control-Request-Headers are not "
                    + "whitelisted by the resource's CORS spec."),
    AUTHORIZATION_HEADER_MALFORMED("AuthorizationHeaderMalformed", 400, "The authorization header is malformed."),
    AUTHORIZATION_QUERY_PARAMETERS_ERROR("AuthorizationQueryParametersError", 400,
            "Error parsing the X-Amz-Credential parameter."),
    /**
     * A presigned URL whose {@code X-Amz-Expires} is out of range (under 1 second or over 7 days): the same
     * code as a malformed query parameter, but S3 answers it as a refused authorization, 403.
     */
    AUTHORIZATION_QUERY_PARAMETERS_EXPIRES("AuthorizationQueryParametersError", 403,
            "X-Amz-Expires must be less than a week (in seconds) that is 604800"),
    BAD_DIGEST("BadDigest", 400, "The Content-MD5 you specified did not match what we received."),
    BAD_REQUEST("BadRequest", 400, "Bad Request"),
    BUCKET_ALREADY_EXISTS("BucketAlreadyExists", 409,
            "The requested bucket name is not available. Select a different name and try again."),
    BUCKET_ALREADY_OWNED_BY_YOU("BucketAlreadyOwnedByYou", 409,
            "Your previous request to create the named bucket succeeded and you already own it."),
    BUCKET_NOT_EMPTY("BucketNotEmpty", 409, "The bucket you tried to delete is not empty."),
    ENTITY_TOO_LARGE("EntityTooLarge", 400, "Your proposed upload exceeds the maximum allowed object size."),
    ENTITY_TOO_SMALL("EntityTooSmall", 400, "Your proposed upload is smaller than the minimum allowed object size."),
    EXPIRED_TOKEN("ExpiredToken", 400, "The provided token has expired."),
    /** A browser upload (POST Object) whose form has no {@code file} field, or more than one. */
    INCORRECT_NUMBER_OF_FILES_IN_POST_REQUEST("IncorrectNumberOfFilesInPostRequest", 400,
            "POST requires exactly one file upload per request."),
    INCOMPLETE_BODY("IncompleteBody", 400,
            "You did not provide the number of bytes specified by the Content-Length HTTP header."),
    INTERNAL_ERROR("InternalError", 500, "We encountered an internal error. Please try again."),
    INVALID_ACCESS_KEY_ID("InvalidAccessKeyId", 403,
            "The AWS access key ID you provided does not exist in our records."),
    INVALID_ARGUMENT("InvalidArgument", 400, "Invalid Argument"),
    KMS_NOT_FOUND("KMS.NotFoundException", 400, "Invalid keyId"),
    KMS_DISABLED("KMS.DisabledException", 400, "The KMS key is disabled."),
    INVALID_ENCRYPTION_ALGORITHM("InvalidEncryptionAlgorithmError", 400,
            "The encryption request you specified is not valid. The valid value is AES256."),
    INVALID_BUCKET_NAME("InvalidBucketName", 400, "The specified bucket is not valid."),
    /** A request the bucket's state forbids, e.g. suspending versioning while Object Lock is enabled. */
    INVALID_BUCKET_STATE("InvalidBucketState", 409, "The request is not valid with the current state of the bucket."),
    INVALID_DIGEST("InvalidDigest", 400, "The Content-MD5 you specified is not valid."),
    INVALID_PART("InvalidPart", 400,
            "One or more of the specified parts could not be found. The part may not have been uploaded, "
                    + "or the specified entity tag may not match the part's entity tag."),
    INVALID_PART_ORDER("InvalidPartOrder", 400,
            "The list of parts was not in ascending order. Parts must be ordered by part number."),
    /** {@code GetObject?partNumber=N} (or HEAD) with N beyond the object's part count. */
    INVALID_PART_NUMBER("InvalidPartNumber", 400, "The requested partnumber is not satisfiable"),
    /** A POST policy that is not base64, not JSON or not a policy; AWS's message says why ("Invalid Policy: ..."). */
    INVALID_POLICY_DOCUMENT("InvalidPolicyDocument", 400,
            "The content of the form does not meet the conditions specified in the policy document."),
    INVALID_RANGE("InvalidRange", 416, "The requested range is not satisfiable"),
    ILLEGAL_LOCATION_CONSTRAINT("IllegalLocationConstraintException", 400,
            "The specified location-constraint is not valid for this service."),
    INVALID_REQUEST("InvalidRequest", 400, "Invalid Request"),
    /** A write that asks for a storage class Hangar does not store (it stores STANDARD only). */
    /** A default retention period (Days or Years) of Object Lock that is not positive or too long. */
    INVALID_RETENTION_PERIOD("InvalidRetentionPeriod", 400, "Default retention period must be a positive integer value."),
    INVALID_STORAGE_CLASS("InvalidStorageClass", 400, "The storage class you specified is not valid."),
    /**
     * A tag S3 refuses: a key or value too long or with a character tags may not hold, a key given twice, or
     * more tags than the object (10) or bucket (50) may have.
     */
    INVALID_TAG("InvalidTag", 400,
            "Your request contains tag input that is not valid. For example, your request might contain duplicate "
                    + "keys, keys or values that are too long, or system tags."),
    INVALID_URI("InvalidURI", 400, "Couldn't parse the specified URI."),
    KEY_TOO_LONG("KeyTooLongError", 400, "Your key is too long."),
    /** A browser upload whose body is not well-formed {@code multipart/form-data}. */
    MALFORMED_POST_REQUEST("MalformedPOSTRequest", 400,
            "The body of your POST request is not well-formed multipart/form-data."),
    MALFORMED_POLICY("MalformedPolicy", 400, "This policy contains invalid Json"),
    MALFORMED_ACL_ERROR("MalformedACLError", 400,
            "The XML you provided was not well-formed or did not validate against our published schema."),
    MALFORMED_XML("MalformedXML", 400,
            "The XML you provided was not well-formed or did not validate against our published schema."),
    METADATA_TOO_LARGE("MetadataTooLarge", 400,
            "Your metadata headers exceed the maximum allowed metadata size."),
    /** A browser upload whose form fields before the file exceed 20 KB. */
    MAX_POST_PRE_DATA_LENGTH_EXCEEDED("MaxPostPreDataLengthExceededError", 400,
            "Your POST request fields preceding the upload file were too large."),
    MISSING_REQUEST_BODY_ERROR("MissingRequestBodyError", 400, "Request Body is empty"),
    METHOD_NOT_ALLOWED("MethodNotAllowed", 405, "The specified method is not allowed against this resource."),
    MISSING_CONTENT_LENGTH("MissingContentLength", 411, "You must provide the Content-Length HTTP header."),
    MISSING_SECURITY_HEADER("MissingSecurityHeader", 400, "Your request is missing a required header."),
    NO_SUCH_BUCKET("NoSuchBucket", 404, "The specified bucket does not exist."),
    NO_SUCH_BUCKET_POLICY("NoSuchBucketPolicy", 404, "The bucket policy does not exist"),
    NO_SUCH_CORS_CONFIGURATION("NoSuchCORSConfiguration", 404, "The CORS configuration does not exist"),
    NO_SUCH_KEY("NoSuchKey", 404, "The specified key does not exist."),
    /** BucketOwnerEnforced asked for a bucket whose ACL grants to others than its owner. */
    INVALID_BUCKET_ACL_WITH_OBJECT_OWNERSHIP("InvalidBucketAclWithObjectOwnership", 400,
            "Bucket cannot have ACLs set with ObjectOwnership's BucketOwnerEnforced setting"),
    /** GetBucketOwnershipControls on a bucket that has none. */
    OWNERSHIP_CONTROLS_NOT_FOUND_ERROR("OwnershipControlsNotFoundError", 404,
            "The bucket ownership controls were not found"),
    /**
     * GetBucketEncryption on a bucket that has no default encryption configuration. AWS has answered
     * every bucket with an AES256 configuration since 2023, when it began encrypting by default;
     * Hangar does not, so it keeps the earlier answer.
     */
    SERVER_SIDE_ENCRYPTION_CONFIGURATION_NOT_FOUND_ERROR("ServerSideEncryptionConfigurationNotFoundError", 404,
            "The server side encryption configuration was not found"),
    /** GetPublicAccessBlock on a bucket that has no PublicAccessBlock configuration. */
    NO_SUCH_PUBLIC_ACCESS_BLOCK_CONFIGURATION("NoSuchPublicAccessBlockConfiguration", 404,
            "The public access block configuration was not found"),
    NO_SUCH_LIFECYCLE_CONFIGURATION("NoSuchLifecycleConfiguration", 404, "The lifecycle configuration does not exist"),
    NO_SUCH_TAG_SET("NoSuchTagSet", 404, "The TagSet does not exist"),
    /** A versionId no version of the key has (a malformed one is InvalidArgument). */
    NO_SUCH_VERSION("NoSuchVersion", 404,
            "The specified version does not exist."),
    /** GetObjectRetention or GetObjectLegalHold of a version that has none. */
    NO_SUCH_OBJECT_LOCK_CONFIGURATION("NoSuchObjectLockConfiguration", 404,
            "The specified object does not have a ObjectLock configuration"),
    NO_SUCH_UPLOAD("NoSuchUpload", 404,
            "The specified multipart upload does not exist. The upload ID might be invalid, "
                    + "or the multipart upload might have been aborted or completed."),
    NO_SUCH_WEBSITE_CONFIGURATION("NoSuchWebsiteConfiguration", 404,
            "The specified bucket does not have a website configuration"),
    NOT_IMPLEMENTED("NotImplemented", 501,
            "A header or query you provided implies functionality that is not implemented."),
    OBJECT_LOCK_CONFIGURATION_NOT_FOUND("ObjectLockConfigurationNotFoundError", 404,
            "Object Lock configuration does not exist for this bucket"),
    PRECONDITION_FAILED("PreconditionFailed", 412, "At least one of the preconditions you specified did not hold."),
    REQUEST_TIME_TOO_SKEWED("RequestTimeTooSkewed", 403,
            "The difference between the request time and the server's time is too large."),
    /** A request whose header section is longer than the server reads. */
    REQUEST_HEADER_SECTION_TOO_LARGE("RequestHeaderSectionTooLarge", 400,
            "Your request header section exceeds the maximum allowed size."),
    /** A POST to a bucket that is not a {@code multipart/form-data} browser upload. */
    REQUEST_IS_NOT_MULTIPART_CONTENT("RequestIsNotMultiPartContent", 400,
            "Bucket POST must be of the enclosure-type multipart/form-data."),
    SERVICE_UNAVAILABLE("ServiceUnavailable", 503, "Please reduce your request rate."),
    SLOW_DOWN("SlowDown", 503, "Please reduce your request rate."),
    SIGNATURE_DOES_NOT_MATCH("SignatureDoesNotMatch", 403,
            "The request signature we calculated does not match the signature you provided. "
                    + "Check your key and signing method."),
    /** A request that must not have a body, e.g. PutBucketAcl with both {@code x-amz-acl} and a document. */
    UNEXPECTED_CONTENT("UnexpectedContent", 400, "This request does not support content"),
    /** An ACL grant to an email address no account has; Hangar's accounts have none. */
    UNRESOLVABLE_GRANT_BY_EMAIL_ADDRESS("UnresolvableGrantByEmailAddress", 400,
            "The e-mail address you provided does not match any account on record."),
    X_AMZ_CONTENT_SHA256_MISMATCH("XAmzContentSHA256Mismatch", 400,
            "The provided 'x-amz-content-sha256' header does not match what was computed.");

    private final String code;
    private final int status;
    private final String message;

    S3Error(String code, int status, String message) {
        this.code = code;
        this.status = status;
        this.message = message;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    public String message() {
        return message;
    }
}
