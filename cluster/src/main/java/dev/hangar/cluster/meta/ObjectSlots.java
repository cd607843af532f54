package dev.hangar.cluster.meta;

import dev.hangar.metadata.listing.ByteKeys;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Sort keys of the objects partition of a bucket ({@code O 0 bucket}): per object key {@code K}
 * (UTF-8, never a 0 byte), every entry starts with {@code K}, so a key's entries are contiguous and
 * keys list in S3's order.
 *
 * <ul>
 *   <li>{@code K 0x00}: the {@code "null"} version's slot. One fixed sort key, so that overwrites in
 *       an unversioned bucket converge on one entry and can be written blindly.
 *   <li>{@code K 0x00 0x01 ~order versionId}: each version with an id of its own, the order as 8
 *       bytes big-endian, inverted, so that a key's versions sort newest first.
 *   <li>{@code K 0x00 0x02 versionId}: the index that finds a version's order by its id.
 *   <li>{@code K}: a legacy entry, the key's whole version stack as the previous release wrote it
 *       ({@link LegacyStack}); read, and replaced by the entries above at the key's first mutation.
 * </ul>
 *
 * <p>The 0 byte after {@code K} is what keeps keys apart: keys may hold U+0001 and U+0002 (a key
 * {@code K\u0001x} exists besides {@code K}), but no key holds U+0000, so the first 0 byte of a sort
 * key ends its object key, and every key that extends {@code K} sorts after all of {@code K}'s
 * entries ({@code K 0x01} and beyond).
 */
final class ObjectSlots {
    static final byte NULL_SLOT = 0;
    static final byte VERSION_TAG = 1;
    private static final byte INDEX = 2;
    private static final int ORDER_BYTES = Long.BYTES;

    private ObjectSlots() {}

    /** What a sort key of the objects partition addresses. */
    sealed interface Slot {
        String key();

        /** The key's whole stack, in the previous release's format. */
        record Legacy(String key) implements Slot {}

        record NullVersion(String key) implements Slot {}

        record IdVersion(String key, long order, String versionId) implements Slot {}

        record Index(String key, String versionId) implements Slot {}
    }

    static Slot parse(byte[] sortKey) {
        int end = keyEnd(sortKey);
        String key = ByteKeys.string(sortKey, 0, end);
        if (end == sortKey.length) {
            return new Slot.Legacy(key);
        }
        if (end + 1 == sortKey.length) {
            return new Slot.NullVersion(key);
        }
        return switch (sortKey[end + 1]) {
            case VERSION_TAG -> {
                int idStart = end + 2 + ORDER_BYTES;
                long order = ~ByteBuffer.wrap(sortKey, end + 2, ORDER_BYTES).getLong();
                yield new Slot.IdVersion(key, order, ByteKeys.string(sortKey, idStart, sortKey.length));
            }
            case INDEX -> new Slot.Index(key, ByteKeys.string(sortKey, end + 2, sortKey.length));
            default -> throw new IllegalArgumentException("not an object sort key: " + Arrays.toString(sortKey));
        };
    }

    /** Where the object key ends in a sort key: at its first 0 byte, or at its end for a legacy entry. */
    static int keyEnd(byte[] sortKey) {
        for (int i = 0; i < sortKey.length; i++) {
            if (sortKey[i] == 0) {
                return i;
            }
        }
        return sortKey.length;
    }

    /** Whether the sort key is one of {@code key}'s entries. */
    static boolean isOf(byte[] sortKey, byte[] key) {
        return ByteKeys.startsWith(sortKey, key) && (sortKey.length == key.length || sortKey[key.length] == 0);
    }

    /** The object key as sort key bytes, null if it holds U+0000 (then it has no entries: S3 cannot send one). */
    static byte @Nullable [] readable(String key) {
        return key.indexOf('\0') >= 0 ? null : ByteKeys.utf8(key);
    }

    /** The object key as sort key bytes for a write: refused if it holds U+0000. */
    static byte[] writable(String key) {
        if (key.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("object key must not contain U+0000");
        }
        return ByteKeys.utf8(key);
    }

    static byte[] legacy(byte[] key) {
        return key;
    }

    static byte[] nullSlot(byte[] key) {
        return ByteKeys.concat(key, new byte[] {NULL_SLOT});
    }

    static byte[] version(byte[] key, long order, String versionId) {
        return ByteKeys.concat(versionsOf(key), orderBytes(order), ByteKeys.utf8(versionId));
    }

    /** Where {@code key}'s versions with an id start: its newest. */
    static byte[] versionsOf(byte[] key) {
        return ByteKeys.concat(key, new byte[] {NULL_SLOT, VERSION_TAG});
    }

    /** Where {@code key}'s versions older than {@code order} start. */
    static byte[] versionsBelow(byte[] key, long order) {
        // Never null: the version tag before the order bytes is below 0xFF.
        return Objects.requireNonNull(ByteKeys.pastPrefix(ByteKeys.concat(versionsOf(key), orderBytes(order))));
    }

    /** Just past {@code key}'s versions with an id: where its index starts. */
    static byte[] pastVersions(byte[] key) {
        return index(key, "");
    }

    static byte[] index(byte[] key, String versionId) {
        return ByteKeys.concat(key, new byte[] {NULL_SLOT, INDEX}, ByteKeys.utf8(versionId));
    }

    /** The first sort key past every entry of {@code key}: where the next key's entries may start. */
    static byte[] pastKey(byte[] key) {
        return ByteKeys.concat(key, new byte[] {NULL_SLOT + 1});
    }

    private static byte[] orderBytes(long order) {
        return ByteBuffer.allocate(ORDER_BYTES).putLong(~order).array();
    }
}
