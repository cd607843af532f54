package dev.hangar.s3api.xml;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The S3 XML layer: renders every response document and parses every request document Hangar
 * handles. Stateless and safe to call from any thread.
 *
 * <p>Renderers return the complete document as UTF-8 bytes. They throw {@link
 * IllegalArgumentException} for text that XML 1.0 cannot carry (see the package documentation).
 *
 * <p>Parsers read the body up to a bound, as UTF-8, and throw {@link S3Exception} with {@link
 * S3Error#MALFORMED_XML} for a body over the bound, a body that is not UTF-8 or not well-formed, a
 * document type declaration, a wrong root element, a missing or repeated element, or a value of the
 * wrong type. The configuration parsers also throw the other codes S3 answers for a document that
 * is well-formed but not acceptable, as each method says. A failure to read the stream itself is an
 * {@link UncheckedIOException}. They do not close the stream.
 */
public final class S3Xml {
    /** The namespace of every S3 document but the error document. */
    public static final String S3_NAMESPACE = XmlDocumentWriter.S3_NAMESPACE;

    /** DeleteObjects names at most this many objects; more is MalformedXML, as on AWS. */
    public static final int MAXIMUM_OBJECTS_PER_DELETE = 1000;

    /** The default bound for a CreateBucketConfiguration body; a real one is a few hundred bytes. */
    public static final int CREATE_BUCKET_CONFIGURATION_MAXIMUM_BYTES = 1 << 20;

    /**
     * The default bound for a DeleteObjects body: 1000 objects whose keys have the maximum 1024
     * bytes already come to about 1.1 MiB before any escaping or version ids.
     */
    public static final int DELETE_MAXIMUM_BYTES = 2 << 20;

    /**
     * The default bound for a CompleteMultipartUpload body: 10,000 parts, each with its number, its
     * ETag and one checksum, come to about 1.5 MiB.
     */
    public static final int COMPLETE_MULTIPART_UPLOAD_MAXIMUM_BYTES = 4 << 20;

    /**
     * The default bound for the bucket and object configuration documents other than lifecycle:
     * versioning, tagging, CORS, website, ACL, Object Lock, retention and legal hold. The largest
     * of them on AWS, a CORS configuration, may have 64 KB.
     */
    public static final int CONFIGURATION_MAXIMUM_BYTES = 1 << 20;

    /**
     * The default bound for a lifecycle configuration: 1000 rules, each with an ID of 255
     * characters, a prefix of up to 1024 bytes and a few tags, come to about 3 MiB.
     */
    public static final int LIFECYCLE_CONFIGURATION_MAXIMUM_BYTES = 4 << 20;

    /** A CORS configuration has at most this many rules; more is MalformedXML, as on AWS. */
    public static final int MAXIMUM_CORS_RULES = 100;

    /** A lifecycle configuration has at most this many rules; more is InvalidRequest. */
    public static final int MAXIMUM_LIFECYCLE_RULES = 1000;

    /** A website configuration has at most this many routing rules; more is InvalidRequest. */
    public static final int MAXIMUM_ROUTING_RULES = 50;

    /** An ACL has at most this many grants; more is MalformedACLError. */
    public static final int MAXIMUM_GRANTS = 100;

    /** The longest default retention in days, 100 years of 365 days; longer is InvalidArgument. */
    public static final int MAXIMUM_RETENTION_DAYS = 36_500;

    /** The longest default retention in years; longer is InvalidArgument. */
    public static final int MAXIMUM_RETENTION_YEARS = 100;

    private S3Xml() {}

    /** The error document, in no namespace. */
    public static byte[] renderError(ErrorDocument error) {
        return ResponseDocuments.error(error);
    }

    /** ListBuckets' {@code ListAllMyBucketsResult}. */
    public static byte[] renderListAllMyBuckets(ListAllMyBucketsResult result) {
        return ResponseDocuments.listAllMyBuckets(result);
    }

    /**
     * GetBucketLocation's {@code LocationConstraint}, whose text is the region, left empty for
     * us-east-1 (or null) as S3 leaves it.
     */
    public static byte[] renderLocationConstraint(@Nullable String region) {
        return ResponseDocuments.locationConstraint(region);
    }

    /** GetBucketPolicyStatus's {@code PolicyStatus}: whether the bucket's policy is public. */
    public static byte[] renderPolicyStatus(boolean isPublic) {
        return XmlDocumentWriter.inS3Namespace("PolicyStatus").element("IsPublic", isPublic).finish();
    }

    /** ListObjects' (version 1) {@code ListBucketResult}. */
    public static byte[] renderListObjects(ListObjectsResult result) {
        return ResponseDocuments.listObjects(result);
    }

    /** ListObjectsV2's {@code ListBucketResult}. */
    public static byte[] renderListObjectsV2(ListObjectsV2Result result) {
        return ResponseDocuments.listObjectsV2(result);
    }

    /** CreateMultipartUpload's {@code InitiateMultipartUploadResult}. */
    public static byte[] renderInitiateMultipartUpload(InitiateMultipartUploadResult result) {
        return ResponseDocuments.initiateMultipartUpload(result);
    }

    /** CompleteMultipartUpload's {@code CompleteMultipartUploadResult}. */
    public static byte[] renderCompleteMultipartUpload(CompleteMultipartUploadResult result) {
        return ResponseDocuments.completeMultipartUpload(result);
    }

    /** CopyObject's {@code CopyObjectResult}. */
    public static byte[] renderCopyObject(CopyResult result) {
        return ResponseDocuments.copy("CopyObjectResult", result);
    }

    /** UploadPartCopy's {@code CopyPartResult}. */
    public static byte[] renderCopyPart(CopyResult result) {
        return ResponseDocuments.copy("CopyPartResult", result);
    }

    /** ListParts' {@code ListPartsResult}. */
    public static byte[] renderListParts(ListPartsResult result) {
        return ResponseDocuments.listParts(result);
    }

    /** ListMultipartUploads' {@code ListMultipartUploadsResult}. */
    public static byte[] renderListMultipartUploads(ListMultipartUploadsResult result) {
        return ResponseDocuments.listMultipartUploads(result);
    }

    /** DeleteObjects' {@code DeleteResult}; in quiet mode pass no deleted entries. */
    public static byte[] renderDeleteResult(DeleteResult result) {
        return ResponseDocuments.deleteResult(result);
    }

    /** A CompleteMultipartUpload body, bounded by {@link #COMPLETE_MULTIPART_UPLOAD_MAXIMUM_BYTES}. */
    public static CompleteMultipartUpload parseCompleteMultipartUpload(InputStream body) {
        return parseCompleteMultipartUpload(body, COMPLETE_MULTIPART_UPLOAD_MAXIMUM_BYTES);
    }

    /** A CompleteMultipartUpload body of at most {@code maximumBytes}. */
    public static CompleteMultipartUpload parseCompleteMultipartUpload(InputStream body, int maximumBytes) {
        return RequestDocuments.completeMultipartUpload(body, maximumBytes);
    }

    /** A DeleteObjects body (root {@code Delete}), bounded by {@link #DELETE_MAXIMUM_BYTES}. */
    public static DeleteObjects parseDelete(InputStream body) {
        return parseDelete(body, DELETE_MAXIMUM_BYTES);
    }

    /** A DeleteObjects body (root {@code Delete}) of at most {@code maximumBytes}. */
    public static DeleteObjects parseDelete(InputStream body, int maximumBytes) {
        return RequestDocuments.delete(body, maximumBytes);
    }

    /**
     * A CreateBucket body, bounded by {@link #CREATE_BUCKET_CONFIGURATION_MAXIMUM_BYTES}; an empty
     * body is a configuration with no location constraint.
     */
    public static CreateBucketConfiguration parseCreateBucketConfiguration(InputStream body) {
        return parseCreateBucketConfiguration(body, CREATE_BUCKET_CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A CreateBucket body of at most {@code maximumBytes}; an empty body names no constraint. */
    public static CreateBucketConfiguration parseCreateBucketConfiguration(InputStream body, int maximumBytes) {
        return RequestDocuments.createBucketConfiguration(body, maximumBytes);
    }

    /**
     * GetBucketVersioning's {@code VersioningConfiguration}; pass {@link
     * VersioningConfiguration#neverVersioned()} for a bucket never versioned, which renders an empty
     * {@code <VersioningConfiguration/>}.
     */
    public static byte[] renderVersioningConfiguration(VersioningConfiguration configuration) {
        return VersioningDocuments.render(configuration);
    }

    /**
     * A PutBucketVersioning body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}. A {@code Status}
     * other than {@code Enabled} or {@code Suspended}, or an {@code MfaDelete} other than {@code
     * Enabled} or {@code Disabled}, is MalformedXML; a document with neither is returned as such.
     */
    public static VersioningConfiguration parseVersioningConfiguration(InputStream body) {
        return parseVersioningConfiguration(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutBucketVersioning body of at most {@code maximumBytes}. */
    public static VersioningConfiguration parseVersioningConfiguration(InputStream body, int maximumBytes) {
        return VersioningDocuments.parse(body, maximumBytes);
    }

    /** ListObjectVersions' {@code ListVersionsResult}. */
    public static byte[] renderListVersions(ListVersionsResult result) {
        return ResponseDocuments.listVersions(result);
    }

    /** GetObjectTagging's and GetBucketTagging's {@code Tagging}. */
    public static byte[] renderTagging(Tagging tagging) {
        return TaggingDocuments.render(tagging);
    }

    /**
     * A PutObjectTagging or PutBucketTagging body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}.
     * Besides MalformedXML (no {@code TagSet}, a {@code Tag} without {@code Key} or {@code Value}),
     * it throws what S3 answers, checking each tag in turn and then the count: InvalidTag for a key
     * that is empty, longer than 128 UTF-16 code units or holds a character other than letters,
     * digits, white space and {@code _ . : / = + @ -} ("The TagKey you have provided is invalid"),
     * for such a value longer than 256 ("The TagValue you have provided is invalid"), for a key
     * given twice ("Cannot provide multiple Tags with the same key"); then InvalidTag for more tags
     * than the resource may have ({@link TaggedResource#tooManyTagsMessage()}).
     */
    public static Tagging parseTagging(InputStream body, TaggedResource resource) {
        return parseTagging(body, resource, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutObjectTagging or PutBucketTagging body of at most {@code maximumBytes}. */
    public static Tagging parseTagging(InputStream body, TaggedResource resource, int maximumBytes) {
        return TaggingDocuments.parse(body, resource, maximumBytes);
    }

    /**
     * The {@code x-amz-tagging} header of PutObject, CopyObject and CreateMultipartUpload (or its
     * query-string form in a presigned URL): URL query parameters, {@code k1=v1&k2=v2}, decoded as
     * a form is ({@code +} is a space, {@code %XX} UTF-8 bytes); a key without {@code =} holds the
     * empty value, and an empty header is no tag. A header that does not decode, with a second
     * {@code =} in a pair or a key given twice, is S3's InvalidArgument ("The header
     * 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag
     * name duplicates."); the tags are then held to the limits {@link #parseTagging} applies.
     */
    public static Tagging parseTaggingHeader(String header, TaggedResource resource) {
        return TaggingDocuments.parseHeader(header, resource);
    }

    /** GetBucketCors' {@code CORSConfiguration}. */
    public static byte[] renderCorsConfiguration(CorsConfiguration configuration) {
        return CorsDocuments.render(configuration);
    }

    /**
     * A PutBucketCors body (root {@code CORSConfiguration}), bounded by {@link
     * #CONFIGURATION_MAXIMUM_BYTES}. MalformedXML for no rule, more than {@link
     * #MAXIMUM_CORS_RULES}, a rule without an {@code AllowedOrigin} or an {@code AllowedMethod}, or
     * a {@code MaxAgeSeconds} that is not a non-negative integer; InvalidRequest for a method other
     * than GET, PUT, POST, DELETE and HEAD ("Found unsupported HTTP method in CORS config.
     * Unsupported method is X"), an origin or allowed header with two {@code *}, or an expose
     * header with one.
     */
    public static CorsConfiguration parseCorsConfiguration(InputStream body) {
        return parseCorsConfiguration(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutBucketCors body of at most {@code maximumBytes}. */
    public static CorsConfiguration parseCorsConfiguration(InputStream body, int maximumBytes) {
        return CorsDocuments.parse(body, maximumBytes);
    }

    /** GetBucketWebsite's {@code WebsiteConfiguration}. */
    public static byte[] renderWebsiteConfiguration(WebsiteConfiguration configuration) {
        return WebsiteDocuments.render(configuration);
    }

    /**
     * A PutBucketWebsite body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}. InvalidArgument for
     * {@code RedirectAllRequestsTo} beside anything else, for no {@code IndexDocument} without it,
     * for a suffix that is empty or holds {@code /}, for an empty error document key;
     * InvalidRequest for a protocol other than http and https, an empty {@code Condition}, both
     * replacements in one {@code Redirect}, a redirect code that is not 3XX or is 300, an error
     * code that is not 4XX or 5XX, more than {@link #MAXIMUM_ROUTING_RULES} rules; MalformedXML for
     * what the schema refuses (no {@code HostName} to redirect all requests to, an {@code
     * ErrorDocument} without {@code Key}, an empty {@code RoutingRules}, a rule without {@code
     * Redirect}, a code that is not a number).
     */
    public static WebsiteConfiguration parseWebsiteConfiguration(InputStream body) {
        return parseWebsiteConfiguration(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutBucketWebsite body of at most {@code maximumBytes}. */
    public static WebsiteConfiguration parseWebsiteConfiguration(InputStream body, int maximumBytes) {
        return WebsiteDocuments.parse(body, maximumBytes);
    }

    /** GetBucketLifecycleConfiguration's {@code LifecycleConfiguration}. */
    public static byte[] renderLifecycleConfiguration(LifecycleConfiguration configuration) {
        return LifecycleDocuments.render(configuration);
    }

    /**
     * A PutBucketLifecycleConfiguration (or deprecated PutBucketLifecycle) body, bounded by {@link
     * #LIFECYCLE_CONFIGURATION_MAXIMUM_BYTES}. Refused as S3 refuses it: MalformedXML for a rule
     * without {@code Status} or with another value than {@code Enabled} and {@code Disabled}, with
     * neither or both of {@code Filter} and a rule-level {@code Prefix}, a filter of two predicates
     * or an {@code And} of fewer than two, an {@code Expiration} without exactly one of {@code
     * Date}, {@code Days} and {@code ExpiredObjectDeleteMarker}, an action without its number, an
     * unreadable number or date; InvalidArgument for {@code Days}, {@code NoncurrentDays}, {@code
     * DaysAfterInitiation} that are not positive, a {@code Date} not at midnight UTC ("'Date' must
     * be at midnight GMT"), an {@code ID} over 255 characters or used twice; InvalidRequest for no
     * rule or more than {@link #MAXIMUM_LIFECYCLE_RULES}, a rule without an action, duplicate tag
     * keys in an {@code And}, a size filter out of range, an abort or a delete-marker expiration
     * limited by tags or size, the two forms of rule mixed.
     */
    public static LifecycleConfiguration parseLifecycleConfiguration(InputStream body) {
        return parseLifecycleConfiguration(body, LIFECYCLE_CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutBucketLifecycleConfiguration body of at most {@code maximumBytes}. */
    public static LifecycleConfiguration parseLifecycleConfiguration(InputStream body, int maximumBytes) {
        return LifecycleDocuments.parse(body, maximumBytes);
    }

    /** GetBucketAcl's and GetObjectAcl's {@code AccessControlPolicy}, each grantee typed with {@code xsi:type}. */
    public static byte[] renderAccessControlPolicy(AccessControlPolicy policy) {
        return AclDocuments.render(policy);
    }

    /**
     * A PutBucketAcl or PutObjectAcl body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}. A
     * document that does not validate is MalformedACLError (no {@code Owner} or {@code ID}, no
     * {@code AccessControlList}, a grant without grantee or permission, a grantee without {@code
     * xsi:type} or of an unknown type or without its identifying element, an unknown permission,
     * more than {@link #MAXIMUM_GRANTS} grants); a group URI S3 does not have is InvalidArgument
     * ("Invalid group uri"). Whether the ids exist is the caller's to judge.
     */
    public static AccessControlPolicy parseAccessControlPolicy(InputStream body) {
        return parseAccessControlPolicy(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutBucketAcl or PutObjectAcl body of at most {@code maximumBytes}. */
    public static AccessControlPolicy parseAccessControlPolicy(InputStream body, int maximumBytes) {
        return AclDocuments.parse(body, maximumBytes);
    }

    /** GetObjectLockConfiguration's {@code ObjectLockConfiguration}. */
    public static byte[] renderObjectLockConfiguration(ObjectLockConfiguration configuration) {
        return ObjectLockDocuments.renderConfiguration(configuration);
    }

    /**
     * A PutObjectLockConfiguration body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}.
     * MalformedXML for no {@code ObjectLockEnabled} or another value than {@code Enabled}, an empty
     * {@code Rule} or {@code DefaultRetention}, a mode other than GOVERNANCE and COMPLIANCE, neither
     * or both of {@code Days} and {@code Years}; InvalidRetentionPeriod for a period that is not positive
     * ("Default retention period must be a positive integer value.") or too long.
     */
    public static ObjectLockConfiguration parseObjectLockConfiguration(InputStream body) {
        return parseObjectLockConfiguration(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutObjectLockConfiguration body of at most {@code maximumBytes}. */
    public static ObjectLockConfiguration parseObjectLockConfiguration(InputStream body, int maximumBytes) {
        return ObjectLockDocuments.parseConfiguration(body, maximumBytes);
    }

    /** GetPublicAccessBlock's {@code PublicAccessBlockConfiguration}, all four settings. */
    public static byte[] renderPublicAccessBlockConfiguration(PublicAccessBlockConfiguration configuration) {
        return PublicAccessBlockDocuments.render(configuration);
    }

    /**
     * A PutPublicAccessBlock body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}: a setting left
     * out is false; a value other than true or false, or an empty body, is MalformedXML.
     */
    public static PublicAccessBlockConfiguration parsePublicAccessBlockConfiguration(InputStream body) {
        return PublicAccessBlockDocuments.parse(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** GetBucketOwnershipControls's {@code OwnershipControls}. */
    public static byte[] renderOwnershipControls(OwnershipControls controls) {
        return OwnershipControlsDocuments.render(controls);
    }

    /**
     * A PutBucketOwnershipControls body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}: no {@code
     * Rule} or more than one, no {@code ObjectOwnership} or one S3 does not know, or an empty body is
     * MalformedXML.
     */
    public static OwnershipControls parseOwnershipControls(InputStream body) {
        return OwnershipControlsDocuments.parse(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** GetBucketEncryption's {@code ServerSideEncryptionConfiguration}. */
    public static byte[] renderServerSideEncryptionConfiguration(ServerSideEncryptionConfiguration configuration) {
        return ServerSideEncryptionConfigurationDocuments.render(configuration);
    }

    /**
     * A PutBucketEncryption body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}: no {@code Rule} or
     * more than one, no {@code ApplyServerSideEncryptionByDefault}, no {@code SSEAlgorithm} or one S3
     * does not know, or an empty body is MalformedXML; a {@code KMSMasterKeyID} with {@code AES256} is
     * InvalidArgument. Which algorithms Hangar applies is not the parser's business.
     */
    public static ServerSideEncryptionConfiguration parseServerSideEncryptionConfiguration(InputStream body) {
        return ServerSideEncryptionConfigurationDocuments.parse(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** GetObjectRetention's {@code Retention}. */
    public static byte[] renderRetention(Retention retention) {
        return ObjectLockDocuments.renderRetention(retention);
    }

    /**
     * A PutObjectRetention body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}: both a mode and
     * an ISO 8601 date, or neither (an empty {@code <Retention/>}); anything else is MalformedXML.
     * A date in the past is the caller's to refuse, since it needs the clock.
     */
    public static Retention parseRetention(InputStream body) {
        return parseRetention(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutObjectRetention body of at most {@code maximumBytes}. */
    public static Retention parseRetention(InputStream body, int maximumBytes) {
        return ObjectLockDocuments.parseRetention(body, maximumBytes);
    }

    /** GetObjectLegalHold's {@code LegalHold}. */
    public static byte[] renderLegalHold(LegalHold legalHold) {
        return ObjectLockDocuments.renderLegalHold(legalHold);
    }

    /**
     * A PutObjectLegalHold body, bounded by {@link #CONFIGURATION_MAXIMUM_BYTES}; a status other than ON
     * and OFF is MalformedXML.
     */
    public static LegalHold parseLegalHold(InputStream body) {
        return parseLegalHold(body, CONFIGURATION_MAXIMUM_BYTES);
    }

    /** A PutObjectLegalHold body of at most {@code maximumBytes}. */
    public static LegalHold parseLegalHold(InputStream body, int maximumBytes) {
        return ObjectLockDocuments.parseLegalHold(body, maximumBytes);
    }

    /**
     * GetObjectAttributes' {@code GetObjectAttributesResponse}, holding the requested attributes
     * the object has, in S3's order (see {@link GetObjectAttributesResult}).
     */
    public static byte[] renderGetObjectAttributes(GetObjectAttributesResult result, Set<ObjectAttribute> requested) {
        return ResponseDocuments.getObjectAttributes(result, requested);
    }

    /**
     * The attributes an {@code x-amz-object-attributes} header names, comma-separated (join
     * repeated header lines with commas first). Throws S3Exception with InvalidRequest when it
     * names none, InvalidArgument ("Invalid attribute name specified.") for a name S3 does not know;
     * names are case-sensitive.
     */
    public static Set<ObjectAttribute> parseObjectAttributes(String header) {
        return RequestDocuments.objectAttributes(header);
    }

    /**
     * The {@code PostResponse} of a browser upload that asked for {@code success_action_status=201},
     * in no namespace.
     */
    public static byte[] renderPostResponse(PostResponse response) {
        return ResponseDocuments.postResponse(response);
    }

    /**
     * A key, prefix, marker or delimiter as S3 writes it under {@code encoding-type=url}: UTF-8,
     * percent-encoded in upper case, except letters, digits, {@code - _ . *} and {@code /}, with a
     * space as {@code +} (what AWS sends, and what botocore's unquote_plus and the Java SDK's
     * URLDecoder read back). Throws {@link IllegalArgumentException} for a string with a lone
     * surrogate, which has no UTF-8 form.
     */
    public static String urlEncodeKey(String key) {
        return UrlEncoding.encodeKey(key);
    }
}
