package dev.hangar.s3api.semantics;

import dev.hangar.metadata.command.VersionChange;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.access.ObjectAcl;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.xml.LegalHold;
import dev.hangar.s3api.xml.Retention;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.Tag;
import dev.hangar.s3api.xml.TaggedResource;
import dev.hangar.s3api.xml.Tagging;
import java.io.ByteArrayInputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Tagging, ACL, retention and legal hold of object versions: of the current version, or of the one
 * {@code versionId} names. Answers carry the {@code x-amz-version-id} of the version they concern.
 */
final class ObjectConfigurationOperations {
    private final MetadataStore metadata;
    private final ObjectOperations objects;
    private final BucketConfigurations configurations;

    ObjectConfigurationOperations(MetadataStore metadata, ObjectOperations objects,
            BucketConfigurations configurations) {
        this.metadata = metadata;
        this.objects = objects;
        this.configurations = configurations;
    }

    S3Response execute(S3Operation.ObjectConfiguration operation, S3Request request, Payload payload, Caller caller) {
        return switch (operation.resource()) {
            case TAGGING -> switch (operation.verb()) {
                case GET -> getTagging(request);
                case PUT -> {
                    Map<String, String> tags = tags(read(payload));
                    yield change(request, new VersionChange.SetTags(tags), 200);
                }
                case DELETE -> change(request, new VersionChange.SetTags(Map.of()), 204);
            };
            case ACL -> switch (operation.verb()) {
                case GET -> {
                    // With ACLs disabled the owner's full control is the whole truth, whatever was stored.
                    boolean aclsDisabled = configurations.aclsDisabled(request.requireBucket());
                    yield get(request, version -> S3Response.xml(200,
                            ObjectAcls.render(aclsDisabled ? null : version.acl())));
                }
                case PUT -> {
                    AclWrites.refuseGrantHeaders(configurations, request.requireBucket(), request::header);
                    ObjectAcl acl = ObjectAcls.requested(request, read(payload), configurations::canonicalIdExists);
                    AclWrites.check(configurations, request.requireBucket(), acl, request.header("x-amz-acl") == null);
                    yield change(request, new VersionChange.SetAcl(ObjectAcls.stored(acl)), 200);
                }
                case DELETE -> throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
            };
            case RETENTION -> switch (operation.verb()) {
                case GET -> getRetention(request);
                case PUT -> putRetention(request, payload);
                case DELETE -> throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
            };
            case LEGAL_HOLD -> switch (operation.verb()) {
                case GET -> getLegalHold(request);
                case PUT -> putLegalHold(request, payload);
                case DELETE -> throw new S3Exception(S3Error.METHOD_NOT_ALLOWED);
            };
        };
    }

    private S3Response getTagging(S3Request request) {
        return get(request, version -> {
            List<Tag> tags = new TreeMap<>(version.tags()).entrySet().stream()
                    .map(tag -> new Tag(tag.getKey(), tag.getValue()))
                    .toList();
            return S3Response.xml(200, S3Xml.renderTagging(new Tagging(tags)));
        });
    }

    private S3Response getRetention(S3Request request) {
        requireObjectLock(request.requireBucket());
        return get(request, version -> {
            ObjectLock lock = version.lock();
            if (lock == null || lock.retentionMode() == null || lock.retainUntil() == null) {
                throw new S3Exception(S3Error.NO_SUCH_OBJECT_LOCK_CONFIGURATION);
            }
            return S3Response.xml(200, S3Xml.renderRetention(
                    new Retention(ObjectLocks.toDocument(lock.retentionMode()), lock.retainUntil())));
        });
    }

    private S3Response putRetention(S3Request request, Payload payload) {
        requireObjectLock(request.requireBucket());
        Retention retention = S3Xml.parseRetention(new ByteArrayInputStream(read(payload)));
        boolean bypass = ObjectLocks.bypass(request);
        return change(request, ObjectLocks.retentionChange(retention, bypass, objects.now()), 200);
    }

    private S3Response getLegalHold(S3Request request) {
        requireObjectLock(request.requireBucket());
        return get(request, version -> {
            ObjectLock lock = version.lock();
            if (lock == null) {
                throw new S3Exception(S3Error.NO_SUCH_OBJECT_LOCK_CONFIGURATION);
            }
            return S3Response.xml(200,
                    S3Xml.renderLegalHold(new LegalHold(lock.legalHold() ? LegalHold.Status.ON : LegalHold.Status.OFF)));
        });
    }

    private S3Response putLegalHold(S3Request request, Payload payload) {
        requireObjectLock(request.requireBucket());
        LegalHold legalHold = S3Xml.parseLegalHold(new ByteArrayInputStream(read(payload)));
        return change(request, new VersionChange.SetLegalHold(legalHold.status() == LegalHold.Status.ON), 200);
    }

    /** Answers from the version the request names, with its {@code x-amz-version-id}. */
    private S3Response get(S3Request request, Function<ObjectVersion, S3Response> answer) {
        String bucket = request.requireBucket();
        ObjectVersion version = objects.target(bucket, request.requireKey(),
                VersionIds.parameter(request.parameter("versionId")));
        return withVersionId(answer.apply(version), bucket, version.versionId());
    }

    /**
     * Changes the version the request names, atomically: the store checks what Object Lock allows
     * when it applies the change, against the version as it is then.
     */
    private S3Response change(S3Request request, VersionChange change, int status) {
        String bucket = request.requireBucket();
        String key = request.requireKey();
        ObjectVersion version = objects.target(bucket, key, VersionIds.parameter(request.parameter("versionId")));
        ObjectVersion changed = ObjectLocks.enforced(() -> metadata.changeVersion(bucket, key, version.versionId(), change))
                .orElseThrow(() -> new S3Exception(request.parameter("versionId") == null
                        ? S3Error.NO_SUCH_KEY
                        : S3Error.NO_SUCH_VERSION));
        return withVersionId(S3Response.empty(status), bucket, changed.versionId());
    }

    private S3Response withVersionId(S3Response response, String bucket, String versionId) {
        Map<String, String> headers = new LinkedHashMap<>(response.headers());
        objects.putVersionId(headers, bucket, versionId);
        return new S3Response(response.status(), headers, response.body());
    }

    private void requireObjectLock(String bucket) {
        if (configurations.objectLock(bucket).isEmpty()) {
            objects.requireBucket(bucket);
            throw ObjectLocks.notEnabled();
        }
    }

    private static Map<String, String> tags(byte[] document) {
        Map<String, String> tags = new LinkedHashMap<>();
        for (Tag tag : S3Xml.parseTagging(new ByteArrayInputStream(document), TaggedResource.OBJECT).tagSet()) {
            tags.put(tag.key(), tag.value());
        }
        return tags;
    }

    private static byte[] read(Payload payload) {
        return RequestBodies.readDocument(payload, S3Xml.CONFIGURATION_MAXIMUM_BYTES);
    }
}
