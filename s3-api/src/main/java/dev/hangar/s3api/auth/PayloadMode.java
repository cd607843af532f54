package dev.hangar.s3api.auth;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How a request's body is protected, as the client declared in {@code x-amz-content-sha256} (or, for
 * presigned URLs, by not signing that header).
 */
public enum PayloadMode {
    /** {@code UNSIGNED-PAYLOAD}: the body is not covered by the signature; TLS protects it. */
    UNSIGNED_PAYLOAD("UNSIGNED-PAYLOAD"),
    /** A hex SHA-256 of the whole body, signed as part of the request; checked once the body has ended. */
    SIGNED_SHA256(null),
    /** {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD}: aws-chunked, every chunk signed in a chain. */
    STREAMING_SIGNED("STREAMING-AWS4-HMAC-SHA256-PAYLOAD"),
    /** {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER}: signed chunks, then trailers with their own signature. */
    STREAMING_SIGNED_TRAILER("STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"),
    /** {@code STREAMING-UNSIGNED-PAYLOAD-TRAILER}: aws-chunked without signatures, then a checksum trailer. */
    STREAMING_UNSIGNED_TRAILER("STREAMING-UNSIGNED-PAYLOAD-TRAILER");

    private final @Nullable String headerValue;

    PayloadMode(@Nullable String headerValue) {
        this.headerValue = headerValue;
    }

    /** The literal {@code x-amz-content-sha256} value, empty for {@link #SIGNED_SHA256} whose value is a hash. */
    public Optional<String> headerValue() {
        return Optional.ofNullable(headerValue);
    }

    /** Whether the body is in the aws-chunked encoding, which the decoder strips. */
    public boolean isChunked() {
        return switch (this) {
            case UNSIGNED_PAYLOAD, SIGNED_SHA256 -> false;
            case STREAMING_SIGNED, STREAMING_SIGNED_TRAILER, STREAMING_UNSIGNED_TRAILER -> true;
        };
    }

    /** Whether each chunk carries a signature chained from the request's seed signature. */
    public boolean hasChunkSignatures() {
        return switch (this) {
            case UNSIGNED_PAYLOAD, SIGNED_SHA256, STREAMING_UNSIGNED_TRAILER -> false;
            case STREAMING_SIGNED, STREAMING_SIGNED_TRAILER -> true;
        };
    }

    /** Whether trailing headers follow the final chunk. */
    public boolean hasTrailer() {
        return switch (this) {
            case UNSIGNED_PAYLOAD, SIGNED_SHA256, STREAMING_SIGNED -> false;
            case STREAMING_SIGNED_TRAILER, STREAMING_UNSIGNED_TRAILER -> true;
        };
    }
}
