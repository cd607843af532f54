package dev.hangar.s3api.semantics;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.ReadableByteChannel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an S3 operation answers, independent of the HTTP server: status, headers and a body that is
 * empty, a small document, or a stream written by blocking code.
 */
public record S3Response(int status, Map<String, String> headers, Body body) {

    public S3Response {
        headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    public static S3Response empty(int status) {
        return new S3Response(status, Map.of(), new Body.Empty());
    }

    public static S3Response empty(int status, Map<String, String> headers) {
        return new S3Response(status, headers, new Body.Empty());
    }

    public static S3Response xml(int status, byte[] document) {
        return new S3Response(status, Map.of(), new Body.Bytes(document, "application/xml"));
    }

    public static S3Response xml(int status, Map<String, String> headers, byte[] document) {
        return new S3Response(status, headers, new Body.Bytes(document, "application/xml"));
    }

    /** The body of a response. */
    public sealed interface Body {

        record Empty() implements Body {}

        record Bytes(byte[] data, String contentType) implements Body {}

        /**
         * A body of known length produced by blocking code; the writer runs off the event loop and the
         * stream applies back-pressure.
         */
        record Stream(long length, Writer writer) implements Body {}
    }

    /**
     * Writes a streamed body. Exactly one of {@link #writeTo} and {@link #abandon} is called for a
     * response that is rendered; a body may hold resources (the leases of the blocks it reads) until then.
     */
    @FunctionalInterface
    public interface Writer {
        void writeTo(OutputStream out) throws IOException;

        /** Called instead of {@link #writeTo} when the body will never be written (the exchange ended first). */
        default void abandon() {}
    }

    /**
     * An output stream that can also read a channel straight into the buffers it sends (off-heap under the
     * HTTP server), sparing a writer the copies through a byte array: a stored block is read from its file into
     * the buffer that goes to the socket.
     */
    public interface ChannelOutput {
        /**
         * Reads from {@code source} once, at most what this output can take now, into its own buffer.
         *
         * @return the bytes read, or -1 at the end of {@code source}
         */
        int readFrom(ReadableByteChannel source) throws IOException;

        /** Reads {@code source} to its end into {@code out}, straight into its buffers when it is a {@link ChannelOutput}. */
        static void transfer(InputStream source, OutputStream out) throws IOException {
            if (source instanceof ReadableByteChannel channel && out instanceof ChannelOutput direct) {
                while (direct.readFrom(channel) >= 0) {
                    // each round fills what the output can take
                }
            } else {
                source.transferTo(out);
            }
        }
    }

    /** Releases what a streamed body holds, when the response is dropped without being written. */
    public void abandon() {
        if (body instanceof Body.Stream stream) {
            stream.writer().abandon();
        }
    }
}
