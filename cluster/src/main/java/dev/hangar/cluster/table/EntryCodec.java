package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.NodeId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The byte form of entries, both on disk (the value of a {@link RocksDbLocalTable} record) and on the
 * wire. One format for both so that a replica can store what it receives without re-encoding, and
 * a version byte so that either can change later.
 *
 * <p>Entry: version (1 byte, 1), partition key (int length + bytes), sort key (int length + bytes),
 * value (int length + bytes, or -1 for a tombstone), wall (long), logical (int), node id (UTF).
 */
final class EntryCodec {
    private static final byte VERSION = 1;

    private EntryCodec() {}

    static byte[] encode(Entry entry) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + entry.partitionKey().length
                + entry.sortKey().length + (entry.value() == null ? 0 : entry.value().length));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(out, entry);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Entry decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            return read(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed table entry", e);
        }
    }

    static void write(DataOutputStream out, Entry entry) throws IOException {
        out.writeByte(VERSION);
        writeBytes(out, entry.partitionKey());
        writeBytes(out, entry.sortKey());
        writeNullableBytes(out, entry.value());
        Timestamp ts = entry.timestamp();
        out.writeLong(ts.wall());
        out.writeInt(ts.logical());
        out.writeUTF(ts.node().value());
    }

    static Entry read(DataInputStream in) throws IOException {
        byte version = in.readByte();
        if (version != VERSION) {
            throw new IOException("unknown entry format version " + version);
        }
        byte[] partitionKey = readBytes(in);
        byte[] sortKey = readBytes(in);
        byte[] value = readNullableBytes(in);
        Timestamp ts = new Timestamp(in.readLong(), in.readInt(), new NodeId(in.readUTF()));
        return new Entry(partitionKey, sortKey, value, ts);
    }

    static void writeEntries(DataOutputStream out, List<Entry> entries) throws IOException {
        out.writeInt(entries.size());
        for (Entry entry : entries) {
            write(out, entry);
        }
    }

    static List<Entry> readEntries(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("negative entry count");
        }
        List<Entry> entries = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            entries.add(read(in));
        }
        return entries;
    }

    static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] bytes = readNullableBytes(in);
        if (bytes == null) {
            throw new IOException("missing byte string");
        }
        return bytes;
    }

    static void writeNullableBytes(DataOutputStream out, byte @Nullable [] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
        } else {
            writeBytes(out, bytes);
        }
    }

    static byte @Nullable [] readNullableBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.available()) {
            throw new IOException("byte string length " + length + " exceeds the message");
        }
        return in.readNBytes(length);
    }
}
