package dev.hangar.metadata.listing;

import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * S3's listing rules, in one place, over any store's records ({@link KeySource}, {@link
 * OrderedCursor}): which keys a page holds (under the prefix, after the markers), how keys roll up
 * into common prefixes at the delimiter, where a page stops (max-keys, entries and common prefixes
 * together; truncated only if something follows) and which markers resume after it. What a key
 * holds, and how its records are laid out, is the store's; the single node and the leaderless
 * cluster call the same rules, so they list alike by construction.
 *
 * <p>Markers: a marker that names a common prefix of this listing resumes past everything under
 * it; any other key marker resumes after the key itself. A version id marker (an upload id
 * marker) resumes inside its key, after that version (upload), and is ignored without a key
 * marker; a version id marker whose version is gone resumes after the key.
 */
public final class ListingRules {
    private ListingRules() {}

    /**
     * A page of current objects: each key with a current object once, or the common prefix it rolls
     * up into; {@code nextMarker} names the last of them when truncated.
     */
    public static ObjectListing objects(ListQuery query, KeySource<ObjectVersion> source) {
        List<ObjectVersion> entries = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        byte[] start = query.maxKeys() == 0 ? null : startAfterKey(source.layout(), query.prefix(), query.delimiter(),
                query.after());
        if (start == null) {
            return new ObjectListing(entries, commonPrefixes, false, null);
        }
        KeyWalk walk = new KeyWalk(source.cursor(), source.layout(), query.prefix(), query.delimiter(), start);
        String last = null;
        boolean truncated = false;
        for (byte[] keyBytes = walk.nextKey(); keyBytes != null; keyBytes = walk.nextKey()) {
            String key = ByteKeys.string(keyBytes, 0, keyBytes.length);
            KeyItems<ObjectVersion> items = source.items(key, keyBytes);
            ObjectVersion current = items.next();
            if (current == null) {
                items.skipRest();
                continue;
            }
            if (entries.size() + commonPrefixes.size() == query.maxKeys()) {
                truncated = true;
                break;
            }
            String common = walk.rollUp(keyBytes);
            if (common != null) {
                commonPrefixes.add(common);
                last = common;
            } else {
                entries.add(current);
                last = key;
                items.skipRest();
            }
        }
        return new ObjectListing(entries, commonPrefixes, truncated, truncated ? last : null);
    }

    /**
     * A page of versions: by key, then as the store orders a key's versions (newest first), the
     * first of each key {@code latest} unless the page resumed inside it; a key rolls up whole.
     * When truncated, the next markers name the last version, or the last common prefix and no id.
     */
    public static VersionListing versions(VersionQuery query, VersionSource source) {
        List<ListedVersion> versions = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        KeyLayout layout = source.layout();
        String keyMarker = query.keyMarker();
        // S3 ignores a version id marker without a key marker, and a common prefix has no versions.
        String versionIdMarker = keyMarker == null || isCommonPrefix(keyMarker, query.prefix(), query.delimiter())
                ? null : query.versionIdMarker();
        byte[] start = query.maxKeys() == 0 ? null
                : versionIdMarker != null ? layout.at(ByteKeys.utf8(keyMarker))
                : startAfterKey(layout, query.prefix(), query.delimiter(), keyMarker);
        if (start == null) {
            return new VersionListing(versions, commonPrefixes, false, null, null);
        }
        KeyWalk walk = new KeyWalk(source.cursor(), layout, query.prefix(), query.delimiter(), start);
        String nextKeyMarker = null;
        String nextVersionIdMarker = null;
        boolean truncated = false;
        keys:
        for (byte[] keyBytes = walk.nextKey(); keyBytes != null; keyBytes = walk.nextKey()) {
            String key = ByteKeys.string(keyBytes, 0, keyBytes.length);
            boolean resumed = versionIdMarker != null && key.equals(keyMarker);
            KeyItems<ObjectVersion> items = resumed
                    ? source.itemsAfter(key, keyBytes, versionIdMarker)
                    : source.items(key, keyBytes);
            ObjectVersion version = items.next();
            if (version == null) {
                items.skipRest();
                continue;
            }
            if (versions.size() + commonPrefixes.size() == query.maxKeys()) {
                truncated = true;
                break;
            }
            String common = walk.rollUp(keyBytes);
            if (common != null) {
                commonPrefixes.add(common);
                nextKeyMarker = common;
                nextVersionIdMarker = null;
                continue;
            }
            for (boolean latest = !resumed; version != null; version = items.next(), latest = false) {
                if (versions.size() + commonPrefixes.size() == query.maxKeys()) {
                    truncated = true;
                    break keys;
                }
                versions.add(new ListedVersion(version, latest));
                nextKeyMarker = key;
                nextVersionIdMarker = version.versionId();
            }
            items.skipRest();
        }
        return truncated
                ? new VersionListing(versions, commonPrefixes, true, nextKeyMarker, nextVersionIdMarker)
                : new VersionListing(versions, commonPrefixes, false, null, null);
    }

    /**
     * A page of multipart uploads: by key, then by upload id (the order their records sort in:
     * {@code key 0 uploadId} in both stores); keys roll up at the delimiter like objects.
     */
    public static UploadListing uploads(String prefix, @Nullable String delimiter, @Nullable String keyMarker,
            @Nullable String uploadIdMarker, int maxUploads, KeySource<MultipartUpload> source) {
        String listedPrefix = prefix == null ? "" : prefix;
        String listedDelimiter = delimiter == null || delimiter.isEmpty() ? null : delimiter;
        List<MultipartUpload> uploads = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        KeyLayout layout = source.layout();
        byte[] start;
        if (maxUploads <= 0) {
            start = null;
        } else if (keyMarker != null && uploadIdMarker != null
                && !isCommonPrefix(keyMarker, listedPrefix, listedDelimiter)) {
            // Markers come from clients: spelled out here rather than validated like stored names.
            start = ByteKeys.justAfter(layout.at(ByteKeys.concat(
                    ByteKeys.utf8(keyMarker), new byte[] {0}, ByteKeys.utf8(uploadIdMarker))));
        } else {
            // S3 ignores an upload id marker without a key marker.
            start = startAfterKey(layout, listedPrefix, listedDelimiter, keyMarker);
        }
        if (start == null) {
            return new UploadListing(uploads, commonPrefixes, false, null, null);
        }
        KeyWalk walk = new KeyWalk(source.cursor(), layout, listedPrefix, listedDelimiter, start);
        String nextKeyMarker = null;
        String nextUploadIdMarker = null;
        boolean truncated = false;
        keys:
        for (byte[] keyBytes = walk.nextKey(); keyBytes != null; keyBytes = walk.nextKey()) {
            String key = ByteKeys.string(keyBytes, 0, keyBytes.length);
            KeyItems<MultipartUpload> items = source.items(key, keyBytes);
            MultipartUpload upload = items.next();
            if (upload == null) {
                items.skipRest();
                continue;
            }
            if (uploads.size() + commonPrefixes.size() == maxUploads) {
                truncated = true;
                break;
            }
            String common = walk.rollUp(keyBytes);
            if (common != null) {
                commonPrefixes.add(common);
                nextKeyMarker = common;
                nextUploadIdMarker = null;
                continue;
            }
            for (; upload != null; upload = items.next()) {
                if (uploads.size() + commonPrefixes.size() == maxUploads) {
                    truncated = true;
                    break keys;
                }
                uploads.add(upload);
                nextKeyMarker = key;
                nextUploadIdMarker = upload.uploadId();
            }
            items.skipRest();
        }
        return truncated
                ? new UploadListing(uploads, commonPrefixes, true, nextKeyMarker, nextUploadIdMarker)
                : new UploadListing(uploads, commonPrefixes, false, null, null);
    }

    /** Makes the part of one record, whose key ends with the part number. */
    @FunctionalInterface
    public interface PartDecoder {
        Part decode(int partNumber, byte[] value);
    }

    /**
     * A page of an upload's parts: numbers above {@code afterPartNumber}, at most {@code maxParts},
     * truncated only if another part follows, which {@code nextPartNumberMarker} then resumes
     * before. Part records are {@code scope partNumber}, the number as {@link ByteKeys#int32}.
     */
    public static PartListing parts(int afterPartNumber, int maxParts, OrderedCursor cursor, byte[] scope,
            PartDecoder decoder) {
        List<Part> parts = new ArrayList<>();
        long first = (long) Math.max(afterPartNumber, 0) + 1;
        if (maxParts <= 0 || first > Integer.MAX_VALUE) {
            return new PartListing(parts, false, 0);
        }
        boolean truncated = false;
        cursor.seek(ByteKeys.concat(scope, ByteKeys.int32((int) first)));
        for (byte[] key = cursor.key(); key != null; cursor.next(), key = cursor.key()) {
            if (parts.size() == maxParts) {
                truncated = true;
                break;
            }
            parts.add(decoder.decode(ByteKeys.int32At(key), cursor.value()));
        }
        return new PartListing(parts, truncated, truncated ? parts.getLast().partNumber() : 0);
    }

    /**
     * Whether a marker names a common prefix that this listing returns: it starts with the prefix
     * and its first delimiter after the prefix ends it. Everything under such a marker was rolled up
     * into it, so resuming after it skips all of it.
     */
    static boolean isCommonPrefix(String marker, String prefix, @Nullable String delimiter) {
        return delimiter != null
                && marker.startsWith(prefix)
                && marker.endsWith(delimiter)
                && marker.indexOf(delimiter, prefix.length()) == marker.length() - delimiter.length();
    }

    /**
     * The first record a listing may return after a key marker, exclusive: past everything under it
     * when it is a common prefix, else past the key's own records; the prefix's first record without
     * a marker. Null if nothing can follow.
     */
    private static byte @Nullable [] startAfterKey(KeyLayout layout, String prefix, @Nullable String delimiter,
            @Nullable String marker) {
        if (marker == null) {
            return layout.at(ByteKeys.utf8(prefix));
        }
        byte[] markerBytes = ByteKeys.utf8(marker);
        return isCommonPrefix(marker, prefix, delimiter)
                ? ByteKeys.pastPrefix(layout.at(markerBytes))
                : layout.pastKey(markerBytes);
    }
}
