package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.listing.KeyItems;
import dev.hangar.metadata.listing.KeyLayout;
import dev.hangar.metadata.listing.KeyRange;
import dev.hangar.metadata.listing.ListingRules;
import dev.hangar.metadata.listing.VersionReader;
import dev.hangar.metadata.state.StoredVersion;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Listings of a bucket's objects and versions over its objects partition ({@link ObjectSlots}),
 * a quorum range page at a time ({@link RangeCursor}): S3's rules are {@link ListingRules}, the
 * single node's; what this class adds is what an object key holds here, where a key has several
 * entries and its current version is found by reading them.
 *
 * <p>A listing of current objects reads each key's head — its {@code "null"} slot and newest
 * version — and then seeks past the key's older versions; a key with many versions costs one more
 * range read, not a read of its history. A key whose current version is a delete marker holds
 * nothing to list. A listing of versions streams each key's versions ({@link VersionStream}) only as
 * far as its page goes; a page that resumes inside a key after a version id marker finds the marker
 * by its index entry. A common prefix costs one range read, whatever is under it.
 */
final class ObjectListings {
    private static final int MAX_PAGE = 1000;
    private static final KeyLayout LAYOUT = KeyLayout.keyThenSeparator(new byte[0]);

    private final EntrySource source;

    ObjectListings(EntrySource source) {
        this.source = source;
    }

    ObjectListing listObjects(String bucket, ListQuery query) {
        RangeCursor cursor = cursor(bucket, query.prefix(), query.maxKeys(), "list objects of " + bucket);
        return ListingRules.objects(query, new KeyRange(cursor, LAYOUT), new Keys(bucket, cursor, true));
    }

    VersionListing listVersions(String bucket, VersionQuery query) {
        RangeCursor cursor = cursor(bucket, query.prefix(), query.maxKeys(), "list versions of " + bucket);
        return ListingRules.versions(query, new KeyRange(cursor, LAYOUT), new Keys(bucket, cursor, false));
    }

    private RangeCursor cursor(String bucket, String prefix, int maxKeys, String what) {
        byte[] prefixBytes = ByteKeys.utf8(prefix);
        return new RangeCursor(source, MetaKeys.objects(bucket), prefixBytes, ByteKeys.pastPrefix(prefixBytes),
                Math.min(maxKeys + 1, MAX_PAGE), what);
    }

    /**
     * The object keys of a bucket and what each lists: its live versions, newest first, or with
     * {@code currentOnly} its current version unless that is a delete marker.
     */
    private final class Keys implements VersionReader {
        private final String bucket;
        private final RangeCursor cursor;
        private final boolean currentOnly;

        Keys(String bucket, RangeCursor cursor, boolean currentOnly) {
            this.bucket = bucket;
            this.cursor = cursor;
            this.currentOnly = currentOnly;
        }

        @Override
        public KeyItems<ObjectVersion> items(String key, byte[] keyBytes) {
            VersionStream stream = VersionStream.of(cursor, bucket, key, keyBytes);
            if (!currentOnly) {
                return Items.of(cursor, stream, keyBytes);
            }
            StoredVersion current = stream.next();
            return Items.one(cursor, current == null || current.version().isDeleteMarker() ? null : current.version(),
                    keyBytes);
        }

        @Override
        public KeyItems<ObjectVersion> itemsAfter(String key, byte[] keyBytes, String versionId) {
            VersionStream stream = VersionStream.of(cursor, bucket, key, keyBytes);
            return resume(stream, bucket, key, keyBytes, versionId)
                    ? Items.of(cursor, stream, keyBytes) : Items.one(cursor, null, keyBytes);
        }
    }

    /** What one key lists, from its stream or a version already read; the rest of its entries skipped with one seek. */
    private static final class Items implements KeyItems<ObjectVersion> {
        private final RangeCursor cursor;
        private final byte[] keyBytes;
        private final @Nullable VersionStream stream;
        private @Nullable ObjectVersion one;

        private Items(RangeCursor cursor, byte[] keyBytes, @Nullable VersionStream stream, @Nullable ObjectVersion one) {
            this.cursor = cursor;
            this.keyBytes = keyBytes;
            this.stream = stream;
            this.one = one;
        }

        static Items of(RangeCursor cursor, VersionStream stream, byte[] keyBytes) {
            return new Items(cursor, keyBytes, stream, null);
        }

        /** {@code version} alone; nothing if null. */
        static Items one(RangeCursor cursor, @Nullable ObjectVersion version, byte[] keyBytes) {
            return new Items(cursor, keyBytes, null, version);
        }

        @Override
        public @Nullable ObjectVersion next() {
            if (stream != null) {
                StoredVersion next = stream.next();
                return next == null ? null : next.version();
            }
            ObjectVersion next = one;
            one = null;
            return next;
        }

        @Override
        public void skipRest() {
            cursor.seek(LAYOUT.pastKey(keyBytes));
        }
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
}
