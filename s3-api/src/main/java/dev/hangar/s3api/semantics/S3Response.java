package dev.hangar.s3api.semantics;

import java.io.IOException;
import java.io.OutputStream;
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

    /** Releases what a streamed body holds, when the response is dropped without being written. */
    public void abandon() {
        if (body instanceof Body.Stream stream) {
            stream.writer().abandon();
        }
    }
}
