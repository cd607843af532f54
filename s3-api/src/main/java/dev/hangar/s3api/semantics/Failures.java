package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.Unavailable;
import dev.hangar.s3api.auth.PayloadVerificationException;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Turns I/O failures of a request into the S3 error they mean. */
final class Failures {
    private Failures() {}

    @FunctionalInterface
    interface IoAction<T> {
        T run() throws IOException;
    }

    static <T> T io(IoAction<T> action) {
        try {
            return action.run();
        } catch (IOException e) {
            throw translate(e);
        } catch (UncheckedIOException e) {
            throw translate(e.getCause());
        }
    }

    static S3Exception translate(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof S3Exception s3) {
                return s3;
            }
            if (cause instanceof PayloadVerificationException verification) {
                return new S3Exception(verification.error(), verification.getMessage());
            }
        }
        S3Exception unavailable = Unavailable.of(failure);
        if (unavailable != null) {
            return unavailable;
        }
        return new S3Exception(S3Error.INTERNAL_ERROR, "I/O failure: " + failure.getMessage());
    }
}
