package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.IOException;

/**
 * A body failed verification while it streamed: a chunk signature, the aws-chunked framing, a length, the
 * {@code x-amz-content-sha256} hash, {@code Content-MD5} or an additional checksum. It is an
 * {@link IOException} so that it travels through stream plumbing ({@code InputStream.read}, copy loops,
 * block writers) unchanged; whoever catches it answers with {@link #error()}.
 */
public final class PayloadVerificationException extends IOException {
    private static final long serialVersionUID = 1L;

    private final S3Error error;

    public PayloadVerificationException(S3Error error, String message) {
        super(message);
        this.error = error;
    }

    /** The S3 error code to answer with. */
    public S3Error error() {
        return error;
    }

    /** The same failure as the unchecked exception the S3 layer renders. */
    public S3Exception toS3Exception() {
        return new S3Exception(error, getMessage());
    }
}
