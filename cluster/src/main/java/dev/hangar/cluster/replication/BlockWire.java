package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/** Encodes and decodes the {@code blocks.*} messages described in the package documentation. */
final class BlockWire {
    static final String PUT = "blocks.put";
    static final String GET = "blocks.get";
    static final String EXISTS = "blocks.exists";
    static final String DELETE = "blocks.delete";

    private static final HexFormat HEX = HexFormat.of();
    private static final int ID_BYTES = 16;

    /** What a replica says about its copy of a block. */
    enum Status {
        FOUND,
        MISSING,
        CORRUPT,
        OUT_OF_RANGE;

        static Status of(byte code) {
            Status[] all = values();
            if (code < 0 || code >= all.length) {
                throw new IllegalArgumentException("unknown block status " + code);
            }
            return all[code];
        }
    }

    /** A copy to store, for a writer that chose the block's replicas under layout {@code layoutVersion}. */
    record Put(BlockId id, int crc32c, long layoutVersion, byte[] data) {}

    /** A range read; {@code expected} set asks the replica to verify the whole block against it. */
    record Get(BlockId id, long offset, long length, @Nullable BlockRef expected) {}

    record GetReply(Status status, byte[] data) {}

    private BlockWire() {}

    static byte[] id(BlockId id) {
        return HEX.parseHex(id.value());
    }

    static BlockId id(byte[] payload) {
        return readId(ByteBuffer.wrap(payload));
    }

    static byte[] put(BlockId id, int crc32c, long layoutVersion, byte[] data) {
        return ByteBuffer.allocate(ID_BYTES + 4 + 8 + data.length)
                .put(id(id)).putInt(crc32c).putLong(layoutVersion).put(data).array();
    }

    static Put put(byte[] payload) {
        ByteBuffer in = ByteBuffer.wrap(payload);
        BlockId id = readId(in);
        int crc = in.getInt();
        long layoutVersion = in.getLong();
        return new Put(id, crc, layoutVersion, Arrays.copyOfRange(payload, in.position(), payload.length));
    }

    static byte[] get(Get get) {
        BlockRef expected = get.expected();
        ByteBuffer out = ByteBuffer.allocate(ID_BYTES + 8 + 8 + 1 + (expected == null ? 0 : 12));
        out.put(id(get.id())).putLong(get.offset()).putLong(get.length()).put((byte) (expected == null ? 0 : 1));
        if (expected != null) {
            out.putLong(expected.size()).putInt(expected.crc32c());
        }
        return out.array();
    }

    static Get get(byte[] payload) {
        ByteBuffer in = ByteBuffer.wrap(payload);
        BlockId id = readId(in);
        long offset = in.getLong();
        long length = in.getLong();
        BlockRef expected = in.get() == 0 ? null : new BlockRef(id, in.getLong(), in.getInt());
        return new Get(id, offset, length, expected);
    }

    static byte[] reply(Status status, byte[] data) {
        byte[] out = new byte[1 + data.length];
        out[0] = (byte) status.ordinal();
        System.arraycopy(data, 0, out, 1, data.length);
        return out;
    }

    static byte[] reply(Status status) {
        return new byte[] {(byte) status.ordinal()};
    }

    static GetReply reply(byte[] payload) {
        if (payload.length == 0) {
            throw new IllegalArgumentException("empty block reply");
        }
        return new GetReply(Status.of(payload[0]), Arrays.copyOfRange(payload, 1, payload.length));
    }

    private static BlockId readId(ByteBuffer in) {
        byte[] raw = new byte[ID_BYTES];
        in.get(raw);
        return new BlockId(HEX.formatHex(raw));
    }
}
