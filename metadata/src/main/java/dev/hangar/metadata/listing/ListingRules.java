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
 * S3's listing rules, in one place, over any store's records ({@link KeyRange}, {@link
 * KeyReader}): which keys a page holds (under the prefix, after the markers), how keys roll up
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
    public static ObjectListing objects(ListQuery query, KeyRange range, KeyReader<ObjectVersion> currentObjects) {
        List<ObjectVersion> entries = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        byte[] start = query.maxKeys() == 0 ? null
                : startAfterKey(range.layout(), query.prefix(), query.delimiter(), query.after());
        if (start == null) {
            return new ObjectListing(entries, commonPrefixes, false, null);
        }
        NextMarkers next = new NextMarkers();
        boolean truncated = new KeyWalk(range, query.prefix(), query.delimiter(), start).list(currentObjects,
                query.maxKeys(), (key, current, first) -> {
                    entries.add(current);
                    next.after(key, null);
                }, common -> {
                    commonPrefixes.add(common);
                    next.after(common, null);
                });
        return new ObjectListing(entries, commonPrefixes, truncated, truncated ? next.key : null);
    }

    /**
     * A page of versions: by key, then as the store orders a key's versions (newest first), the
     * first of each key {@code latest} unless the page resumed inside it; a key rolls up whole.
     * When truncated, the next markers name the last version, or the last common prefix and no id.
     */
    public static VersionListing versions(VersionQuery query, KeyRange range, VersionReader versions) {
        List<ListedVersion> listed = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        String keyMarker = query.keyMarker();
        // S3 ignores a version id marker without a key marker, and a common prefix has no versions.
        String versionIdMarker = keyMarker == null || isCommonPrefix(keyMarker, query.prefix(), query.delimiter())
                ? null : query.versionIdMarker();
        byte[] start = query.maxKeys() == 0 ? null
                : versionIdMarker != null ? range.layout().at(ByteKeys.utf8(keyMarker))
                : startAfterKey(range.layout(), query.prefix(), query.delimiter(), keyMarker);
        if (start == null) {
            return new VersionListing(listed, commonPrefixes, false, null, null);
        }
        NextMarkers next = new NextMarkers();
        boolean truncated = new KeyWalk(range, query.prefix(), query.delimiter(), start).list(
                (key, keyBytes) -> resumes(key, keyMarker, versionIdMarker)
                        ? versions.itemsAfter(key, keyBytes, versionIdMarker)
                        : versions.items(key, keyBytes),
                query.maxKeys(),
                (key, version, first) -> {
                    listed.add(new ListedVersion(version, first && !resumes(key, keyMarker, versionIdMarker)));
                    next.after(key, version.versionId());
                }, common -> {
                    commonPrefixes.add(common);
                    next.after(common, null);
                });
        return truncated
                ? new VersionListing(listed, commonPrefixes, true, next.key, next.id)
                : new VersionListing(listed, commonPrefixes, false, null, null);
    }

    /**
     * A page of multipart uploads: by key, then by upload id (the order their records sort in:
     * {@code key 0 uploadId} in both stores); keys roll up at the delimiter like objects.
     */
    public static UploadListing uploads(String prefix, @Nullable String delimiter, @Nullable String keyMarker,
            @Nullable String uploadIdMarker, int maxUploads, KeyRange range, KeyReader<MultipartUpload> uploads) {
        String listedPrefix = prefix == null ? "" : prefix;
        String listedDelimiter = delimiter == null || delimiter.isEmpty() ? null : delimiter;
        List<MultipartUpload> listed = new ArrayList<>();
        List<String> commonPrefixes = new ArrayList<>();
        byte[] start;
        if (maxUploads <= 0) {
            start = null;
        } else if (keyMarker != null && uploadIdMarker != null
                && !isCommonPrefix(keyMarker, listedPrefix, listedDelimiter)) {
            // Markers come from clients: spelled out here rather than validated like stored names.
            start = ByteKeys.justAfter(range.layout().at(ByteKeys.concat(
                    ByteKeys.utf8(keyMarker), new byte[] {0}, ByteKeys.utf8(uploadIdMarker))));
        } else {
            // S3 ignores an upload id marker without a key marker.
            start = startAfterKey(range.layout(), listedPrefix, listedDelimiter, keyMarker);
        }
        if (start == null) {
            return new UploadListing(listed, commonPrefixes, false, null, null);
        }
        NextMarkers next = new NextMarkers();
        boolean truncated = new KeyWalk(range, listedPrefix, listedDelimiter, start).list(uploads, maxUploads,
                (key, upload, first) -> {
                    listed.add(upload);
                    next.after(key, upload.uploadId());
                }, common -> {
                    commonPrefixes.add(common);
                    next.after(common, null);
                });
        return truncated
                ? new UploadListing(listed, commonPrefixes, true, next.key, next.id)
                : new UploadListing(listed, commonPrefixes, false, null, null);
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

    /** What the last item of a page names, for the markers of the next page. */
    private static final class NextMarkers {
        private @Nullable String key;
        private @Nullable String id;

        /** After a key's item (a version id, an upload id), or after a common prefix (no id). */
        void after(String keyOrPrefix, @Nullable String itemId) {
            key = keyOrPrefix;
            id = itemId;
        }
    }

    /** Whether the page resumes inside {@code key}: the key of a version id marker. */
    private static boolean resumes(String key, @Nullable String keyMarker, @Nullable String versionIdMarker) {
        return versionIdMarker != null && key.equals(keyMarker);
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
