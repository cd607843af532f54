package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.Timestamp;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The entries one command writes, buffered until the command is done, then sent together with one
 * timestamp. A later write of the same sort key replaces an earlier one, except that a version
 * slot keeps what {@link MetadataMergeRule} keeps: a higher order, or a deletion at the same order.
 * So a command that adds a {@code "null"} version and removes the one it replaces (both in the same
 * slot) leaves the added one, whichever it wrote first.
 */
final class PendingWrites {
    private record Address(ByteBuffer partitionKey, ByteBuffer sortKey) {
        static Address of(byte[] partitionKey, byte[] sortKey) {
            return new Address(ByteBuffer.wrap(partitionKey), ByteBuffer.wrap(sortKey));
        }
    }

    /** A value, or null for a tombstone. */
    private record Pending(byte[] partitionKey, byte[] sortKey, byte @Nullable [] value) {}

    private final Map<Address, Pending> pending = new LinkedHashMap<>();

    void put(byte[] partitionKey, byte[] sortKey, byte[] value) {
        pending.put(Address.of(partitionKey, sortKey), new Pending(partitionKey, sortKey, value));
    }

    void delete(byte[] partitionKey, byte[] sortKey) {
        pending.put(Address.of(partitionKey, sortKey), new Pending(partitionKey, sortKey, null));
    }

    void putVersion(byte[] partitionKey, byte[] sortKey, VersionValue value) {
        Address address = Address.of(partitionKey, sortKey);
        Optional<VersionValue> before = version(address);
        if (before.isEmpty() || replaces(value, before.get())) {
            pending.put(address, new Pending(partitionKey, sortKey, value.encode()));
        }
    }

    /** What a command wrote into a version slot so far. */
    Optional<VersionValue> version(byte[] partitionKey, byte[] sortKey) {
        return version(Address.of(partitionKey, sortKey));
    }

    private Optional<VersionValue> version(Address address) {
        Pending before = pending.get(address);
        return before == null || before.value() == null ? Optional.empty() : Optional.of(VersionValue.decode(before.value()));
    }

    // Within a command, a later write is newer: it wins unless it is older by order, or the slot
    // already holds the deletion of that order.
    private static boolean replaces(VersionValue later, VersionValue earlier) {
        return later.order() > earlier.order() || (later.order() == earlier.order() && !earlier.dead());
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    /** The buffered writes as entries, all with {@code timestamp}. */
    List<Entry> entries(Timestamp timestamp) {
        List<Entry> entries = new ArrayList<>(pending.size());
        for (Pending write : pending.values()) {
            entries.add(new Entry(write.partitionKey(), write.sortKey(), write.value(), timestamp));
        }
        return entries;
    }
}
