package dev.hangar.blockstore.local;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.util.Objects;

/**
 * A range of a file, read on demand. Reads are positional, so the channel's own position does not
 * matter, and the channel is closed with the stream. As a channel it reads into the caller's buffer
 * itself: into an off-heap one, the kernel copies the file's bytes straight there.
 */
final class FileRangeInputStream extends InputStream implements ReadableByteChannel {
    private final FileChannel channel;
    private long position;
    private final long end;
    private boolean closed;

    FileRangeInputStream(FileChannel channel, long offset, long length) {
        this.channel = channel;
        this.position = offset;
        this.end = offset + length;
    }

    @Override
    public int read() throws IOException {
        byte[] single = new byte[1];
        return read(single, 0, 1) == -1 ? -1 : Byte.toUnsignedInt(single[0]);
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        return read(ByteBuffer.wrap(buffer, offset, length));
    }

    @Override
    public int read(ByteBuffer target) throws IOException {
        ensureOpen();
        if (!target.hasRemaining()) {
            return 0;
        }
        if (position == end) {
            return -1;
        }
        int limit = target.limit();
        if (target.remaining() > end - position) {
            target.limit(target.position() + (int) (end - position));
        }
        int count;
        try {
            count = channel.read(target, position);
        } finally {
            target.limit(limit);
        }
        if (count == -1) {
            // Blocks never change once written, so a shorter file means it was damaged.
            throw new EOFException("block file ended " + (end - position) + " bytes early");
        }
        position += count;
        return count;
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public long skip(long count) throws IOException {
        ensureOpen();
        long skipped = Math.min(Math.max(count, 0), end - position);
        position += skipped;
        return skipped;
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        return (int) Math.min(end - position, Integer.MAX_VALUE);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        channel.close();
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
    }
}
