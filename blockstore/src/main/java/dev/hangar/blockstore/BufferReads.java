package dev.hangar.blockstore;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * Reads a block stream into a {@link ByteBuffer}: through the stream's own channel when it is one (a block file
 * reads straight into the buffer, off-heap included), else through an array.
 */
final class BufferReads {
    private static final int SCRATCH = 16 * 1024;

    private BufferReads() {}

    /** One read of at most {@code target.remaining()} bytes; the count, or -1 at the end of {@code source}. */
    static int read(InputStream source, ByteBuffer target) throws IOException {
        if (source instanceof ReadableByteChannel channel) {
            return channel.read(target);
        }
        if (target.hasArray()) {
            int count = source.read(target.array(), target.arrayOffset() + target.position(), target.remaining());
            if (count > 0) {
                target.position(target.position() + count);
            }
            return count;
        }
        byte[] scratch = new byte[Math.min(target.remaining(), SCRATCH)];
        int count = source.read(scratch);
        if (count > 0) {
            target.put(scratch, 0, count);
        }
        return count;
    }

    /**
     * As {@link #read(InputStream, ByteBuffer)} for at most {@code max} bytes, leaving {@code target}'s limit
     * as it was.
     */
    static int read(InputStream source, ByteBuffer target, long max) throws IOException {
        int limit = target.limit();
        if (target.remaining() > max) {
            target.limit(target.position() + (int) max);
        }
        try {
            return read(source, target);
        } finally {
            target.limit(limit);
        }
    }
}
