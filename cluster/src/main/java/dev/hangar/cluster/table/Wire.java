package dev.hangar.cluster.table;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The table's RPC messages. Every field is length-prefixed big-endian ({@link DataOutputStream}) and
 * entries use {@link EntryCodec}; a peer that sends anything malformed gets an error answer, never a
 * partial merge of garbage.
 *
 * <ul>
 *   <li>{@code table.<name>.merge}: entries → empty (the receiver merged them all)
 *   <li>{@code table.<name>.swap}: an entry, sort keys of its partition key to peek at → present flag
 *       + the entry stored before it, then per peeked key a present flag + the entry stored there
 *   <li>{@code table.<name>.get}: partition key, sort key → present flag + entry
 *   <li>{@code table.<name>.range}: partition key, from sort key, present flag + until sort key
 *       (exclusive), limit → up to limit entries, deletions included (coordinators of earlier
 *       releases; this one sends {@code range.live})
 *   <li>{@code table.<name>.range.live}: the same, then a cap → entries up to the limit's worth that
 *       are no deletions under the table's merge rule, and at most cap entries in all
 *   <li>{@code table.<name>.summary}: partition → partition summary (root + 256 leaf hashes)
 *   <li>{@code table.<name>.leaves}: partition, leaf numbers, the caller's entries of those leaves →
 *       the receiver's entries of those leaves (as they were before merging the caller's)
 * </ul>
 */
final class Wire {
    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    record GetRequest(byte[] partitionKey, byte[] sortKey) {}

    /** A range request; {@code cap} is {@code limit} in a plain {@code range} request. */
    record RangeRequest(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey, int limit, int cap) {}

    record LeavesRequest(int partition, byte[] leaves, List<Entry> entries) {}

    record SwapRequest(Entry entry, List<byte[]> peek) {}

    record SwapReply(Optional<Entry> previous, List<Optional<Entry>> peeked) {}

    private Wire() {}

    static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static <T> T read(byte[] payload, Reader<T> reader) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
            T value = reader.read(in);
            if (in.available() > 0) {
                throw new IOException(in.available() + " trailing bytes");
            }
            return value;
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed table message: " + e.getMessage(), e);
        }
    }

    static byte[] entries(List<Entry> entries) {
        return write(out -> EntryCodec.writeEntries(out, entries));
    }

    static List<Entry> entries(byte[] payload) {
        return read(payload, EntryCodec::readEntries);
    }

    static byte[] swapRequest(Entry entry, List<byte[]> peek) {
        return write(out -> {
            EntryCodec.write(out, entry);
            out.writeInt(peek.size());
            for (byte[] sortKey : peek) {
                EntryCodec.writeBytes(out, sortKey);
            }
        });
    }

    static SwapRequest swapRequest(byte[] payload) {
        return read(payload, in -> {
            Entry entry = EntryCodec.read(in);
            int count = in.readInt();
            if (count < 0 || count > in.available()) {
                throw new IOException("bad peek count " + count);
            }
            List<byte[]> peek = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                peek.add(EntryCodec.readBytes(in));
            }
            return new SwapRequest(entry, peek);
        });
    }

    static byte[] swapReply(SwapReply reply) {
        return write(out -> {
            writeOptional(out, reply.previous());
            out.writeInt(reply.peeked().size());
            for (Optional<Entry> peeked : reply.peeked()) {
                writeOptional(out, peeked);
            }
        });
    }

    static SwapReply swapReply(byte[] payload) {
        return read(payload, in -> {
            Optional<Entry> previous = readOptional(in);
            int count = in.readInt();
            if (count < 0 || count > in.available()) {
                throw new IOException("bad peek count " + count);
            }
            List<Optional<Entry>> peeked = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                peeked.add(readOptional(in));
            }
            return new SwapReply(previous, peeked);
        });
    }

    private static void writeOptional(DataOutputStream out, Optional<Entry> entry) throws IOException {
        out.writeBoolean(entry.isPresent());
        if (entry.isPresent()) {
            EntryCodec.write(out, entry.get());
        }
    }

    private static Optional<Entry> readOptional(DataInputStream in) throws IOException {
        return in.readBoolean() ? Optional.of(EntryCodec.read(in)) : Optional.empty();
    }

    static byte[] getRequest(byte[] partitionKey, byte[] sortKey) {
        return write(out -> {
            EntryCodec.writeBytes(out, partitionKey);
            EntryCodec.writeBytes(out, sortKey);
        });
    }

    static GetRequest getRequest(byte[] payload) {
        return read(payload, in -> new GetRequest(EntryCodec.readBytes(in), EntryCodec.readBytes(in)));
    }

    static byte[] optionalEntry(Optional<Entry> entry) {
        return write(out -> writeOptional(out, entry));
    }

    static Optional<Entry> optionalEntry(byte[] payload) {
        return read(payload, Wire::readOptional);
    }

    static byte[] rangeRequest(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey, int limit) {
        return write(out -> writeRange(out, partitionKey, fromSortKey, untilSortKey, limit));
    }

    static RangeRequest rangeRequest(byte[] payload) {
        return read(payload, in -> readRange(in, false));
    }

    static byte[] liveRangeRequest(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey, int limit,
            int cap) {
        return write(out -> {
            writeRange(out, partitionKey, fromSortKey, untilSortKey, limit);
            out.writeInt(cap);
        });
    }

    static RangeRequest liveRangeRequest(byte[] payload) {
        return read(payload, in -> readRange(in, true));
    }

    private static void writeRange(DataOutputStream out, byte[] partitionKey, byte[] fromSortKey,
            byte @Nullable [] untilSortKey, int limit) throws IOException {
        EntryCodec.writeBytes(out, partitionKey);
        EntryCodec.writeBytes(out, fromSortKey);
        out.writeBoolean(untilSortKey != null);
        if (untilSortKey != null) {
            EntryCodec.writeBytes(out, untilSortKey);
        }
        out.writeInt(limit);
    }

    private static RangeRequest readRange(DataInputStream in, boolean capped) throws IOException {
        byte[] partitionKey = EntryCodec.readBytes(in);
        byte[] fromSortKey = EntryCodec.readBytes(in);
        byte[] untilSortKey = in.readBoolean() ? EntryCodec.readBytes(in) : null;
        int limit = in.readInt();
        return new RangeRequest(partitionKey, fromSortKey, untilSortKey, limit, capped ? in.readInt() : limit);
    }

    static byte[] partition(int partition) {
        return write(out -> out.writeInt(partition));
    }

    static int partition(byte[] payload) {
        return read(payload, DataInputStream::readInt);
    }

    static byte[] summary(PartitionSummary summary) {
        return write(out -> {
            out.write(summary.root());
            for (int i = 0; i < PartitionSummary.LEAVES; i++) {
                out.write(summary.leaf(i));
            }
        });
    }

    static PartitionSummary summary(byte[] payload) {
        return read(payload, in -> {
            byte[] root = in.readNBytes(PartitionSummary.HASH_BYTES);
            byte[] leaves = in.readNBytes(PartitionSummary.LEAVES * PartitionSummary.HASH_BYTES);
            if (leaves.length != PartitionSummary.LEAVES * PartitionSummary.HASH_BYTES) {
                throw new IOException("short summary");
            }
            return new PartitionSummary(root, leaves);
        });
    }

    static byte[] leavesRequest(int partition, byte[] leaves, List<Entry> entries) {
        return write(out -> {
            out.writeInt(partition);
            EntryCodec.writeBytes(out, leaves);
            EntryCodec.writeEntries(out, entries);
        });
    }

    static LeavesRequest leavesRequest(byte[] payload) {
        return read(payload, in -> new LeavesRequest(in.readInt(), EntryCodec.readBytes(in), EntryCodec.readEntries(in)));
    }
}
