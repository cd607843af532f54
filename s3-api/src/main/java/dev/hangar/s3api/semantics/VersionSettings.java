package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectLock;
import dev.hangar.s3api.access.ObjectAcl;
import dev.hangar.s3api.xml.S3Xml;
import dev.hangar.s3api.xml.Tag;
import dev.hangar.s3api.xml.TaggedResource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The sub-resources a write gives the version it creates, from its headers: the tags of {@code
 * x-amz-tagging}, the ACL of {@code x-amz-acl} or {@code x-amz-grant-*} and the object lock of {@code
 * x-amz-object-lock-*}. A multipart upload keeps the headers themselves among its stored headers
 * from creation to completion ({@link #uploadHeaders}, {@link #fromUpload}).
 *
 * @param lock the lock the headers ask for, before the bucket's default retention applies
 */
record VersionSettings(Map<String, String> tags, @Nullable ObjectAcl acl, @Nullable ObjectLock lock) {
    static final String TAGGING_HEADER = "x-amz-tagging";

    /** The headers a multipart upload stores for its completion; never headers of the object. */
    private static final List<String> HEADERS = headers();

    VersionSettings {
        tags = Map.copyOf(tags);
    }

    private static List<String> headers() {
        List<String> names = new ArrayList<>(List.of(TAGGING_HEADER, GrantHeaders.ACL_HEADER));
        names.addAll(GrantHeaders.HEADERS.keySet());
        names.addAll(List.of(ObjectLocks.MODE_HEADER, ObjectLocks.RETAIN_UNTIL_HEADER, ObjectLocks.LEGAL_HOLD_HEADER));
        return List.copyOf(names);
    }

    /**
     * Reads and checks a write's headers.
     *
     * @param lockEnabled whether the bucket has Object Lock; lock headers are InvalidRequest otherwise
     * @param knownId whether a canonical id of a grant names an access key other than the owner's
     */
    static VersionSettings fromHeaders(Function<String, @Nullable String> headers, boolean lockEnabled, Instant now,
            Predicate<String> knownId) {
        ObjectAcl acl = ObjectAcls.forWrite(headers, knownId);
        Map<String, String> tags = tags(headers.apply(TAGGING_HEADER));
        if (ObjectLocks.requested(headers) && !lockEnabled) {
            throw ObjectLocks.notEnabled();
        }
        ObjectLock lock = ObjectLocks.fromHeaders(headers, now);
        return new VersionSettings(tags, acl, lock);
    }

    /** The tags of an {@code x-amz-tagging} header (none if null), held to S3's limits. */
    static Map<String, String> tags(@Nullable String header) {
        if (header == null) {
            return Map.of();
        }
        Map<String, String> tags = new LinkedHashMap<>();
        for (Tag tag : S3Xml.parseTaggingHeader(header, TaggedResource.OBJECT).tagSet()) {
            tags.put(tag.key(), tag.value());
        }
        return tags;
    }

    /** The setting headers of a CreateMultipartUpload request (checked already), to store with the upload. */
    static Map<String, String> uploadHeaders(Function<String, @Nullable String> headers) {
        Map<String, String> stored = new HashMap<>();
        for (String name : HEADERS) {
            String value = headers.apply(name);
            if (value != null) {
                stored.put(name, value);
            }
        }
        return stored;
    }

    /**
     * The settings a multipart upload stored at its creation. The ids of its grants were checked then;
     * a key deleted since keeps its grant, as it would on an object written then.
     */
    static VersionSettings fromUpload(Map<String, String> uploadHeaders) {
        return new VersionSettings(tags(uploadHeaders.get(TAGGING_HEADER)), ObjectAcls.forWrite(uploadHeaders::get, id -> true),
                ObjectLocks.fromHeaders(uploadHeaders::get, null));
    }

    /** The ACL as the version's record keeps it, null when the write asked for none (private). */
    @Nullable String storedAcl() {
        return acl == null ? null : ObjectAcls.stored(acl);
    }

    /** A multipart upload's stored headers without its settings: the headers of the object. */
    static Map<String, String> objectHeaders(Map<String, String> uploadHeaders) {
        Map<String, String> headers = new HashMap<>(uploadHeaders);
        HEADERS.forEach(headers::remove);
        return headers;
    }
}
