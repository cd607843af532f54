package dev.hangar.blockstore;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** Reads a block stream as a GET's body does: into an off-heap buffer, through the stream's channel if it has one. */
final class ChannelReads {
    private ChannelReads() {}

    /** Every byte to the end, read into an off-heap buffer of {@code bufferSize} bytes at a time. */
    static byte[] readAll(InputStream in, int bufferSize) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(bufferSize);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        while (true) {
            buffer.clear();
            int count = BufferReads.read(in, buffer);
            if (count == -1) {
                return all.toByteArray();
            }
            buffer.flip();
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            all.write(bytes);
        }
    }
}
