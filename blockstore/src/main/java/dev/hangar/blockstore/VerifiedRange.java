package dev.hangar.blockstore;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Reads a range of a block while checking the whole block against its {@link BlockRef}: the bytes
 * before the range are read and hashed but not returned, and once the range is delivered the rest
 * of the block is read and hashed before the end of the stream is reported. A mismatch is thrown as
 * {@link CorruptBlockException} in place of the end, so a reader never sees a corrupt block end
 * normally. The price is reading the whole block for a partial range: at most one chunk.
 *
 * <p>It is also a {@link ReadableByteChannel}, which reads a block file straight into the caller's buffer and
 * checks the bytes there: a GET fills the off-heap buffers it sends without copying through an array.
 */
public final class VerifiedRange extends InputStream implements ReadableByteChannel {
    private final BlockRef block;
    private final InputStream whole;
    private final Runnable onCorrupt;
    private final CRC32C checksum = new CRC32C();
    private final byte[] single = new byte[1];
    private long remaining;
    private boolean verified;
    private boolean closed;

    private VerifiedRange(BlockRef block, InputStream whole, long remaining, Runnable onCorrupt) {
        this.block = block;
        this.whole = whole;
        this.remaining = remaining;
        this.onCorrupt = onCorrupt;
    }

    /**
     * Opens {@code [offset, offset + length)} of {@code block} from {@code store}, verified.
     *
     * @param onCorrupt called once if the block turns out corrupt, before the exception is thrown
     */
    public static InputStream open(BlockStore store, BlockRef block, long offset, long length, Runnable onCorrupt)
            throws IOException {
        Objects.checkFromIndexSize(offset, length, block.size());
        InputStream whole = store.read(block.id(), 0, block.size());
        VerifiedRange range = new VerifiedRange(block, whole, length, onCorrupt);
        try {
            range.skipHashed(offset);
            if (length == 0) {
                range.verifyRest();
            }
        } catch (Throwable failure) {
            range.close();
            throw failure;
        }
        return range;
    }

    /** Reads the whole block, checking its size and CRC32C. */
    public static BlockHealth check(BlockStore store, BlockRef block, Runnable onCorrupt) throws IOException {
        try (InputStream in = open(store, block, 0, block.size(), onCorrupt)) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return BlockHealth.INTACT;
        } catch (NoSuchBlockException missing) {
            return BlockHealth.MISSING;
        } catch (CorruptBlockException | EOFException | IndexOutOfBoundsException corrupt) {
            if (!(corrupt instanceof CorruptBlockException)) {
                onCorrupt.run();
            }
            return BlockHealth.CORRUPT;
        }
    }

    @Override
    public int read() throws IOException {
        int count = read(single, 0, 1);
        return count == -1 ? -1 : single[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        return read(ByteBuffer.wrap(buffer, offset, length));
    }

    @Override
    public int read(ByteBuffer target) throws IOException {
        if (!target.hasRemaining()) {
            return 0;
        }
        if (remaining == 0) {
            verifyRest();
            return -1;
        }
        int start = target.position();
        int count = BufferReads.read(whole, target, remaining);
        if (count == -1) {
            throw corrupt("it ended " + remaining + " bytes early");
        }
        checksum.update(target.slice(start, count));
        remaining -= count;
        if (remaining == 0) {
            // Verified before the last bytes are handed out, so the end of the range is never
            // reached on a corrupt block.
            verifyRest();
        }
        return count;
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        whole.close();
    }

    private void skipHashed(long count) throws IOException {
        byte[] buffer = new byte[(int) Math.min(64 * 1024, Math.max(count, 1))];
        while (count > 0) {
            int read = whole.read(buffer, 0, (int) Math.min(buffer.length, count));
            if (read == -1) {
                throw corrupt("it ended " + count + " bytes before the range");
            }
            checksum.update(buffer, 0, read);
            count -= read;
        }
    }

    private void verifyRest() throws IOException {
        if (verified) {
            return;
        }
        byte[] buffer = new byte[64 * 1024];
        for (int read = whole.read(buffer); read != -1; read = whole.read(buffer)) {
            checksum.update(buffer, 0, read);
        }
        verified = true;
        int actual = (int) checksum.getValue();
        if (actual != block.crc32c()) {
            throw corrupt(String.format("CRC32C %08x, expected %08x", actual, block.crc32c()));
        }
    }

    private CorruptBlockException corrupt(String detail) {
        onCorrupt.run();
        return new CorruptBlockException(block.id(), detail);
    }
}
