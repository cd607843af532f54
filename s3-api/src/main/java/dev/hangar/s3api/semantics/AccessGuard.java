package dev.hangar.s3api.semantics;

import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.AccessControl;
import dev.hangar.s3api.access.ActionAndResource;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.access.BucketPolicy;
import dev.hangar.s3api.access.Decision;
import dev.hangar.s3api.access.KeyPermission;
import dev.hangar.s3api.access.ObjectAcl;
import dev.hangar.s3api.access.PublicAccessBlock;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Decides, on every request, whether the caller may do what it asks: the bucket policy, the key's
 * per-bucket permissions, the bucket's ACL and the object's (each canned or a grant list), combined as {@link
 * AccessControl} states, after the bucket's PublicAccessBlock has set aside the public ACLs it
 * ignores and restricted a public policy, and without ACLs at all when the bucket's Object
 * Ownership disables them. Anonymous requests pass exactly where a policy or an ACL lets them; one refused
 * on a bucket that does not exist is told NoSuchBucket, as S3 tells it.
 */
final class AccessGuard {
    private final MetadataStore metadata;
    private final BucketConfigurations configurations;
    private final Clock clock;

    AccessGuard(MetadataStore metadata, BucketConfigurations configurations, Clock clock) {
        this.metadata = metadata;
        this.configurations = configurations;
        this.clock = clock;
    }

    /**
     * Checks the operation as routed. DeleteObjects is checked key by key by its operation, a
     * browser upload by the key that signed its policy, and a CORS preflight needs no permission.
     */
    void authorize(S3Operation operation, S3Request request, Caller caller) {
        switch (operation) {
            case S3Operation.PreflightRequest ignored -> {
                return;
            }
            case S3Operation.PostObject ignored -> {
                return;
            }
            case S3Operation.DeleteObjects ignored -> {
                return;
            }
            default -> {
                String key = request.key();
                String versionId = request.parameter("versionId");
                check(caller, request, operation.name(), request.bucket(), key, versionId,
                        () -> key == null ? Optional.empty() : objectAcl(request.requireBucket(), key, versionId));
            }
        }
        if (operation instanceof S3Operation.CopyObject || operation instanceof S3Operation.UploadPartCopy) {
            CopySource source = CopySource.parse(request.header("x-amz-copy-source"));
            check(caller, request, "GetObject", source.bucket(), source.key(), source.versionId(),
                    () -> objectAcl(source.bucket(), source.key(), source.versionId()));
        }
    }

    /** Checks one object operation on behalf of a multi-object request (a key of DeleteObjects). */
    void authorizeObject(Caller caller, S3Request request, String operation, String bucket, String key,
            @Nullable String versionId) {
        check(caller, request, operation, bucket, key, versionId, () -> Optional.empty());
    }

    private void check(Caller caller, S3Request request, String operation, @Nullable String bucket,
            @Nullable String key, @Nullable String versionId, java.util.function.Supplier<Optional<ObjectAcl>> objectAcl) {
        ActionAndResource target = ActionAndResource.of(operation, bucket, key, versionId);
        KeyPermission permission = permission(caller, bucket, operation);
        PublicAccessBlock block = bucket == null ? PublicAccessBlock.NONE : configurations.publicAccessBlock(bucket);
        BucketPolicy policy = block.effective(bucket == null ? null : configurations.policy(bucket).orElse(null));
        // With ACLs disabled (BucketOwnerEnforced) the stored ACLs grant nothing: the bucket's reads as private.
        boolean aclsApply = bucket != null && !configurations.aclsDisabled(bucket);
        BucketAcl bucketAcl = aclsApply ? block.effective(configurations.acl(bucket)) : BucketAcls.PRIVATE;
        Map<String, List<String>> context = context(caller, request);
        Decision decision = AccessControl.decide(caller.accessKeyId(), caller.isRoot(), permission, policy, bucketAcl,
                null, target, context);
        if (!decision.allowed() && key != null && !caller.isRoot() && aclsApply) {
            Optional<ObjectAcl> acl = objectAcl.get().map(block::effective);
            if (acl.isPresent()) {
                decision = AccessControl.decide(caller.accessKeyId(), false, permission, policy, bucketAcl, acl.get(),
                        target, context);
            }
        }
        if (!decision.allowed()) {
            if (caller.isAnonymous() && bucket != null && !operation.equals("CreateBucket")
                    && metadata.getBucket(bucket).isEmpty()) {
                // As S3 answers anonymous requests: a bucket that does not exist is NoSuchBucket, not AccessDenied
                // (bucket names are public, so nothing is disclosed). Existing buckets keep their AccessDenied.
                throw new S3Exception(S3Error.NO_SUCH_BUCKET);
            }
            throw new S3Exception(S3Error.ACCESS_DENIED, "Access Denied: " + decision.reason() + ".");
        }
    }

    /**
     * A key granted bucket creation may create buckets (it becomes their owner); on existing buckets a key has
     * what it was granted.
     */
    private static KeyPermission permission(Caller caller, @Nullable String bucket, String operation) {
        if (caller.key() == null) {
            return KeyPermission.NONE;
        }
        if (operation.equals("CreateBucket")) {
            return caller.key().mayCreateBuckets() ? KeyPermission.ALL : KeyPermission.NONE;
        }
        BucketPermission granted = bucket == null ? null : caller.key().buckets().get(bucket);
        return granted == null ? KeyPermission.NONE : new KeyPermission(granted.read(), granted.write(), granted.owner());
    }

    /** The version's ACL; none when it has the default (private), which grants nothing. */
    private Optional<ObjectAcl> objectAcl(String bucket, String key, @Nullable String versionId) {
        Optional<ObjectVersion> version = versionId == null
                ? metadata.getObject(bucket, key)
                : metadata.getVersion(bucket, key, versionId);
        return version.map(ObjectVersion::acl).map(ObjectAcls::read);
    }

    private Map<String, List<String>> context(Caller caller, S3Request request) {
        Map<String, List<String>> context = new HashMap<>(caller.context());
        context.put("aws:CurrentTime", List.of(clock.instant().toString()));
        context.put("aws:EpochTime", List.of(Long.toString(clock.instant().getEpochSecond())));
        putParameter(context, request, "s3:prefix", "prefix");
        putParameter(context, request, "s3:delimiter", "delimiter");
        putParameter(context, request, "s3:max-keys", "max-keys");
        putHeader(context, request, "s3:x-amz-acl", "x-amz-acl");
        GrantHeaders.HEADERS.keySet().forEach(header -> putHeader(context, request, "s3:" + header, header));
        putHeader(context, request, "s3:x-amz-copy-source", "x-amz-copy-source");
        putHeader(context, request, "s3:x-amz-metadata-directive", "x-amz-metadata-directive");
        putHeader(context, request, "s3:x-amz-content-sha256", "x-amz-content-sha256");
        putHeader(context, request, "aws:Referer", "referer");
        putHeader(context, request, "aws:UserAgent", "user-agent");
        putParameter(context, request, "s3:VersionId", "versionId");
        return context;
    }

    private static void putParameter(Map<String, List<String>> context, S3Request request, String name, String parameter) {
        String value = request.parameter(parameter);
        if (value != null) {
            context.put(name, List.of(value));
        }
    }

    private static void putHeader(Map<String, List<String>> context, S3Request request, String name, String header) {
        String value = request.header(header);
        if (value != null) {
            context.put(name, List.of(value));
        }
    }
}
