package dev.hangar.blockstore.local;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * A range of a file, read on demand. Reads are positional, so the channel's own position does not
 * matter, and the channel is closed with the stream.
 */
final class FileRangeInputStream extends InputStream {
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
        ensureOpen();
        if (length == 0) {
            return 0;
        }
        if (position == end) {
            return -1;
        }
        int wanted = (int) Math.min(length, end - position);
        int count = channel.read(ByteBuffer.wrap(buffer, offset, wanted), position);
        if (count == -1) {
            // Blocks never change once written, so a shorter file means it was damaged.
            throw new EOFException("block file ended " + (end - position) + " bytes early");
        }
        position += count;
        return count;
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
