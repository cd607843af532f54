package dev.hangar.bench.consensus;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.NoSuchBucketException;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.PreconditionFailedException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Small-object S3 requests as the metadata calls that s3-api's semantic layer ({@code S3Service}, {@code AccessGuard},
 * {@code ObjectOperations}, {@code BucketOperations}) makes for them through one node's {@link MetadataStore}, for the
 * root key in a bucket that was never versioned, has no policy, ACL or Object Lock configuration, and objects stored
 * inline (no chunk), without the HTTP, signature and XML work around them:
 *
 * <table>
 *   <caption>calls per request, in order</caption>
 *   <tr><th>request</th><th>settings reads</th><th>object call</th></tr>
 *   <tr><td>PutObject</td><td>policy, acl, bucket, versioning, object-lock</td><td>{@code PutVersion}, no
 *       precondition</td></tr>
 *   <tr><td>PutObject with {@code If-None-Match: *}</td><td>the same</td><td>{@code PutVersion} with {@link
 *       Precondition.IfAbsent}</td></tr>
 *   <tr><td>GetObject, HeadObject</td><td>policy, acl, then versioning after the lookup (for
 *       {@code x-amz-version-id})</td><td>{@code getObject}</td></tr>
 *   <tr><td>ListObjectsV2</td><td>policy, acl, bucket</td><td>{@code listObjects}, one page</td></tr>
 *   <tr><td>DeleteObject</td><td>policy, acl, bucket, versioning</td><td>{@code DeleteVersion} of the {@code null}
 *       version</td></tr>
 * </table>
 *
 * <p>The root key is resolved without the store ({@code S3Configuration}); any other key adds a {@code getAccessKey}
 * read. With {@code settings} false, a request is its object call alone.
 *
 * <p>Each request counts its rounds apart for the settings reads and the object call, by binding a {@link
 * RoundTrips.Tally} of its own around each, as the S3 layer binds one around a whole request.
 */
final class SmallObjectRequests {
    // The configuration kinds s3-api's BucketConfigurations stores, which the requests above read.
    private static final String POLICY = "policy";
    private static final String ACL = "acl";
    private static final String VERSIONING = "versioning";
    private static final String OBJECT_LOCK = "object-lock";
    /** Objects at or below s3-api's default inline threshold are stored in their metadata record. */
    static final int INLINE_THRESHOLD = 3 * 1024;

    private final MetadataStore metadata;
    private final String bucket;
    private final boolean settings;

    SmallObjectRequests(MetadataStore metadata, String bucket, boolean settings) {
        this.metadata = metadata;
        this.bucket = bucket;
        this.settings = settings;
    }

    /** PutObject of an inline object; {@code precondition} as its headers ask (If-None-Match: * is IfAbsent). */
    Served<Optional<ObjectVersion>> put(String key, byte[] data, Precondition precondition) {
        if (data.length > INLINE_THRESHOLD) {
            throw new IllegalArgumentException("a small object is at most " + INLINE_THRESHOLD + " bytes, not "
                    + data.length);
        }
        return serve(() -> {
            authorize();
            metadata.getBucket(bucket);
            metadata.getBucketConfig(bucket, VERSIONING);
            metadata.getBucketConfig(bucket, OBJECT_LOCK);
        }, () -> commit(version(key, data), precondition), () -> {});
    }

    // A refused write would be timed as if it had been served: the benchmarks never expect one, so it fails them.
    private Optional<ObjectVersion> commit(ObjectVersion version, Precondition precondition) {
        try {
            return metadata.putObject(version, precondition);
        } catch (NoSuchBucketException | PreconditionFailedException e) {
            throw new IllegalStateException("PutObject of " + version.key() + " was refused", e);
        }
    }

    /** GetObject or HeadObject (the same calls; a GET then streams the inline bytes, which costs no call). */
    Served<Optional<ObjectVersion>> get(String key) {
        return serve(this::authorize, () -> metadata.getObject(bucket, key),
                () -> metadata.getBucketConfig(bucket, VERSIONING));
    }

    /** ListObjectsV2: one page of at most {@code maxKeys} keys under {@code prefix}. */
    Served<ObjectListing> list(String prefix, int maxKeys) {
        return serve(() -> {
            authorize();
            metadata.getBucket(bucket);
        }, () -> metadata.listObjects(bucket, new ListQuery(prefix, null, null, maxKeys)), () -> {});
    }

    /** DeleteObject without a version id: removes the key's {@code null} version; what it removed, if anything. */
    Served<Optional<ObjectVersion>> delete(String key) {
        return serve(() -> {
            authorize();
            metadata.getBucket(bucket);
            metadata.getBucketConfig(bucket, VERSIONING);
        }, () -> metadata.deleteObject(bucket, key), () -> {});
    }

    // AccessGuard's reads for every bucket request: the bucket policy and the bucket ACL. The root key is allowed
    // by them, so no object ACL is read.
    private void authorize() {
        metadata.getBucketConfig(bucket, POLICY);
        metadata.getBucketConfig(bucket, ACL);
    }

    private <T> Served<T> serve(Runnable settingsBefore, Supplier<T> call, Runnable settingsAfter) {
        RoundTrips.Tally settingsTally = new RoundTrips.Tally();
        RoundTrips.Tally objectTally = new RoundTrips.Tally();
        if (settings) {
            try (RoundTrips.Binding counting = RoundTrips.bind(settingsTally)) {
                settingsBefore.run();
            }
        }
        T result;
        try (RoundTrips.Binding counting = RoundTrips.bind(objectTally)) {
            result = call.get();
        }
        if (settings) {
            try (RoundTrips.Binding counting = RoundTrips.bind(settingsTally)) {
                settingsAfter.run();
            }
        }
        return new Served<>(result, settingsTally.metadata(), objectTally.metadata(),
                settingsTally.blocks() + objectTally.blocks());
    }

    // What ObjectOperations.newVersion builds for a PUT into a never-versioned bucket: the null version, an MD5
    // ETag, the bytes inline.
    private ObjectVersion version(String key, byte[] data) {
        String etag = "\"" + HexFormat.of().formatHex(md5().digest(data)) + "\"";
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, Instant.now(), data.length, etag,
                new ObjectContent.Inline(data), Map.of(), Map.of(), null, List.of());
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has MD5", e);
        }
    }
}
