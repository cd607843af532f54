package dev.hangar.s3api.xml;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.InputStream;
import java.io.UncheckedIOException;
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
 * wrong type. A failure to read the stream itself is an {@link UncheckedIOException}. They do not
 * close the stream.
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
