package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.BucketPolicy;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.cors.Cors;
import dev.hangar.s3api.lifecycle.LifecycleValidation;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.website.Website;
import dev.hangar.s3api.xml.CorsConfiguration;
import dev.hangar.s3api.xml.LifecycleConfiguration;
import dev.hangar.s3api.xml.LifecycleRule;
import dev.hangar.s3api.xml.ObjectLockConfiguration;
import dev.hangar.s3api.xml.OwnershipControls;
import dev.hangar.s3api.xml.PublicAccessBlockConfiguration;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.ServerSideEncryptionConfiguration;
import dev.hangar.s3api.xml.Tag;
import dev.hangar.s3api.xml.TaggedResource;
import dev.hangar.s3api.xml.Tagging;
import dev.hangar.s3api.xml.VersioningConfiguration;
import dev.hangar.s3api.xml.WebsiteConfiguration;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Get, Put and Delete of a bucket's configuration documents: versioning, tagging, CORS, website,
 * lifecycle, policy (and its status), ACL, Object Lock, PublicAccessBlock, ownership controls and default
 * encryption. Each Put validates its document as S3 does and stores the
 * canonical form {@link BucketConfigurations} reads back (the XML Hangar renders; the policy as the
 * JSON sent; the ACL as its canned name); each Get answers the stored document or the error S3
 * answers for none; each Delete answers 204 whether or not there was a document.
 */
final class BucketConfigurationOperations {
    private static final String POLICY_TOO_LARGE = "Policy exceeds the maximum allowed document size.";

    private final BucketConfigurations configurations;
    private final ObjectOperations objects;

    BucketConfigurationOperations(BucketConfigurations configurations, ObjectOperations objects) {
        this.configurations = configurations;
        this.objects = objects;
    }

    S3Response execute(S3Operation.BucketConfiguration operation, S3Request request, Payload payload, Caller caller) {
        String bucket = request.requireBucket();
        objects.requireBucket(bucket);
        S3Operation.Verb verb = operation.verb();
        return switch (operation.resource()) {
            case VERSIONING -> switch (verb) {
                case GET -> getVersioning(bucket);
                case PUT -> putVersioning(bucket, payload);
                case DELETE -> throw notDeletable();
            };
            case TAGGING -> switch (verb) {
                case GET -> getDocument(bucket, BucketConfigurations.TAGGING, S3Error.NO_SUCH_TAG_SET);
                case PUT -> putTagging(bucket, payload);
                case DELETE -> delete(bucket, BucketConfigurations.TAGGING);
            };
            case CORS -> switch (verb) {
                case GET -> getDocument(bucket, BucketConfigurations.CORS, S3Error.NO_SUCH_CORS_CONFIGURATION);
                case PUT -> putCors(bucket, payload);
                case DELETE -> delete(bucket, BucketConfigurations.CORS);
            };
            case WEBSITE -> switch (verb) {
                case GET -> getDocument(bucket, BucketConfigurations.WEBSITE, S3Error.NO_SUCH_WEBSITE_CONFIGURATION);
                case PUT -> putWebsite(bucket, payload);
                case DELETE -> delete(bucket, BucketConfigurations.WEBSITE);
            };
            case LIFECYCLE -> switch (verb) {
                case GET -> getDocument(bucket, BucketConfigurations.LIFECYCLE, S3Error.NO_SUCH_LIFECYCLE_CONFIGURATION);
                case PUT -> putLifecycle(bucket, payload);
                case DELETE -> delete(bucket, BucketConfigurations.LIFECYCLE);
            };
            case POLICY -> switch (verb) {
                case GET -> getPolicy(bucket);
                case PUT -> putPolicy(bucket, payload, caller);
                case DELETE -> delete(bucket, BucketConfigurations.POLICY);
            };
            case ACL -> switch (verb) {
                case GET -> S3Response.xml(200, BucketAcls.render(
                        configurations.aclsDisabled(bucket) ? BucketAcls.PRIVATE : configurations.acl(bucket)));
                case PUT -> putAcl(bucket, request, payload);
                case DELETE -> throw notDeletable();
            };
            case POLICY_STATUS -> switch (verb) {
                case GET -> getPolicyStatus(bucket);
                case PUT, DELETE -> throw notDeletable();
            };
            case OWNERSHIP_CONTROLS -> switch (verb) {
                case GET -> getDocument(bucket, BucketConfigurations.OWNERSHIP_CONTROLS,
                        S3Error.OWNERSHIP_CONTROLS_NOT_FOUND_ERROR);
                case PUT -> putOwnershipControls(bucket, payload);
                case DELETE -> delete(bucket, BucketConfigurations.OWNERSHIP_CONTROLS);
            };
            case PUBLIC_ACCESS_BLOCK -> switch (verb) {
                case GET -> getDocument(bucket, BucketConfigurations.PUBLIC_ACCESS_BLOCK,
                        S3Error.NO_SUCH_PUBLIC_ACCESS_BLOCK_CONFIGURATION);
                case PUT -> putPublicAccessBlock(bucket, payload);
                case DELETE -> delete(bucket, BucketConfigurations.PUBLIC_ACCESS_BLOCK);
            };
            case ENCRYPTION -> switch (verb) {
                case GET -> getDocument(bucket, BucketConfigurations.ENCRYPTION,
                        S3Error.SERVER_SIDE_ENCRYPTION_CONFIGURATION_NOT_FOUND_ERROR);
                case PUT -> putEncryption(bucket, payload);
                case DELETE -> delete(bucket, BucketConfigurations.ENCRYPTION);
            };
            case OBJECT_LOCK -> switch (verb) {
                case GET -> getDocument(bucket, BucketConfigurations.OBJECT_LOCK,
                        S3Error.OBJECT_LOCK_CONFIGURATION_NOT_FOUND);
                case PUT -> putObjectLock(bucket, payload);
                case DELETE -> throw notDeletable();
            };
        };
    }

    // Versioning

    private S3Response getVersioning(String bucket) {
        byte[] stored = configurations.raw(bucket, BucketConfigurations.VERSIONING)
                .orElseGet(() -> S3Xml.renderVersioningConfiguration(VersioningConfiguration.neverVersioned()));
        return S3Response.xml(200, stored);
    }

    /**
     * Sets the status and MFA delete setting the document gives, keeping the stored one of any it
     * leaves out. MFA delete cannot be enabled (Hangar has no MFA devices), and a bucket with Object
     * Lock stays versioned.
     */
    private S3Response putVersioning(String bucket, Payload payload) {
        VersioningConfiguration requested = S3Xml.parseVersioningConfiguration(xmlBody(payload));
        if (requested.mfaDelete() == VersioningConfiguration.MfaDelete.ENABLED) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED,
                    "MFA delete is not implemented by Hangar: MfaDelete can only be Disabled.");
        }
        if (requested.status() == VersioningConfiguration.Status.SUSPENDED
                && configurations.objectLock(bucket).isPresent()) {
            throw new S3Exception(S3Error.INVALID_BUCKET_STATE,
                    "An Object Lock configuration is present on this bucket, so the versioning state cannot be changed.");
        }
        VersioningConfiguration previous = configurations.raw(bucket, BucketConfigurations.VERSIONING)
                .map(document -> S3Xml.parseVersioningConfiguration(new ByteArrayInputStream(document)))
                .orElse(VersioningConfiguration.neverVersioned());
        VersioningConfiguration stored = new VersioningConfiguration(
                requested.status() != null ? requested.status() : previous.status(),
                requested.mfaDelete() != null ? requested.mfaDelete() : previous.mfaDelete());
        configurations.put(bucket, BucketConfigurations.VERSIONING, S3Xml.renderVersioningConfiguration(stored));
        return S3Response.empty(200);
    }

    // Tagging

    /** Replaces the bucket's tags; an empty tag set removes them, as S3 does. */
    private S3Response putTagging(String bucket, Payload payload) {
        Tagging tagging = S3Xml.parseTagging(xmlBody(payload), TaggedResource.BUCKET);
        for (Tag tag : tagging.tagSet()) {
            if (tag.key().toLowerCase(Locale.ROOT).startsWith("aws:")) {
                throw new S3Exception(S3Error.INVALID_TAG, "System tags cannot be added/updated by requester");
            }
        }
        if (tagging.tagSet().isEmpty()) {
            configurations.delete(bucket, BucketConfigurations.TAGGING);
        } else {
            configurations.put(bucket, BucketConfigurations.TAGGING, S3Xml.renderTagging(tagging));
        }
        return S3Response.empty(204);
    }

    // CORS and website

    private S3Response putCors(String bucket, Payload payload) {
        CorsConfiguration document = S3Xml.parseCorsConfiguration(xmlBody(payload));
        Cors.validate(ConfigurationModels.cors(document));
        configurations.put(bucket, BucketConfigurations.CORS, S3Xml.renderCorsConfiguration(document));
        return S3Response.empty(200);
    }

    private S3Response putWebsite(String bucket, Payload payload) {
        WebsiteConfiguration document = S3Xml.parseWebsiteConfiguration(xmlBody(payload));
        Website.validate(ConfigurationModels.website(document));
        configurations.put(bucket, BucketConfigurations.WEBSITE, S3Xml.renderWebsiteConfiguration(document));
        return S3Response.empty(200);
    }

    // Lifecycle

    /**
     * Stores a lifecycle configuration whose rules all have an ID: S3 makes one up for a rule sent
     * without. Transitions move objects to another storage class, and Hangar has only one.
     */
    private S3Response putLifecycle(String bucket, Payload payload) {
        byte[] body = RequestBodies.readDocument(payload, S3Xml.LIFECYCLE_CONFIGURATION_MAXIMUM_BYTES);
        LifecycleConfiguration document = S3Xml.parseLifecycleConfiguration(new ByteArrayInputStream(body));
        for (LifecycleRule rule : document.rules()) {
            if (!rule.transitions().isEmpty() || !rule.noncurrentVersionTransitions().isEmpty()) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, "Lifecycle transitions are not implemented: "
                        + "Hangar has one storage class (STANDARD), so there is no storage class to transition to.");
            }
        }
        LifecycleValidation.validate(ConfigurationModels.lifecycle(document));
        List<LifecycleRule> rules = new ArrayList<>(document.rules().size());
        for (LifecycleRule rule : document.rules()) {
            rules.add(rule.id() == null || rule.id().isEmpty() ? withGeneratedId(rule) : rule);
        }
        configurations.put(bucket, BucketConfigurations.LIFECYCLE,
                S3Xml.renderLifecycleConfiguration(new LifecycleConfiguration(rules)));
        return S3Response.empty(200);
    }

    /** The rule with an ID as S3 makes them up: a random UUID, Base64-encoded. */
    private static LifecycleRule withGeneratedId(LifecycleRule rule) {
        String id = Base64.getEncoder().encodeToString(UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII));
        return new LifecycleRule(id, rule.filter(), rule.prefix(), rule.status(), rule.transitions(), rule.expiration(),
                rule.noncurrentVersionTransitions(), rule.noncurrentVersionExpiration(),
                rule.abortIncompleteMultipartUpload());
    }

    // Policy

    private S3Response getPolicy(String bucket) {
        byte[] policy = configurations.raw(bucket, BucketConfigurations.POLICY)
                .orElseThrow(() -> new S3Exception(S3Error.NO_SUCH_BUCKET_POLICY));
        return new S3Response(200, Map.of(), new S3Response.Body.Bytes(policy, "application/json"));
    }

    /** Whether the bucket's policy is public (see {@link BucketPolicy#isPublic()}); NoSuchBucketPolicy without one. */
    private S3Response getPolicyStatus(String bucket) {
        BucketPolicy policy = configurations.policy(bucket).orElseThrow(() -> new S3Exception(S3Error.NO_SUCH_BUCKET_POLICY));
        return S3Response.xml(200, S3Xml.renderPolicyStatus(policy.isPublic()));
    }

    /**
     * Stores a policy that parses as a valid policy for this bucket, at most 20 KiB, whose principals
     * are all existing access keys; answers 204 as S3 does. The key that signed the request exists
     * whether or not the metadata store holds it (a root key from configuration is not stored there).
     */
    private S3Response putPolicy(String bucket, Payload payload, Caller caller) {
        byte[] body = Failures.io(() -> {
            InputStream in = payload.stream();
            byte[] document = in.readNBytes(BucketPolicy.MAXIMUM_BYTES);
            if (in.read() != -1) {
                throw new S3Exception(S3Error.MALFORMED_POLICY, POLICY_TOO_LARGE);
            }
            return document;
        });
        if (body.length == 0) {
            throw new S3Exception(S3Error.MISSING_REQUEST_BODY_ERROR);
        }
        BucketPolicy policy = BucketPolicy.parse(utf8(body), bucket);
        for (String principal : policy.principalIds()) {
            if (!principal.equals(caller.accessKeyId()) && !configurations.accessKeyExists(principal)) {
                throw new S3Exception(S3Error.MALFORMED_POLICY, "Invalid principal in policy");
            }
        }
        if (configurations.publicAccessBlock(bucket).refuses(policy)) {
            throw new S3Exception(S3Error.ACCESS_DENIED,
                    "Access Denied: the bucket's PublicAccessBlock blocks public policies, and this policy is public.");
        }
        configurations.put(bucket, BucketConfigurations.POLICY, body);
        return S3Response.empty(204);
    }

    private static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new S3Exception(S3Error.MALFORMED_POLICY, "Policies must be valid JSON and the first byte must be '{'");
        }
    }

    // ACL

    private S3Response putAcl(String bucket, S3Request request, Payload payload) {
        byte[] document = RequestBodies.readDocument(payload, S3Xml.CONFIGURATION_MAXIMUM_BYTES);
        AclWrites.refuseGrantHeaders(configurations, bucket, request::header);
        BucketAcl acl = BucketAcls.requested(request, document, configurations::canonicalIdExists);
        AclWrites.check(configurations, bucket, acl, request.header("x-amz-acl") == null);
        configurations.put(bucket, BucketConfigurations.ACL, BucketAcls.stored(acl));
        return S3Response.empty(200);
    }

    // PublicAccessBlock

    /** Replaces the bucket's PublicAccessBlock settings; a setting the document leaves out is false. */
    private S3Response putPublicAccessBlock(String bucket, Payload payload) {
        PublicAccessBlockConfiguration document = S3Xml.parsePublicAccessBlockConfiguration(xmlBody(payload));
        configurations.put(bucket, BucketConfigurations.PUBLIC_ACCESS_BLOCK,
                S3Xml.renderPublicAccessBlockConfiguration(document));
        return S3Response.empty(200);
    }

    // Ownership controls

    /**
     * Sets the bucket's Object Ownership. BucketOwnerEnforced disables ACLs, which S3 refuses while the
     * bucket's ACL grants others than its owner; the other two settings only say who owns new objects,
     * and Hangar has one owner, so they are stored and change nothing else.
     */
    private S3Response putOwnershipControls(String bucket, Payload payload) {
        OwnershipControls document = S3Xml.parseOwnershipControls(xmlBody(payload));
        if (document.objectOwnership() == OwnershipControls.ObjectOwnership.BUCKET_OWNER_ENFORCED) {
            AclWrites.requireOwnerOnly(configurations.acl(bucket));
        }
        configurations.put(bucket, BucketConfigurations.OWNERSHIP_CONTROLS, S3Xml.renderOwnershipControls(document));
        return S3Response.empty(200);
    }

    // Default encryption

    /**
     * Sets the bucket's default encryption: SSE-S3 or SSE-KMS. A configuration asking for anything more
     * (DSSE-KMS, S3 Bucket Keys, or refusing SSE-C writes) is NotImplemented
     * rather than stored and not applied: a client that asked for it would believe its objects got it.
     */
    private S3Response putEncryption(String bucket, Payload payload) {
        ServerSideEncryptionConfiguration document = S3Xml.parseServerSideEncryptionConfiguration(xmlBody(payload));
        switch (document.algorithm()) {
            case AES256 -> {
                // Applied by the writes, which ask BucketConfigurations#defaultEncryption.
            }
            case AWS_KMS -> {
                // Its key is looked up by the writes: one that does not exist (or is disabled) refuses them, as in AWS.
            }
            case AWS_KMS_DSSE -> throw new S3Exception(S3Error.NOT_IMPLEMENTED, "DSSE-KMS (aws:kms:dsse) is not "
                    + "implemented by Hangar: a bucket's default encryption can be SSE-S3 (AES256) or SSE-KMS (aws:kms).");
        }
        if (document.bucketKeyEnabled()) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "S3 Bucket Keys are not implemented by Hangar: "
                    + "BucketKeyEnabled can only be false.");
        }
        if (document.blockedEncryptionTypes().contains(ServerSideEncryptionConfiguration.EncryptionType.SSE_C)) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "Blocking SSE-C writes (BlockedEncryptionTypes SSE-C) "
                    + "is not implemented by Hangar: BlockedEncryptionTypes can only be NONE.");
        }
        configurations.put(bucket, BucketConfigurations.ENCRYPTION,
                S3Xml.renderServerSideEncryptionConfiguration(document));
        return S3Response.empty(200);
    }

    // Object Lock

    /**
     * Enables Object Lock, or changes the default retention of a bucket that has it. Enabling it on
     * an existing bucket takes versioning Enabled, since locked versions must be kept. There is no
     * way back: a configuration always enables it.
     */
    private S3Response putObjectLock(String bucket, Payload payload) {
        ObjectLockConfiguration document = S3Xml.parseObjectLockConfiguration(xmlBody(payload));
        if (configurations.objectLock(bucket).isEmpty() && !configurations.versioningEnabled(bucket)) {
            throw new S3Exception(S3Error.INVALID_BUCKET_STATE,
                    "Versioning must be 'Enabled' on the bucket to apply a Object Lock configuration");
        }
        configurations.put(bucket, BucketConfigurations.OBJECT_LOCK, S3Xml.renderObjectLockConfiguration(document));
        return S3Response.empty(200);
    }

    // Shared

    /** The stored document, which is the canonical XML Hangar rendered when it was put. */
    private S3Response getDocument(String bucket, String kind, S3Error none) {
        byte[] document = configurations.raw(bucket, kind).orElseThrow(() -> new S3Exception(none));
        return S3Response.xml(200, document);
    }

    private S3Response delete(String bucket, String kind) {
        configurations.delete(bucket, kind);
        return S3Response.empty(204);
    }

    /** An XML configuration body, read to its end (which verifies the payload) before it is parsed. */
    private static InputStream xmlBody(Payload payload) {
        return new ByteArrayInputStream(RequestBodies.readDocument(payload, S3Xml.CONFIGURATION_MAXIMUM_BYTES));
    }

    private static S3Exception notDeletable() {
        return new S3Exception(S3Error.METHOD_NOT_ALLOWED);
    }
}
