package dev.hangar.s3api.semantics;

import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.BucketPolicy;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.access.PublicAccessBlock;
import dev.hangar.s3api.cors.CorsConfiguration;
import dev.hangar.s3api.lifecycle.LifecycleRule;
import dev.hangar.s3api.website.WebsiteConfiguration;
import dev.hangar.s3api.xml.ObjectLockConfiguration;
import dev.hangar.s3api.xml.OwnershipControls;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.Tagging;
import dev.hangar.s3api.xml.VersioningConfiguration;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The configuration documents of buckets, stored as the canonical XML Hangar renders (the policy as
 * the JSON the client sent, the ACL as its canned name or its grant list) and read back as the models that act on
 * them. Documents are re-read on every use, so every node sees a change at once; only the parsed
 * policy is cached, keyed by its bytes.
 */
final class BucketConfigurations {
    static final String VERSIONING = "versioning";
    static final String TAGGING = "tagging";
    static final String CORS = "cors";
    static final String WEBSITE = "website";
    static final String LIFECYCLE = "lifecycle";
    static final String POLICY = "policy";
    static final String ACL = "acl";
    static final String OBJECT_LOCK = "object-lock";
    static final String PUBLIC_ACCESS_BLOCK = "public-access-block";
    static final String OWNERSHIP_CONTROLS = "ownership-controls";
    static final String ENCRYPTION = "encryption";

    private final MetadataStore metadata;
    private final Map<String, CachedPolicy> policies = new ConcurrentHashMap<>();

    BucketConfigurations(MetadataStore metadata) {
        this.metadata = metadata;
    }

    private record CachedPolicy(byte[] document, BucketPolicy policy) {}

    public Optional<VersioningConfiguration.Status> versioning(String bucket) {
        return metadata.getBucketConfig(bucket, VERSIONING)
                .map(document -> S3Xml.parseVersioningConfiguration(new ByteArrayInputStream(document)).status());
    }

    /** Whether new versions get fresh ids (Enabled) rather than the {@code null} id. */
    public boolean versioningEnabled(String bucket) {
        return versioning(bucket).filter(status -> status == VersioningConfiguration.Status.ENABLED).isPresent();
    }

    public Optional<CorsConfiguration> cors(String bucket) {
        return metadata.getBucketConfig(bucket, CORS)
                .map(document -> ConfigurationModels.cors(S3Xml.parseCorsConfiguration(new ByteArrayInputStream(document))));
    }

    public Optional<WebsiteConfiguration> website(String bucket) {
        return metadata.getBucketConfig(bucket, WEBSITE)
                .map(document -> ConfigurationModels.website(
                        S3Xml.parseWebsiteConfiguration(new ByteArrayInputStream(document))));
    }

    public List<LifecycleRule> lifecycle(String bucket) {
        return metadata.getBucketConfig(bucket, LIFECYCLE)
                .map(document -> ConfigurationModels.lifecycle(
                        S3Xml.parseLifecycleConfiguration(new ByteArrayInputStream(document))))
                .orElse(List.of());
    }

    public Optional<BucketPolicy> policy(String bucket) {
        Optional<byte[]> stored = metadata.getBucketConfig(bucket, POLICY);
        if (stored.isEmpty()) {
            policies.remove(bucket);
            return Optional.empty();
        }
        CachedPolicy cached = policies.get(bucket);
        if (cached != null && Arrays.equals(cached.document(), stored.get())) {
            return Optional.of(cached.policy());
        }
        BucketPolicy policy = BucketPolicy.parse(new String(stored.get(), StandardCharsets.UTF_8), bucket);
        policies.put(bucket, new CachedPolicy(stored.get(), policy));
        return Optional.of(policy);
    }

    /** The bucket's ACL, a canned ACL or a grant list (see {@link BucketAcls#read}); {@code private} unless one was set. */
    public BucketAcl acl(String bucket) {
        return metadata.getBucketConfig(bucket, ACL).map(BucketAcls::read).orElse(BucketAcls.PRIVATE);
    }

    /**
     * Whether a canonical id names an access key other than the owner's: Hangar's canonical id of a key is
     * its access key id.
     */
    public boolean canonicalIdExists(String id) {
        return accessKeyExists(id);
    }

    /** The bucket's PublicAccessBlock settings; nothing blocked unless a configuration was put. */
    public PublicAccessBlock publicAccessBlock(String bucket) {
        return metadata.getBucketConfig(bucket, PUBLIC_ACCESS_BLOCK)
                .map(document -> S3Xml.parsePublicAccessBlockConfiguration(new ByteArrayInputStream(document)))
                .map(document -> new PublicAccessBlock(document.blockPublicAcls(), document.ignorePublicAcls(),
                        document.blockPublicPolicy(), document.restrictPublicBuckets()))
                .orElse(PublicAccessBlock.NONE);
    }

    /** The bucket's Object Ownership setting, if one was put. */
    public Optional<OwnershipControls.ObjectOwnership> objectOwnership(String bucket) {
        return metadata.getBucketConfig(bucket, OWNERSHIP_CONTROLS)
                .map(document -> S3Xml.parseOwnershipControls(new ByteArrayInputStream(document)).objectOwnership());
    }

    /**
     * Whether the bucket's ACLs are disabled (Object Ownership BucketOwnerEnforced): they grant nothing,
     * read as the owner's full control, and cannot be set.
     */
    public boolean aclsDisabled(String bucket) {
        return objectOwnership(bucket).filter(ownership -> ownership == OwnershipControls.ObjectOwnership.BUCKET_OWNER_ENFORCED)
                .isPresent();
    }

    /**
     * The server-side encryption a write to the bucket gets when it asks for none: the {@code
     * SSEAlgorithm} of the bucket's default encryption configuration as the {@code
     * x-amz-server-side-encryption} header spells it ({@code AES256} or {@code aws:kms}, with its KMS key), or
     * empty when the bucket has no configuration and such writes stay unencrypted.
     */
    Optional<DefaultEncryption> defaultEncryption(String bucket) {
        return metadata.getBucketConfig(bucket, ENCRYPTION)
                .map(document -> S3Xml.parseServerSideEncryptionConfiguration(new ByteArrayInputStream(document)))
                .map(rule -> new DefaultEncryption(rule.algorithm().wireName(), rule.kmsMasterKeyId()));
    }

    /** Present when Object Lock is enabled on the bucket; its default retention may be absent. */
    public Optional<ObjectLockConfiguration> objectLock(String bucket) {
        return metadata.getBucketConfig(bucket, OBJECT_LOCK)
                .map(document -> S3Xml.parseObjectLockConfiguration(new ByteArrayInputStream(document)));
    }

    public Optional<Tagging> tagging(String bucket) {
        return metadata.getBucketConfig(bucket, TAGGING)
                .map(document -> S3Xml.parseTagging(new ByteArrayInputStream(document),
                        dev.hangar.s3api.xml.TaggedResource.BUCKET));
    }

    /**
     * Whether an access key of this id exists: PutBucketPolicy refuses a policy whose principals
     * name a key that does not, as AWS refuses an unknown principal.
     */
    public boolean accessKeyExists(String accessKeyId) {
        return metadata.getAccessKey(accessKeyId).isPresent();
    }

    public Optional<byte[]> raw(String bucket, String kind) {
        return metadata.getBucketConfig(bucket, kind);
    }

    public void put(String bucket, String kind, byte[] document) {
        try {
            metadata.putBucketConfig(bucket, kind, document);
        } catch (NoSuchBucketException e) {
            throw new S3Exception(S3Error.NO_SUCH_BUCKET);
        }
    }

    public boolean delete(String bucket, String kind) {
        return metadata.deleteBucketConfig(bucket, kind);
    }
}
