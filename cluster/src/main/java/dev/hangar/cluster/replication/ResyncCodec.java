package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.replication.ResyncQueue.Copy;
import dev.hangar.cluster.replication.ResyncQueue.Delete;
import dev.hangar.cluster.replication.ResyncQueue.Task;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Keys and values of a {@link RocksDbResyncStore}.
 *
 * <p>Task key: {@code 't'} + block id (32 ASCII hex digits) + target node id (ASCII). The kind of
 * task is in the value, not the key, so that a copy and a delete for the same pair share one key and
 * the later one replaces the earlier, as in the queue. Value: {@code 'C'} size(8) has-crc(1)
 * crc32c(4) for a copy, {@code 'D'} for a delete. Release key: {@code 'r'} + block id; empty value.
 * Node ids are printable ASCII and block ids have a fixed length, so the split is unambiguous.
 */
final class ResyncCodec {
    static final byte TASK = 't';
    static final byte RELEASE = 'r';
    private static final byte COPY = 'C';
    private static final byte DELETE = 'D';
    private static final int BLOCK_ID_LENGTH = 32;
    private static final byte[] EMPTY = new byte[0];

    private ResyncCodec() {}

    static byte[] taskKey(Task task) {
        byte[] block = ascii(task.block().value());
        byte[] target = ascii(task.target().value());
        return ByteBuffer.allocate(1 + block.length + target.length).put(TASK).put(block).put(target).array();
    }

    static byte[] releaseKey(BlockId block) {
        return ByteBuffer.allocate(1 + BLOCK_ID_LENGTH).put(RELEASE).put(ascii(block.value())).array();
    }

    static byte[] releaseValue() {
        return EMPTY;
    }

    static byte[] taskValue(Task task) {
        return switch (task) {
            case Copy copy -> {
                @Nullable Integer crc = copy.crc32c();
                yield ByteBuffer.allocate(14)
                        .put(COPY)
                        .putLong(copy.size())
                        .put((byte) (crc == null ? 0 : 1))
                        .putInt(crc == null ? 0 : crc)
                        .array();
            }
            case Delete ignored -> new byte[] {DELETE};
        };
    }

    /** The task stored under {@code key}; throws IllegalArgumentException for a malformed entry. */
    static Task task(byte[] key, byte[] value) {
        if (key.length <= 1 + BLOCK_ID_LENGTH || key[0] != TASK || value.length == 0) {
            throw new IllegalArgumentException("not a resync task entry");
        }
        BlockId block = new BlockId(new String(key, 1, BLOCK_ID_LENGTH, StandardCharsets.US_ASCII));
        NodeId target = new NodeId(
                new String(key, 1 + BLOCK_ID_LENGTH, key.length - 1 - BLOCK_ID_LENGTH, StandardCharsets.US_ASCII));
        ByteBuffer in = ByteBuffer.wrap(value);
        return switch (in.get()) {
            case COPY -> {
                if (value.length != 14) {
                    throw new IllegalArgumentException("copy entry of " + value.length + " bytes");
                }
                long size = in.getLong();
                boolean hasCrc = in.get() != 0;
                int crc = in.getInt();
                yield new Copy(block, size, hasCrc ? Integer.valueOf(crc) : null, target);
            }
            case DELETE -> new Delete(block, target);
            default -> throw new IllegalArgumentException("unknown resync task kind " + value[0]);
        };
    }

    static BlockId release(byte[] key) {
        if (key.length != 1 + BLOCK_ID_LENGTH || key[0] != RELEASE) {
            throw new IllegalArgumentException("not a release entry");
        }
        return new BlockId(new String(key, 1, BLOCK_ID_LENGTH, StandardCharsets.US_ASCII));
    }

    private static byte[] ascii(String value) {
        return value.getBytes(StandardCharsets.US_ASCII);
    }
}
