package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.encryption.ContentKey;
import dev.hangar.s3api.encryption.KmsKey;
import dev.hangar.s3api.encryption.KmsKeys;
import dev.hangar.s3api.encryption.MasterKeys;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Server-side encryption as requests ask for it and versions store it, resolved to a {@link Sealing}.
 *
 * <p>SSE-C: the customer's key comes with every request that writes or reads the content and is never stored; beside
 * the version only what tells that key from another ({@link ContentKey#check}) is kept. SSE-S3 ({@code
 * x-amz-server-side-encryption: AES256}, or the bucket's default encryption): each object, and each multipart
 * upload, gets a fresh data key, kept with it wrapped by the key service's current master key ({@link MasterKeys});
 * GETs need nothing from the client. SSE-KMS ({@code aws:kms}, with {@code ...-aws-kms-key-id} and {@code
 * ...-context}): the same, the data key wrapped by a KMS key of the key service ({@link KmsKeys}) and bound to the
 * encryption context. All is kept under names that cannot be headers ({@link #MODE}, {@link #KEY_CHECK}, {@link
 * #DATA_KEY}, {@link #KMS_KEY_ID}, {@link #KMS_CONTEXT}).
 *
 * <p>S3 Bucket Keys and DSSE-KMS are not implemented: a request that asks for them is answered {@code 501
 * NotImplemented} naming them, never served as if its data were encrypted so. So is any other header with these
 * prefixes, so that a new one S3 adds is refused rather than ignored, and encryption headers sent to an operation
 * that does not take them.
 */
final class ServerSideEncryption {
    /** Stored with a sealed version or upload: how it is sealed, {@link #CUSTOMER_KEYS}, {@link #AES256} or {@link #KMS}. */
    static final String MODE = ":sse";
    /** Stored with an SSE-C version or upload: the {@link ContentKey#check} of the customer's key. */
    static final String KEY_CHECK = ":sse-key-check";
    /** Stored with an SSE-S3 or SSE-KMS version or upload: its data key, wrapped by a master key or a KMS key. */
    static final String DATA_KEY = ":sse-data-key";
    /** Stored with an SSE-KMS version or upload: the id of the KMS key that wrapped its data key. */
    static final String KMS_KEY_ID = ":sse-kms-key-id";
    /** Stored with an SSE-KMS version or upload: the encryption context its data key is bound to, if it has one. */
    static final String KMS_CONTEXT = ":sse-kms-context";
    static final String CUSTOMER_KEYS = "SSE-C";
    static final String AES256 = "AES256";
    static final String KMS = "aws:kms";
    static final String HEADER = "x-amz-server-side-encryption";
    private static final String KMS_KEY_HEADER = HEADER + "-aws-kms-key-id";
    private static final String CONTEXT_HEADER = HEADER + "-context";
    private static final String BUCKET_KEY_HEADER = HEADER + "-bucket-key-enabled";

    private static final String PREFIX = HEADER;
    private static final String COPY_SOURCE_PREFIX = "x-amz-copy-source-server-side-encryption";
    private static final String CUSTOMER = PREFIX + "-customer-";
    private static final String COPY_SOURCE_CUSTOMER = COPY_SOURCE_PREFIX + "-customer-";
    private static final String ALGORITHM = "algorithm";
    private static final String KEY = "key";
    private static final String KEY_MD5 = "key-md5";
    /** What a wrapped SSE-S3 data key is bound to: it unwraps for nothing else. */
    private static final String DATA_KEY_PURPOSE = "sse-s3 data key";
    private static final String NOT_APPLICABLE = "The encryption parameters are not applicable to this object.";

    private final boolean customerKeysOverHttp;
    private final Optional<MasterKeys> masterKeys;
    private final Optional<KmsKeys> kmsKeys;
    private final Function<String, Optional<DefaultEncryption>> bucketDefault;

    /**
     * @param customerKeysOverHttp whether SSE-C keys are taken over plain HTTP, which S3 refuses
     * @param masterKeys the key service's master keys; without them SSE-S3 is refused (501, naming the setting)
     * @param kmsKeys the key service's KMS keys; without them SSE-KMS is refused (501)
     * @param bucketDefault the default encryption of a bucket, if it has one
     */
    ServerSideEncryption(boolean customerKeysOverHttp, Optional<MasterKeys> masterKeys, Optional<KmsKeys> kmsKeys,
            Function<String, Optional<DefaultEncryption>> bucketDefault) {
        this.customerKeysOverHttp = customerKeysOverHttp;
        this.masterKeys = masterKeys;
        this.kmsKeys = kmsKeys;
        this.bucketDefault = bucketDefault;
    }

    /**
     * Refuses what is not implemented: every encryption header but SSE-C's on the operations that take a customer
     * key, the copy source's on copies, and SSE-S3's and SSE-KMS's on the operations that make new content.
     *
     * @throws S3Exception NotImplemented naming the first such header and its feature
     */
    static void refuseUnsupported(S3Operation operation, RequestHeaders headers) {
        for (String name : headers.values().keySet()) {
            boolean customer = isCustomerHeader(name, CUSTOMER) && takesCustomerKeys(operation);
            boolean copySource = isCustomerHeader(name, COPY_SOURCE_CUSTOMER) && copies(operation);
            boolean algorithm = (name.equals(HEADER) || name.equals(KMS_KEY_HEADER) || name.equals(CONTEXT_HEADER)
                    || name.equals(BUCKET_KEY_HEADER)) && createsContent(operation);
            if ((name.startsWith(PREFIX) || name.startsWith(COPY_SOURCE_PREFIX)) && !customer && !copySource
                    && !algorithm) {
                throw notImplemented(name, operation.name());
            }
        }
    }

    /** Whether the request carries a customer key (SSE-C) for the object's own content. */
    static boolean suppliesCustomerKey(S3Request request) {
        return request.header(CUSTOMER + ALGORITHM) != null || request.header(CUSTOMER + KEY) != null
                || request.header(CUSTOMER + KEY_MD5) != null;
    }

    /** Whether a version's content is sealed with a customer's key. */
    static boolean isCustomerKeyed(ObjectVersion version) {
        return CUSTOMER_KEYS.equals(version.headers().get(MODE));
    }

    /** Whether the request asks for encryption itself (not through its bucket's default). */
    static boolean requestedExplicitly(S3Request request) {
        return request.header(HEADER) != null || suppliesCustomerKey(request);
    }

    /**
     * How new content of a write (PutObject, CopyObject's target, CreateMultipartUpload) is sealed: with the
     * request's customer key, with a new data key for {@code x-amz-server-side-encryption: AES256} or the bucket's
     * default encryption, or not at all.
     *
     * @throws S3Exception as S3 for malformed or conflicting headers; NotImplemented for SSE-KMS, or SSE-S3 without
     *     a master key configured
     */
    Optional<Sealing> forWrite(S3Request request, String bucket) {
        Optional<CustomerKey> customer = customerKey(request, CUSTOMER);
        String algorithm = request.header(HEADER);
        if (customer.isPresent()) {
            if (algorithm != null) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "Server Side Encryption with Customer provided key is "
                        + "incompatible with the encryption method specified");
            }
            return customer.map(ServerSideEncryption::sealing);
        }
        String kmsKey = request.header(KMS_KEY_HEADER);
        String context = request.header(CONTEXT_HEADER);
        if ((kmsKey != null || context != null) && (algorithm == null || !algorithm.strip().startsWith(KMS))) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Server Side Encryption with KMS managed key requires "
                    + "HTTP header x-amz-server-side-encryption : aws:kms");
        }
        String bucketKey = request.header(BUCKET_KEY_HEADER);
        if (bucketKey != null && !bucketKey.strip().equalsIgnoreCase("false")) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "S3 Bucket Keys for server-side encryption are not "
                    + "implemented by Hangar yet (the request has " + BUCKET_KEY_HEADER + ": " + bucketKey + ").");
        }
        if (algorithm == null) {
            return bucketDefault.apply(bucket).map(rule -> rule.algorithm().equals(KMS)
                    ? newKmsDataKey(rule.kmsKeyId(), null)
                    : newDataKey(rule.algorithm()));
        }
        if (algorithm.strip().equals(KMS)) {
            return Optional.of(newKmsDataKey(kmsKey, context));
        }
        return Optional.of(newDataKey(algorithm.strip()));
    }

    /**
     * How to read a version's content, from what it stores and what the request supplied ({@code
     * x-amz-server-side-encryption-customer-*}): in the clear, unsealed with the supplied customer key if it is the
     * content's, or with the version's own data key.
     *
     * @throws S3Exception InvalidRequest for a key supplied for content not sealed with a customer key, or none for
     *     content that is; AccessDenied for another key than the content's
     */
    Optional<Sealing> forRead(S3Request request, ObjectVersion version) {
        return toRead(version.headers(), customerKey(request, CUSTOMER));
    }

    /** As {@link #forRead}, for a copy's source, with the {@code x-amz-copy-source-server-side-encryption-customer-*} key. */
    Optional<Sealing> forCopySource(S3Request request, ObjectVersion version) {
        return toRead(version.headers(), customerKey(request, COPY_SOURCE_CUSTOMER));
    }

    /**
     * How a part of a multipart upload is sealed: as the upload was created, the request supplying the upload's
     * customer key again for SSE-C.
     *
     * @throws S3Exception InvalidRequest when the request's customer key is missing, not the upload's, or given to
     *     an upload that was not created with one
     */
    Optional<Sealing> forPart(S3Request request, Map<String, String> uploadHeaders) {
        Optional<CustomerKey> supplied = customerKey(request, CUSTOMER);
        String mode = uploadHeaders.get(MODE);
        if (CUSTOMER_KEYS.equals(mode)) {
            if (supplied.isEmpty() || !supplied.get().key().matches(uploadHeaders.getOrDefault(KEY_CHECK, ""))) {
                throw new S3Exception(S3Error.INVALID_REQUEST,
                        "The provided encryption parameters did not match the ones used originally.");
            }
            return supplied.map(ServerSideEncryption::sealing);
        }
        if (supplied.isPresent()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The multipart upload was not created with server-side "
                    + "encryption with a customer-provided key, so its parts cannot have one.");
        }
        return mode == null ? Optional.empty() : Optional.of(unwrapped(uploadHeaders));
    }

    /** The stored encryption facts among a version's or an upload's stored headers. */
    static Map<String, String> storedAmong(Map<String, String> headers) {
        Map<String, String> stored = new HashMap<>();
        for (String name : new String[] {MODE, KEY_CHECK, DATA_KEY, KMS_KEY_ID, KMS_CONTEXT}) {
            String value = headers.get(name);
            if (value != null) {
                stored.put(name, value);
            }
        }
        return stored;
    }

    /** What S3 answers about a completed upload's encryption (its customer key is not sent with the completion). */
    Map<String, String> completionHeaders(Map<String, String> uploadHeaders) {
        String mode = uploadHeaders.get(MODE);
        if (AES256.equals(mode)) {
            return Map.of(HEADER, AES256);
        }
        if (KMS.equals(mode) && kmsKeys.isPresent()) {
            return kmsResponseHeaders(kmsKeys.get(), uploadHeaders.getOrDefault(KMS_KEY_ID, ""),
                    uploadHeaders.get(KMS_CONTEXT));
        }
        return Map.of();
    }

    private Optional<Sealing> toRead(Map<String, String> stored, Optional<CustomerKey> supplied) {
        String mode = stored.get(MODE);
        if (!CUSTOMER_KEYS.equals(mode)) {
            if (supplied.isPresent()) {
                throw new S3Exception(S3Error.INVALID_REQUEST, NOT_APPLICABLE);
            }
            return mode == null ? Optional.empty() : Optional.of(unwrapped(stored));
        }
        if (supplied.isEmpty()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The object was stored using a form of Server Side "
                    + "Encryption. The correct parameters must be provided to retrieve the object.");
        }
        if (!supplied.get().key().matches(stored.getOrDefault(KEY_CHECK, ""))) {
            throw new S3Exception(S3Error.ACCESS_DENIED,
                    "The customer-provided key is not the key the object was encrypted with.");
        }
        return supplied.map(ServerSideEncryption::sealing);
    }

    private static Sealing sealing(CustomerKey customer) {
        return new Sealing(customer.key(), true, Map.of(MODE, CUSTOMER_KEYS, KEY_CHECK, customer.key().check()),
                Map.of(CUSTOMER + ALGORITHM, AES256, CUSTOMER + "key-MD5", customer.md5()));
    }

    /** A fresh data key for SSE-S3, wrapped by the current master key. */
    private Sealing newDataKey(String algorithm) {
        switch (algorithm) {
            case AES256 -> { }
            case "aws:kms:dsse" -> throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                    "Dual-layer server-side encryption with KMS keys (DSSE-KMS) is not implemented by Hangar yet (the "
                            + "request or the bucket's default encryption has " + HEADER + ": " + algorithm + ").");
            default -> throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "The encryption method specified is not supported: " + algorithm);
        }
        MasterKeys keys = masterKeys.orElseThrow(() -> new S3Exception(S3Error.NOT_IMPLEMENTED,
                "Server-side encryption with Hangar-managed keys (SSE-S3) needs a master key, and none is "
                        + "configured: see hangar.encryption.master-key-file."));
        ContentKey dataKey = ContentKey.random();
        return new Sealing(dataKey, false, Map.of(MODE, AES256, DATA_KEY, keys.wrap(dataKey, DATA_KEY_PURPOSE)),
                Map.of(HEADER, AES256));
    }

    /**
     * A fresh data key for SSE-KMS, wrapped by the KMS key the request names (else the default key, {@code
     * aws/s3}), bound to the request's encryption context.
     */
    private Sealing newKmsDataKey(@Nullable String reference, @Nullable String context) {
        KmsKeys keys = kmsKeys.orElseThrow(() -> new S3Exception(S3Error.NOT_IMPLEMENTED,
                "Server-side encryption with KMS keys (SSE-KMS) needs the key service's master key, and none is "
                        + "configured: see hangar.encryption.master-key-file."));
        KmsKey key = reference == null || reference.isBlank()
                ? keys.defaultKey()
                : keys.find(reference).orElseThrow(() -> new S3Exception(S3Error.KMS_NOT_FOUND,
                        "Invalid keyId " + reference + ": no such KMS key (an operator creates them with hangar admin "
                                + "kms-keys create)."));
        if (!key.enabled()) {
            throw new S3Exception(S3Error.KMS_DISABLED, "The KMS key " + keys.arn(key.id()) + " is disabled.");
        }
        String checkedContext = context == null ? null : EncryptionContext.check(context);
        ContentKey dataKey = ContentKey.random();
        Map<String, String> stored = new HashMap<>(Map.of(MODE, KMS, KMS_KEY_ID, key.id(),
                DATA_KEY, keys.material(key).wrap(dataKey, kmsPurpose(checkedContext))));
        if (checkedContext != null) {
            stored.put(KMS_CONTEXT, checkedContext);
        }
        return new Sealing(dataKey, true, stored, kmsResponseHeaders(keys, key.id(), checkedContext));
    }

    /**
     * The data key an SSE-S3 or SSE-KMS version or upload stores, unwrapped with the master key or the KMS key that
     * wrapped it.
     *
     * @throws S3Exception InternalError when that key is not configured (or no longer exists) or the stored key is
     *     damaged; KMS.DisabledException for a disabled KMS key
     */
    private Sealing unwrapped(Map<String, String> stored) {
        String wrapped = stored.getOrDefault(DATA_KEY, "");
        try {
            if (!KMS.equals(stored.get(MODE))) {
                MasterKeys keys = masterKeys.orElseThrow(() -> new S3Exception(S3Error.INTERNAL_ERROR,
                        "The object is encrypted with a master key (SSE-S3), and no master key is configured: see "
                                + "hangar.encryption.master-key-file."));
                return new Sealing(keys.unwrap(wrapped, DATA_KEY_PURPOSE), false, Map.of(), Map.of(HEADER, AES256));
            }
            KmsKeys keys = kmsKeys.orElseThrow(() -> new S3Exception(S3Error.INTERNAL_ERROR,
                    "The object is encrypted with a KMS key (SSE-KMS), and the key service has no master key: see "
                            + "hangar.encryption.master-key-file."));
            String id = stored.getOrDefault(KMS_KEY_ID, "");
            KmsKey key = keys.find(id).orElseThrow(() -> new S3Exception(S3Error.INTERNAL_ERROR,
                    "The object is encrypted with KMS key " + id + ", which the key service does not have."));
            if (!key.enabled()) {
                throw new S3Exception(S3Error.KMS_DISABLED, "The KMS key " + keys.arn(id) + " the object is "
                        + "encrypted with is disabled.");
            }
            String context = stored.get(KMS_CONTEXT);
            return new Sealing(keys.material(key).unwrap(wrapped, kmsPurpose(context)), true, Map.of(),
                    kmsResponseHeaders(keys, id, context));
        } catch (MasterKeys.UnknownMasterKeyException e) {
            throw new S3Exception(S3Error.INTERNAL_ERROR, "The object's key is wrapped with master key " + e.id()
                    + ", which is not configured (hangar.encryption.previous-master-key-files keeps retired keys).");
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3Error.INTERNAL_ERROR, "The object's stored data key is damaged: " + e.getMessage());
        }
    }

    private static Map<String, String> kmsResponseHeaders(KmsKeys keys, String id, @Nullable String context) {
        Map<String, String> headers = new HashMap<>(Map.of(HEADER, KMS, KMS_KEY_HEADER, keys.arn(id)));
        if (context != null) {
            headers.put(CONTEXT_HEADER, context);
        }
        return headers;
    }

    /** What an SSE-KMS data key is bound to: the encryption context too, as AWS KMS binds it. */
    private static String kmsPurpose(@Nullable String context) {
        return "sse-kms data key" + (context == null ? "" : " " + context);
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

    /** The operations that make new content, which take {@code x-amz-server-side-encryption}. */
    private static boolean createsContent(S3Operation operation) {
        return operation instanceof S3Operation.PutObject
                || operation instanceof S3Operation.CopyObject
                || operation instanceof S3Operation.CreateMultipartUpload;
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

    private static S3Exception notImplemented(String header, String operation) {
        return new S3Exception(S3Error.NOT_IMPLEMENTED, feature(header) + " on " + operation + " is not implemented by "
                + "Hangar (the request has " + header + "): Hangar refuses requests that ask for encryption it does not do.");
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
