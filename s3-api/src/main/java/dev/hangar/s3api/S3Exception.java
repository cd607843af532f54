package dev.hangar.s3api;

/**
 * An S3 error answer: the code, a message for the client and, where the error document has one, the
 * resource it concerns. Unchecked because it crosses every layer of request handling to the one
 * place that renders it.
 */
public class S3Exception extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final S3Error error;

    public S3Exception(S3Error error) {
        this(error, error.message());
    }

    public S3Exception(S3Error error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    public S3Error error() {
        return error;
    }
}
