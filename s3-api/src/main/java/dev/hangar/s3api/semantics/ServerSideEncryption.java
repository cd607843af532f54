package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.encryption.ContentKey;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Server-side encryption as requests ask for it and versions store it. SSE-C is implemented: the customer's key
 * comes with every request that writes or reads the content and is never stored; the content is sealed with it
 * ({@link dev.hangar.s3api.encryption.SealedFormat}), and beside the version only what tells that key from another
 * ({@link ContentKey#check}) is kept, under names that cannot be headers ({@link #MODE}, {@link #KEY_CHECK}).
 *
 * <p>SSE-S3 and SSE-KMS ({@code x-amz-server-side-encryption}, {@code ...-aws-kms-key-id}, {@code ...-context},
 * {@code ...-bucket-key-enabled}) are not implemented yet: a request that asks for them is answered {@code 501
 * NotImplemented} naming the header, never served as if its data were encrypted. So is any other header with
 * these prefixes, so that a new one S3 adds is refused rather than ignored, and SSE-C headers sent to an operation
 * that does not take them.
 */
final class ServerSideEncryption {
    /** Stored with a sealed version or upload: how it is sealed. */
    static final String MODE = ":sse";
    /** Stored with an SSE-C version or upload: the {@link ContentKey#check} of the customer's key. */
    static final String KEY_CHECK = ":sse-key-check";
    static final String CUSTOMER_KEYS = "SSE-C";

    private static final String PREFIX = "x-amz-server-side-encryption";
    private static final String COPY_SOURCE_PREFIX = "x-amz-copy-source-server-side-encryption";
    private static final String CUSTOMER = PREFIX + "-customer-";
    private static final String COPY_SOURCE_CUSTOMER = COPY_SOURCE_PREFIX + "-customer-";
    private static final String ALGORITHM = "algorithm";
    private static final String KEY = "key";
    private static final String KEY_MD5 = "key-md5";

    private final boolean customerKeysOverHttp;

    /** @param customerKeysOverHttp whether SSE-C keys are taken over plain HTTP, which S3 refuses */
    ServerSideEncryption(boolean customerKeysOverHttp) {
        this.customerKeysOverHttp = customerKeysOverHttp;
    }

    /**
     * Refuses what is not implemented: every encryption header but SSE-C's on the operations that take them.
     *
     * @throws S3Exception NotImplemented naming the first such header and its feature
     */
    static void refuseUnsupported(S3Operation operation, RequestHeaders headers) {
        for (String name : headers.values().keySet()) {
            boolean customer = isCustomerHeader(name, CUSTOMER) && takesCustomerKeys(operation);
            boolean copySource = isCustomerHeader(name, COPY_SOURCE_CUSTOMER) && copies(operation);
            if ((name.startsWith(PREFIX) || name.startsWith(COPY_SOURCE_PREFIX)) && !customer && !copySource) {
                throw notImplemented(name, operation.name());
            }
        }
    }

    /**
     * Refuses every encryption header: for browser uploads, whose form fields of these names are not implemented.
     */
    static void refuse(RequestHeaders headers) {
        for (String name : headers.values().keySet()) {
            if (name.startsWith(PREFIX) || name.startsWith(COPY_SOURCE_PREFIX)) {
                throw notImplemented(name, null);
            }
        }
    }

    /** The customer key the request's {@code x-amz-server-side-encryption-customer-*} headers give, if any. */
    Optional<CustomerKey> requested(S3Request request) {
        return customerKey(request, CUSTOMER);
    }

    /** The customer key of a copy's source ({@code x-amz-copy-source-server-side-encryption-customer-*}), if any. */
    Optional<CustomerKey> requestedForCopySource(S3Request request) {
        return customerKey(request, COPY_SOURCE_CUSTOMER);
    }

    /** What to store with content sealed with {@code key}: the mode and the key's check, never the key. */
    static Map<String, String> stored(CustomerKey key) {
        return Map.of(MODE, CUSTOMER_KEYS, KEY_CHECK, key.key().check());
    }

    /** The stored encryption attributes among a version's or an upload's stored headers. */
    static Map<String, String> storedAmong(Map<String, String> headers) {
        Map<String, String> stored = new HashMap<>();
        for (String name : new String[] {MODE, KEY_CHECK}) {
            String value = headers.get(name);
            if (value != null) {
                stored.put(name, value);
            }
        }
        return stored;
    }

    /**
     * The key to read a version's content with, from what the request supplied: none for content stored in the
     * clear, the supplied customer key for SSE-C content if it is the key the content was sealed with.
     *
     * @throws S3Exception InvalidRequest for a key supplied for content not sealed with one, or none supplied for
     *     content that is; AccessDenied for another key than the content's
     */
    static Optional<CustomerKey> toRead(ObjectVersion version, Optional<CustomerKey> supplied) {
        String mode = version.headers().get(MODE);
        if (mode == null) {
            if (supplied.isPresent()) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "The encryption parameters are not applicable to this object.");
            }
            return Optional.empty();
        }
        if (supplied.isEmpty()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The object was stored using a form of Server Side "
                    + "Encryption. The correct parameters must be provided to retrieve the object.");
        }
        if (!supplied.get().key().matches(version.headers().getOrDefault(KEY_CHECK, ""))) {
            throw new S3Exception(S3Error.ACCESS_DENIED,
                    "The customer-provided key is not the key the object was encrypted with.");
        }
        return supplied;
    }

    /**
     * The key a part of a multipart upload is sealed with: the upload's, which the request must supply again.
     *
     * @throws S3Exception InvalidRequest when the request's key is missing, not the upload's, or given to an
     *     upload that was not created with one
     */
    static Optional<CustomerKey> forPart(Map<String, String> uploadHeaders, Optional<CustomerKey> supplied) {
        String mode = uploadHeaders.get(MODE);
        if (mode == null) {
            if (supplied.isPresent()) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "The multipart upload was not created with "
                        + "server-side encryption with a customer-provided key, so its parts cannot have one.");
            }
            return Optional.empty();
        }
        if (supplied.isEmpty() || !supplied.get().key().matches(uploadHeaders.getOrDefault(KEY_CHECK, ""))) {
            throw new S3Exception(S3Error.INVALID_REQUEST,
                    "The provided encryption parameters did not match the ones used originally.");
        }
        return supplied;
    }

    /** Adds the headers S3 answers about SSE-C content: its algorithm and the MD5 of the key the request sent. */
    static void putResponseHeaders(Map<String, String> headers, Optional<CustomerKey> key) {
        key.ifPresent(customer -> {
            headers.put(CUSTOMER + ALGORITHM, "AES256");
            headers.put(CUSTOMER + "key-MD5", customer.md5());
        });
    }

    private Optional<CustomerKey> customerKey(S3Request request, String prefix) {
        String algorithm = request.header(prefix + ALGORITHM);
        String key = request.header(prefix + KEY);
        String md5 = request.header(prefix + KEY_MD5);
        if (algorithm == null && key == null && md5 == null) {
            return Optional.empty();
        }
        String what = "Requests specifying Server Side Encryption with Customer provided keys must ";
        if (!request.secure() && !customerKeysOverHttp) {
            throw new S3Exception(S3Error.INVALID_REQUEST, what + "be made over a secure connection.");
        }
        if (algorithm == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, what + "provide a valid encryption algorithm.");
        }
        if (!algorithm.equals("AES256")) {
            throw new S3Exception(S3Error.INVALID_ENCRYPTION_ALGORITHM);
        }
        if (key == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, what + "provide an appropriate secret key.");
        }
        if (md5 == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, what + "provide the client calculated MD5 of the secret key.");
        }
        byte[] material = decode(key);
        if (material == null || material.length != 32) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "The secret key was invalid for the specified algorithm.");
        }
        byte[] sentMd5 = decode(md5);
        if (sentMd5 == null || !MessageDigest.isEqual(sentMd5, Etags.md5().digest(material))) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "The calculated MD5 hash of the key did not match the hash that was provided.");
        }
        return Optional.of(new CustomerKey(new ContentKey(material), md5.strip()));
    }

    private static byte @Nullable [] decode(String base64) {
        try {
            return Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    private static boolean isCustomerHeader(String name, String prefix) {
        return name.equals(prefix + ALGORITHM) || name.equals(prefix + KEY) || name.equals(prefix + KEY_MD5);
    }

    /** The operations S3 takes SSE-C headers for the object's own content. */
    private static boolean takesCustomerKeys(S3Operation operation) {
        return operation instanceof S3Operation.PutObject
                || operation instanceof S3Operation.GetObject
                || operation instanceof S3Operation.HeadObject
                || operation instanceof S3Operation.CopyObject
                || operation instanceof S3Operation.CreateMultipartUpload
                || operation instanceof S3Operation.UploadPart
                || operation instanceof S3Operation.UploadPartCopy
                || operation instanceof S3Operation.CompleteMultipartUpload
                || operation instanceof S3Operation.GetObjectAttributes;
    }

    private static boolean copies(S3Operation operation) {
        return operation instanceof S3Operation.CopyObject || operation instanceof S3Operation.UploadPartCopy;
    }

    private static S3Exception notImplemented(String header, @Nullable String operation) {
        String feature = feature(header);
        String where = feature.contains("SSE-C") && operation != null ? " on " + operation : "";
        return new S3Exception(S3Error.NOT_IMPLEMENTED, feature + where + " is not implemented by Hangar yet "
                + "(the request has " + header + "): Hangar refuses requests that ask for encryption it does not do.");
    }

    private static String feature(String header) {
        if (header.contains("-customer-")) {
            return header.startsWith(COPY_SOURCE_PREFIX)
                    ? "Server-side encryption with customer-provided keys (SSE-C) of a copy source"
                    : "Server-side encryption with customer-provided keys (SSE-C)";
        }
        if (header.contains("-aws-kms-") || header.endsWith("-context")) {
            return "Server-side encryption with AWS KMS keys (SSE-KMS)";
        }
        if (header.endsWith("-bucket-key-enabled")) {
            return "S3 Bucket Keys for server-side encryption";
        }
        return "Server-side encryption (SSE-S3, SSE-KMS)";
    }
}
