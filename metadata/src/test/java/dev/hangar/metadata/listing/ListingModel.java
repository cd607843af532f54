package dev.hangar.metadata.listing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What S3 lists, computed the slow and obvious way, to hold {@link ListingRules} against: every
 * item of the whole bucket in order, filtered by the prefix and the markers, rolled up, and cut at
 * max-keys. No cursors, seeks or byte ranges.
 */
final class ListingModel {
    /** S3's key order: UTF-8 bytes, unsigned. */
    static final Comparator<String> KEY_ORDER =
            (first, second) -> Arrays.compareUnsigned(first.getBytes(StandardCharsets.UTF_8),
                    second.getBytes(StandardCharsets.UTF_8));

    /** One listed item: a key's item (an object, a version, an upload) or a common prefix. */
    sealed interface Item {
        String name();

        record Listed(String name, String id, boolean latest) implements Item {}

        record CommonPrefix(String name) implements Item {}
    }

    /** A page: the items of the whole listing up to max-keys, and whether more follow. */
    record Page(List<Item> items, boolean truncated) {
        /** The key marker to resume after: the last item's key or common prefix, if truncated. */
        @Nullable String nextKeyMarker() {
            return truncated && !items.isEmpty() ? items.getLast().name() : null;
        }

        /** The id marker to resume after: the last item's id, if truncated and it is not a common prefix. */
        @Nullable String nextIdMarker() {
            return truncated && !items.isEmpty() && items.getLast() instanceof Item.Listed listed ? listed.id() : null;
        }
    }

    private ListingModel() {}

    static <V> SortedMap<String, V> inKeyOrder(Map<String, V> byKey) {
        SortedMap<String, V> sorted = new TreeMap<>(KEY_ORDER);
        sorted.putAll(byKey);
        return sorted;
    }

    /**
     * The common prefix {@code key} rolls up into: up to and including the first delimiter after
     * the prefix; null if there is none (or no delimiter).
     */
    static @Nullable String rolledUp(String key, String prefix, @Nullable String delimiter) {
        if (delimiter == null || !key.startsWith(prefix)) {
            return null;
        }
        int found = key.indexOf(delimiter, prefix.length());
        return found < 0 ? null : key.substring(0, found + delimiter.length());
    }

    /** Whether a key marker is one of this listing's common prefixes: it rolls up into itself. */
    static boolean namesCommonPrefix(String marker, String prefix, @Nullable String delimiter) {
        return marker.equals(rolledUp(marker, prefix, delimiter));
    }

    /**
     * Whether {@code key} comes after a key marker: greater than it, and not under it if it names a
     * common prefix (then everything under it was listed as that prefix).
     */
    static boolean afterMarker(String key, @Nullable String marker, String prefix, @Nullable String delimiter) {
        if (marker == null) {
            return true;
        }
        if (namesCommonPrefix(marker, prefix, delimiter) && key.startsWith(marker)) {
            return false;
        }
        return KEY_ORDER.compare(key, marker) > 0;
    }

    /**
     * Lists {@code itemsByKey} (each key's items in listing order, with their ids and latest flags):
     * keys under the prefix, each key's items or the common prefix it rolls up into (once), a key
     * with no items left out entirely, then the first {@code maxKeys}; a page of none is never
     * truncated (what the stores have always answered to max-keys 0).
     */
    static Page list(SortedMap<String, List<Item.Listed>> itemsByKey, String prefix, @Nullable String delimiter,
            int maxKeys) {
        List<Item> all = new ArrayList<>();
        if (maxKeys == 0) {
            return new Page(all, false);
        }
        for (Map.Entry<String, List<Item.Listed>> key : itemsByKey.entrySet()) {
            if (!key.getKey().startsWith(prefix) || key.getValue().isEmpty()) {
                continue;
            }
            String common = rolledUp(key.getKey(), prefix, delimiter);
            if (common == null) {
                all.addAll(key.getValue());
            } else if (all.isEmpty() || !all.getLast().equals(new Item.CommonPrefix(common))) {
                all.add(new Item.CommonPrefix(common));
            }
        }
        return all.size() > maxKeys ? new Page(List.copyOf(all.subList(0, maxKeys)), true) : new Page(all, false);
    }
}
