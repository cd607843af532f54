package dev.hangar.s3api.semantics;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.ObjectAcl;
import dev.hangar.s3api.auth.SignatureScheme;
import dev.hangar.s3api.auth.SignatureV2;
import dev.hangar.s3api.post.PostFields;
import dev.hangar.s3api.post.PostPolicy;
import dev.hangar.s3api.post.PostPolicyCheck;
import dev.hangar.s3api.post.PostSignature;
import dev.hangar.s3api.post.PostSuccess;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.PostResponse;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.Tag;
import dev.hangar.s3api.xml.TaggedResource;
import dev.hangar.s3api.xml.Tagging;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * POST Object: browser uploads authorized by a signed policy document, or anonymous ones where the
 * bucket lets anyone write.
 *
 * <p>The steps, in the order S3 takes them (the {@code post} package's own order): the form must name a
 * {@code key}; a form with a {@code policy} must carry its SigV4 signature, which is checked
 * ({@link PostSignature#verify}, or its Version 2 form: {@code AWSAccessKeyId} and {@code signature}) before the
 * policy is parsed ({@link PostPolicy#parse}); the fields, with
 * {@code ${filename}} expanded and {@code bucket} set to the request's bucket, are checked against the
 * policy ({@link PostPolicyCheck#verifyFields}); the key that signed the policy (or, without a policy, the
 * anonymous caller) must be allowed PutObject on the bucket, as {@link AccessGuard} decides for any
 * request. Only then is the file read: inline when it turns out to be small, else into blocks, cut off as
 * soon as it grows past the policy's {@code content-length-range} or 5 GiB. Its length is checked against
 * the policy (blocks written for a file that fails are discarded) before the version is committed, so a
 * refused upload never becomes visible.
 */
final class PostObjectOperations {
    /** What no POST may store, whatever its policy admits: the limit of a single PUT. */
    static final long MAXIMUM_FILE = ObjectOperations.MAX_SINGLE_PUT;

    private static final List<String> SIGNATURE_FIELDS =
            List.of("x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature");
    private static final List<String> VERSION2_SIGNATURE_FIELDS = List.of("awsaccesskeyid", "signature");
    private static final String OPERATION = "PostObject";

    private final ObjectOperations objects;
    private final ContentStore content;
    private final AccessGuard guard;
    private final Function<String, Optional<AccessKey>> keys;
    private final S3Settings settings;
    private final BucketConfigurations configurations;

    /**
     * @param keys the access key of an access key id, the configured root key included: the key that
     *     signed a policy is looked up here
     */
    PostObjectOperations(ObjectOperations objects, ContentStore content, AccessGuard guard,
            Function<String, Optional<AccessKey>> keys, S3Settings settings, BucketConfigurations configurations) {
        this.objects = objects;
        this.configurations = configurations;
        this.content = content;
        this.guard = guard;
        this.keys = keys;
        this.settings = settings;
    }

    S3Response upload(S3Request request, PostForm form) {
        String bucket = request.requireBucket();
        Map<String, String> fields = form.fields();
        String keyField = fields.get("key");
        if (keyField == null || keyField.isEmpty()) {
            throw missingField("key");
        }
        Map<String, List<String>> context = new HashMap<>(form.context());
        String aclField = fields.get("acl");
        if (aclField != null) {
            context.put("s3:x-amz-acl", List.of(aclField));
        }
        @Nullable String policyField = fields.get("policy");
        @Nullable PostPolicy policy = null;
        Caller caller;
        if (policyField == null) {
            // Without a policy the upload is anonymous: only a bucket anyone may write to takes it.
            caller = Caller.anonymous(context);
        } else {
            SignatureScheme scheme = Objects.requireNonNull(SignatureScheme.ofPostForm(fields));
            AccessKey signer = verifySignature(policyField, fields, scheme);
            context.put("s3:signatureversion", List.of(scheme.version().policyValue()));
            context.put("s3:authType", List.of(scheme.authType()));
            caller = new Caller(signer, context);
            policy = PostPolicy.parse(policyField);
        }
        Map<String, String> resolved = new LinkedHashMap<>(PostFields.resolveFilename(fields, form.filename()));
        resolved.put("bucket", bucket);
        if (policy != null) {
            PostPolicyCheck.verifyFields(policy, resolved, objects.now());
        }
        String key = resolved.get("key");
        ObjectKeys.validate(key);
        guard.authorizeObject(caller, request, OPERATION, bucket, key, null);
        objects.requireBucket(bucket);

        // Everything the form says about the object is checked before its file is read.
        RequestHeaders formHeaders = asHeaders(resolved);
        // The form's encryption fields are a PUT's headers: SSE-C and SSE-S3 taken, the rest refused.
        ServerSideEncryption.refuseUnsupported(new dev.hangar.s3api.request.S3Operation.PutObject(), formHeaders);
        StorageClasses.requireStored(formHeaders);
        ObjectHeaders headers = ObjectHeaders.from(formHeaders);
        // The acl field is x-amz-acl; x-amz-grant-* fields are the headers of a PUT.
        Function<String, @Nullable String> aclFields = name -> resolved.get(name.equals(GrantHeaders.ACL_HEADER) ? "acl" : name);
        AclWrites.refuseGrantHeaders(configurations, bucket, aclFields);
        @Nullable ObjectAcl acl = ObjectAcls.forWrite(aclFields, configurations::canonicalIdExists);
        AclWrites.check(configurations, bucket, acl, false);
        Map<String, String> tags = tags(resolved.get("tagging"));
        PostSuccess success = PostSuccess.decide(resolved);

        // As a PUT's headers would, the form's fields say how the file is sealed, else the bucket's default.
        Optional<Sealing> sealing = objects.sealingForWrite(new S3Request(request.method(), bucket, key, Map.of(),
                formHeaders, request.host(), request.requestId(), request.secure()), bucket);
        StoredFile stored = store(form.file(), policy, sealing);
        if (policy != null) {
            try {
                PostPolicyCheck.verifyContentLength(policy, stored.size());
            } catch (S3Exception refused) {
                content.discard(stored.content());
                throw refused;
            }
        }
        // A browser upload is a PUT: versioned as the bucket says, with the bucket's default retention.
        ObjectVersion version = ObjectOperations.sealedWith(objects.newVersion(bucket, key, objects.versioning(bucket),
                stored.size(), stored.etag(), stored.content(), headers, null, List.of(),
                new VersionSettings(tags, acl, null)), sealing).withOwnerKeyId(caller.accessKeyId());
        objects.commit(version);
        return respond(request, form, success, version, sealing);
    }

    /**
     * Checks the policy's signature and returns the key that made it: with Signature Version 4
     * ({@code x-amz-algorithm}, {@code x-amz-credential}, {@code x-amz-date}, {@code x-amz-signature}) or, unless
     * it is turned off, Version 2 ({@code AWSAccessKeyId}, {@code signature}: the base64 HMAC-SHA1 of the
     * policy field as received).
     */
    private AccessKey verifySignature(String policyField, Map<String, String> fields, SignatureScheme scheme) {
        String accessKeyId = switch (scheme) {
            case V2_POST -> verifyVersion2(policyField, fields);
            case V4_POST -> verifyVersion4(policyField, fields);
            case V4_HEADER, V4_QUERY, V2_HEADER, V2_QUERY ->
                    throw new IllegalArgumentException("not a browser upload's scheme: " + scheme);
        };
        return keys.apply(accessKeyId).orElseThrow(() -> new S3Exception(S3Error.INVALID_ACCESS_KEY_ID));
    }

    private String verifyVersion4(String policyField, Map<String, String> fields) {
        for (String field : SIGNATURE_FIELDS) {
            if (!fields.containsKey(field)) {
                throw missingField(field);
            }
        }
        String algorithm = fields.get("x-amz-algorithm");
        if (!PostSignature.ALGORITHM.equals(algorithm)) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "x-amz-algorithm only supports \"" + PostSignature.ALGORITHM + "\"");
        }
        return PostSignature.verify(policyField, fields.get("x-amz-credential"),
                fields.get("x-amz-date"), fields.get("x-amz-signature"),
                id -> keys.apply(id).map(AccessKey::secretKey), settings.region());
    }

    private String verifyVersion2(String policyField, Map<String, String> fields) {
        if (!settings.signatureV2()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The authorization mechanism you have provided is not "
                    + "supported. Please use " + PostSignature.ALGORITHM + ".");
        }
        for (String field : VERSION2_SIGNATURE_FIELDS) {
            if (!fields.containsKey(field)) {
                throw missingField(field.equals("awsaccesskeyid") ? "AWSAccessKeyId" : field);
            }
        }
        String accessKeyId = fields.get("awsaccesskeyid");
        String secretKey = keys.apply(accessKeyId).map(AccessKey::secretKey).orElseThrow(() -> new S3Exception(
                S3Error.INVALID_ACCESS_KEY_ID, "The AWS access key ID you provided does not exist in our records."));
        if (!SignatureV2.matches(SignatureV2.sign(secretKey, policyField), fields.get("signature"))) {
            throw new S3Exception(S3Error.SIGNATURE_DOES_NOT_MATCH);
        }
        return accessKeyId;
    }

    /**
     * Reads the file to its end: inline if it ends within the inline threshold, otherwise into blocks. The
     * read fails with EntityTooLarge as soon as the file grows past what the policy or a single PUT admits;
     * the blocks already written are then deleted.
     */
    private StoredFile store(InputStream file, @Nullable PostPolicy policy, Optional<Sealing> sealing) {
        long maximum = policy == null
                ? MAXIMUM_FILE
                : Math.min(MAXIMUM_FILE, policy.maximumContentLength().orElse(MAXIMUM_FILE));
        MessageDigest md5 = Etags.md5();
        LengthLimitedStream bounded = new LengthLimitedStream(new DigestInputStream(file, md5), maximum,
                count -> tooLarge(count, policy));
        // A file of unknown length: the content store keeps it inline if it ends within the threshold.
        ContentWrite write = new ContentWrite(bounded, sealing);
        ObjectContent stored = Failures.io(() -> content.write(write.stream(), -1));
        return new StoredFile(stored, bounded.count(), write.etag(md5.digest()));
    }

    private S3Response respond(S3Request request, PostForm form, PostSuccess success, ObjectVersion version,
            Optional<Sealing> sealing) {
        String location = PostSuccess.objectLocation(bucketUrl(request, version.bucket(), form.context()),
                version.key());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("ETag", version.etag());
        sealing.ifPresent(how -> headers.putAll(how.responseHeaders()));
        objects.putVersionId(headers, version.bucket(), version.versionId());
        return switch (success.status()) {
            case PostSuccess.SEE_OTHER -> {
                headers.put("Location", success.redirectLocation(version.bucket(), version.key(), version.etag()));
                yield S3Response.empty(PostSuccess.SEE_OTHER, headers);
            }
            case PostSuccess.CREATED -> {
                headers.put("Location", location);
                yield S3Response.xml(PostSuccess.CREATED, headers, S3Xml.renderPostResponse(
                        new PostResponse(location, version.bucket(), version.key(), version.etag())));
            }
            default -> {
                headers.put("Location", location);
                yield S3Response.empty(success.status(), headers);
            }
        };
    }

    /**
     * The bucket's URL as the client addressed it: {@code scheme://bucket.domain/} when the Host names the
     * bucket (virtual-host style), else {@code scheme://host/bucket}.
     */
    static String bucketUrl(S3Request request, String bucket, Map<String, List<String>> context) {
        boolean secure = context.getOrDefault("aws:SecureTransport", List.of()).contains("true");
        String scheme = secure ? "https" : "http";
        String host = request.host();
        String hostname = hostname(host).toLowerCase(Locale.ROOT);
        boolean virtualHost = hostname.equals(bucket) || hostname.startsWith(bucket + ".");
        return virtualHost ? scheme + "://" + host + "/" : scheme + "://" + host + "/" + bucket;
    }

    private static String hostname(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(0, end + 1);
        }
        int colon = host.lastIndexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    /** The form fields as the request headers {@link ObjectHeaders} reads a PUT's from. */
    private static RequestHeaders asHeaders(Map<String, String> fields) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        fields.forEach((name, value) -> values.put(name, List.of(value)));
        return new RequestHeaders(values);
    }

    /** The {@code tagging} field: a {@code Tagging} document, as PutObjectTagging's body. */
    private static Map<String, String> tags(@Nullable String tagging) {
        if (tagging == null) {
            return Map.of();
        }
        Tagging document = S3Xml.parseTagging(
                new ByteArrayInputStream(tagging.getBytes(StandardCharsets.UTF_8)), TaggedResource.OBJECT);
        Map<String, String> tags = new LinkedHashMap<>();
        for (Tag tag : document.tagSet()) {
            if (tag.key().toLowerCase(Locale.ROOT).startsWith("aws:")) {
                throw new S3Exception(S3Error.INVALID_TAG, "System tags cannot be added/updated by requester");
            }
            tags.put(tag.key(), tag.value());
        }
        return tags;
    }

    private static S3Exception missingField(String name) {
        return new S3Exception(S3Error.INVALID_ARGUMENT, "Bucket POST must contain a field named '" + name
                + "'.  If it is specified, please check the order of the fields.");
    }

    private record StoredFile(ObjectContent content, long size, String etag) {}

    /**
     * The refusal of a file that passed its maximum: what the policy's {@code content-length-range}
     * answers for that size, or else the limit of a single PUT.
     */
    private static IOException tooLarge(long count, @Nullable PostPolicy policy) {
        S3Exception tooLarge = new S3Exception(S3Error.ENTITY_TOO_LARGE,
                "Your proposed upload exceeds the maximum allowed size");
        if (policy != null) {
            try {
                PostPolicyCheck.verifyContentLength(policy, count);
            } catch (S3Exception refused) {
                tooLarge = refused;
            }
        }
        return new IOException(tooLarge.getMessage(), tooLarge);
    }
}
