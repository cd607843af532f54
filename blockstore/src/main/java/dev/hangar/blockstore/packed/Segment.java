package dev.hangar.blockstore.packed;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One segment file: a file header, then chunk records ({@link RecordHeader} + data) appended one
 * after the other and never changed in place. Appends are made by one writer at a time (the
 * store's append lock); reads are positional and may run beside them and each other.
 */
final class Segment implements AutoCloseable {
    static final byte[] FILE_HEADER = "HGSEG001".getBytes(StandardCharsets.US_ASCII);

    private final long number;
    private final Path path;
    private final FileChannel channel;
    /** Where the next record goes: the file's valid length. */
    private volatile long end;
    /** Bytes of records that the index points to: what compaction would have to copy. */
    private final AtomicLong liveBytes = new AtomicLong();
    private final AtomicLong liveChunks = new AtomicLong();

    private Segment(long number, Path path, FileChannel channel, long end) {
        this.number = number;
        this.path = path;
        this.channel = channel;
        this.end = end;
    }

    static String fileName(long number) {
        return String.format("segment-%016x.dat", number);
    }

    /** The segment number in a file name made by {@link #fileName}, or -1 if it is not one. */
    static long numberOf(String fileName) {
        if (!fileName.startsWith("segment-") || !fileName.endsWith(".dat") || fileName.length() != 8 + 16 + 4) {
            return -1;
        }
        try {
            return Long.parseUnsignedLong(fileName.substring(8, 24), 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static Segment create(Path folder, long number) throws IOException {
        Path path = folder.resolve(fileName(number));
        FileChannel channel = FileChannel.open(path, CREATE_NEW, READ, WRITE);
        try {
            writeFully(channel, ByteBuffer.wrap(FILE_HEADER), 0);
            return new Segment(number, path, channel, FILE_HEADER.length);
        } catch (Throwable failure) {
            channel.close();
            throw failure;
        }
    }

    /**
     * Opens an existing segment whose valid records end at {@code end}: the caller has walked it
     * ({@link #scan}) or trusts it (a sealed segment, whose length is its end).
     */
    static Segment open(Path path, long number) throws IOException {
        FileChannel channel = FileChannel.open(path, READ, WRITE);
        return new Segment(number, path, channel, channel.size());
    }

    long number() {
        return number;
    }

    Path path() {
        return path;
    }

    /** Bytes of the file in use, file header included. */
    long size() {
        return end;
    }

    AtomicLong liveBytes() {
        return liveBytes;
    }

    AtomicLong liveChunks() {
        return liveChunks;
    }

    /** Appends a record at the end; the caller holds the store's append lock. Returns its offset. */
    long append(RecordHeader header, byte[] data) throws IOException {
        long offset = end;
        ByteBuffer record = ByteBuffer.allocate(RecordHeader.SIZE + data.length);
        record.put(header.encode()).put(data).flip();
        writeFully(channel, record, offset);
        end = offset + record.capacity();
        return offset;
    }

    /** Reads the record at {@code offset}: header and data, {@code length} data bytes expected. */
    ByteBuffer readRecord(long offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(RecordHeader.SIZE + length);
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, offset + buffer.position());
            if (read == -1) {
                break;
            }
        }
        return buffer.flip();
    }

    /** Forces the appended records to stable storage. */
    void force() throws IOException {
        channel.force(false);
    }

    /**
     * Walks the records from the start and returns the valid ones, in order, stopping at the
     * first header that fails its check or whose data runs past the end of the file: what follows
     * is an append a crash interrupted, never acknowledged. Data CRCs are not checked here. Sets
     * {@link #size} to where the valid records end.
     */
    void scan(RecordVisitor visitor) throws IOException {
        long fileSize = channel.size();
        long position = FILE_HEADER.length;
        ByteBuffer headerBuffer = ByteBuffer.allocate(RecordHeader.SIZE);
        while (position + RecordHeader.SIZE <= fileSize) {
            headerBuffer.clear();
            while (headerBuffer.hasRemaining() && channel.read(headerBuffer, position + headerBuffer.position()) != -1) {}
            headerBuffer.flip();
            RecordHeader header = RecordHeader.decode(headerBuffer);
            if (header == null || position + header.recordSize() > fileSize) {
                break;
            }
            visitor.visit(position, header);
            position += header.recordSize();
        }
        end = position;
    }

    /** Cuts the file at {@link #size}, dropping a torn tail that {@link #scan} found. */
    void truncateToEnd() throws IOException {
        if (channel.size() > end) {
            channel.truncate(end);
            channel.force(true);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    @Override
    public String toString() {
        return path.getFileName().toString();
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    /** What {@link #scan} calls for each valid record, in file order. */
    @FunctionalInterface
    interface RecordVisitor {
        void visit(long offset, RecordHeader header) throws IOException;
    }
}
