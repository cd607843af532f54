package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.state.StoredVersion;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Listings of a bucket's objects and versions over its objects partition ({@link ObjectSlots}),
 * a quorum range page at a time ({@link RangeCursor}). Listing is reading: the S3 rules it follows
 * (which version is current, markers, roll-up at the delimiter) are the single-node store's, as the
 * contract test pins them.
 *
 * <p>A listing of current objects reads each key's head — its {@code "null"} slot and newest
 * version — and then seeks past the key's older versions; a key with many versions costs one more
 * range read, not a read of its history. A listing of versions streams each key's versions
 * ({@link VersionStream}) only as far as its page goes; a page that resumes inside a key after a
 * version id marker finds the marker by its index entry. A common prefix costs one range read,
 * whatever is under it.
 */
final class ObjectListings {
    private static final int MAX_PAGE = 1000;

    private final EntrySource source;

    ObjectListings(EntrySource source) {
        this.source = source;
    }

    ObjectListing listObjects(String bucket, ListQuery query) {
        List<ObjectVersion> entries = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        if (query.maxKeys() == 0) {
            return new ObjectListing(entries, commonPrefixes, false, null);
        }
        byte[] start = new byte[0];
        if (query.after() != null) {
            byte[] after = MetaKeys.utf8(query.after());
            start = Rollup.isCommonPrefix(query.after(), query.prefix(), query.delimiter())
                    ? MetaKeys.pastPrefix(after) : ObjectSlots.pastKey(after);
            if (start == null) {
                return new ObjectListing(entries, commonPrefixes, false, null);
            }
        }
        Keys keys = new Keys(bucket, query.prefix(), query.delimiter(), start, query.maxKeys(), "list objects of " + bucket);
        String last = null;
        boolean truncated = false;
        for (byte[] keyBytes = keys.next(); keyBytes != null; keyBytes = keys.next()) {
            String key = MetaKeys.string(keyBytes, 0, keyBytes.length);
            StoredVersion current = keys.versions(key, keyBytes).next();
            keys.skipKey(keyBytes);
            // A key whose current version is a delete marker is not listed, nor rolled up.
            if (current == null || current.version().isDeleteMarker()) {
                continue;
            }
            if (entries.size() + commonPrefixes.size() == query.maxKeys()) {
                truncated = true;
                break;
            }
            String common = keys.rollUp(keyBytes);
            if (common != null) {
                commonPrefixes.add(common);
                last = common;
            } else {
                entries.add(current.version());
                last = key;
            }
        }
        return new ObjectListing(entries, commonPrefixes, truncated, truncated ? last : null);
    }

    VersionListing listVersions(String bucket, VersionQuery query) {
        List<ListedVersion> versions = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        if (query.maxKeys() == 0) {
            return new VersionListing(versions, commonPrefixes, false, null, null);
        }
        String keyMarker = query.keyMarker();
        String versionIdMarker = query.versionIdMarker();
        byte[] start;
        if (keyMarker == null) {
            // S3 ignores a version id marker without a key marker.
            start = new byte[0];
            versionIdMarker = null;
        } else if (Rollup.isCommonPrefix(keyMarker, query.prefix(), query.delimiter())) {
            start = MetaKeys.pastPrefix(MetaKeys.utf8(keyMarker));
            versionIdMarker = null;
            if (start == null) {
                return new VersionListing(versions, commonPrefixes, false, null, null);
            }
        } else if (versionIdMarker == null) {
            start = ObjectSlots.pastKey(MetaKeys.utf8(keyMarker));
        } else {
            // The marker key itself is read again, to resume after its marker version.
            start = MetaKeys.utf8(keyMarker);
        }
        Keys keys = new Keys(bucket, query.prefix(), query.delimiter(), start, query.maxKeys(), "list versions of " + bucket);
        String nextKeyMarker = null;
        String nextVersionIdMarker = null;
        boolean truncated = false;
        scan:
        for (byte[] keyBytes = keys.next(); keyBytes != null; keyBytes = keys.next()) {
            String key = MetaKeys.string(keyBytes, 0, keyBytes.length);
            VersionStream stream = keys.versions(key, keyBytes);
            boolean resumed = versionIdMarker != null && key.equals(keyMarker);
            if (resumed && !resume(stream, bucket, key, keyBytes, versionIdMarker)) {
                // A marker version deleted since the previous page: resume after its key.
                keys.skipKey(keyBytes);
                continue;
            }
            StoredVersion version = stream.next();
            if (version == null) {
                keys.skipKey(keyBytes);
                continue;
            }
            String common = keys.rollUp(keyBytes);
            if (common != null) {
                if (versions.size() + commonPrefixes.size() == query.maxKeys()) {
                    truncated = true;
                    break;
                }
                commonPrefixes.add(common);
                nextKeyMarker = common;
                nextVersionIdMarker = null;
                continue;
            }
            for (boolean latest = !resumed; version != null; version = stream.next(), latest = false) {
                if (versions.size() + commonPrefixes.size() == query.maxKeys()) {
                    truncated = true;
                    break scan;
                }
                versions.add(new ListedVersion(version.version(), latest));
                nextKeyMarker = key;
                nextVersionIdMarker = version.versionId();
            }
            keys.skipKey(keyBytes);
        }
        return truncated
                ? new VersionListing(versions, commonPrefixes, true, nextKeyMarker, nextVersionIdMarker)
                : new VersionListing(versions, commonPrefixes, false, null, null);
    }

    /**
     * Moves the stream past the marker version; false if the key has no version of that id any
     * more. The marker is found by its index entry (one more read), or in the key's legacy stack.
     */
    private boolean resume(VersionStream stream, String bucket, String key, byte[] keyBytes, String versionIdMarker) {
        if (stream.legacy() != null) {
            for (StoredVersion version = stream.next(); version != null; version = stream.next()) {
                if (version.versionId().equals(versionIdMarker)) {
                    return true;
                }
            }
            return false;
        }
        StoredVersion marker;
        if (versionIdMarker.equals(ObjectVersion.NULL_VERSION)) {
            marker = stream.nullVersion();
        } else {
            Optional<Entry> index = Replies.join(source.get(MetaKeys.objects(bucket),
                    ObjectSlots.index(keyBytes, versionIdMarker)), "read version " + versionIdMarker + " of " + key);
            marker = index.map(entry -> new StoredVersion(placeholder(bucket, key, versionIdMarker),
                    VersionValue.indexOrder(entry.value()))).orElse(null);
        }
        if (marker == null) {
            return false;
        }
        stream.skipThrough(marker);
        return true;
    }

    // Only the id and order of a marker matter to skipThrough.
    private static ObjectVersion placeholder(String bucket, String key, String versionId) {
        return new ObjectVersion(bucket, key, versionId, Instant.EPOCH, 0, "\"\"", new ObjectContent.DeleteMarker(),
                Map.of(), Map.of(), null, List.of());
    }

    /**
     * The object keys of a listing in key order, from a cursor over the objects partition: each key
     * once, whose entries the caller reads ({@link #versions}) and then skips ({@link #skipKey}),
     * and the common prefix a key rolls up into, after which the walk seeks past the prefix.
     */
    private final class Keys {
        private final RangeCursor cursor;
        private final String bucket;
        private final byte[] prefix;
        private final byte @Nullable [] delimiter;
        private boolean done;

        Keys(String bucket, String prefix, @Nullable String delimiter, byte[] start, int maxItems, String what) {
            this.bucket = bucket;
            this.prefix = MetaKeys.utf8(prefix);
            this.delimiter = delimiter == null || delimiter.isEmpty() ? null : MetaKeys.utf8(delimiter);
            this.cursor = new RangeCursor(source, MetaKeys.objects(bucket), MetaKeys.max(this.prefix, start),
                    MetaKeys.pastPrefix(this.prefix), Math.min(maxItems + 1, MAX_PAGE), what);
        }

        /** The next key under the prefix, or null. */
        byte @Nullable [] next() {
            Entry entry = done ? null : cursor.peek();
            if (entry == null || !MetaKeys.startsWith(entry.sortKey(), prefix)) {
                done = true;
                return null;
            }
            return Arrays.copyOf(entry.sortKey(), ObjectSlots.keyEnd(entry.sortKey()));
        }

        VersionStream versions(String key, byte[] keyBytes) {
            return VersionStream.of(cursor, bucket, key, keyBytes);
        }

        void skipKey(byte[] keyBytes) {
            cursor.seek(ObjectSlots.pastKey(keyBytes));
        }

        /**
         * The common prefix the key rolls up into, if the delimiter follows the prefix in it; the walk
         * then continues past every key under that common prefix.
         */
        @Nullable String rollUp(byte[] keyBytes) {
            int found = delimiter == null ? -1 : MetaKeys.indexOf(keyBytes, delimiter, prefix.length, keyBytes.length);
            if (found < 0) {
                return null;
            }
            byte[] common = Arrays.copyOf(keyBytes, found + delimiter.length);
            byte[] past = MetaKeys.pastPrefix(common);
            if (past == null) {
                done = true;
            } else {
                cursor.seek(past);
            }
            return MetaKeys.string(common, 0, common.length);
        }
    }
}
