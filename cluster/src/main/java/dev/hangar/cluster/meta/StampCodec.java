package dev.hangar.cluster.meta;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.Timestamp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of a hybrid timestamp inside a metadata value (the per-field stamps of {@link
 * VersionValue} and {@link AccessKeyValue}): wall milliseconds (8 bytes), logical counter (4
 * bytes), the node id's length (1 byte: ids are at most 255 ASCII characters) and its characters.
 */
final class StampCodec {
    private StampCodec() {}

    static int size(Timestamp stamp) {
        return Long.BYTES + Integer.BYTES + 1 + stamp.node().value().length();
    }

    static void write(ByteBuffer out, Timestamp stamp) {
        byte[] node = stamp.node().value().getBytes(StandardCharsets.US_ASCII);
        out.putLong(stamp.wall()).putInt(stamp.logical()).put((byte) node.length).put(node);
    }

    static Timestamp read(ByteBuffer in) {
        long wall = in.getLong();
        int logical = in.getInt();
        byte[] node = new byte[Byte.toUnsignedInt(in.get())];
        in.get(node);
        return new Timestamp(wall, logical, new NodeId(new String(node, StandardCharsets.US_ASCII)));
    }
}
