package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;

/**
 * The {@code leases.held} message: the question is a list of block ids, the answer the ids among them that
 * the answering node's reads hold. A list is a count (4 bytes) and then 16 bytes per id.
 */
final class LeaseWire {
    static final String HELD = "leases.held";
    /** A reclamation batch is 1,000 blocks; a list longer than this is no question of ours. */
    static final int MAX_IDS = 10_000;

    private static final HexFormat HEX = HexFormat.of();
    private static final int ID_BYTES = 16;

    private LeaseWire() {}

    static byte[] encode(Collection<BlockId> ids) {
        if (ids.size() > MAX_IDS) {
            throw new IllegalArgumentException("at most " + MAX_IDS + " block ids per question: " + ids.size());
        }
        ByteBuffer out = ByteBuffer.allocate(4 + ids.size() * ID_BYTES).putInt(ids.size());
        for (BlockId id : ids) {
            out.put(HEX.parseHex(id.value()));
        }
        return out.array();
    }

    /** @throws IllegalArgumentException if {@code payload} is not a list of ids */
    static List<BlockId> decode(byte[] payload) {
        ByteBuffer in = ByteBuffer.wrap(payload);
        try {
            int count = in.getInt();
            if (count < 0 || count > MAX_IDS || in.remaining() != count * ID_BYTES) {
                throw new IllegalArgumentException("malformed block id list: " + count + " ids in "
                        + payload.length + " bytes");
            }
            List<BlockId> ids = new ArrayList<>(count);
            byte[] id = new byte[ID_BYTES];
            for (int i = 0; i < count; i++) {
                in.get(id);
                ids.add(new BlockId(HEX.formatHex(id)));
            }
            return ids;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("malformed block id list of " + payload.length + " bytes", e);
        }
    }
}
