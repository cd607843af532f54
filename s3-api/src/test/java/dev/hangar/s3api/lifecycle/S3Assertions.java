package dev.hangar.s3api.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions on the S3 error a piece of code answers with. */
final class S3Assertions {
    private S3Assertions() {
    }

    /** Asserts that the call throws {@link S3Exception} with this error, and returns the exception. */
    static S3Exception assertS3Error(ThrowingCallable call, S3Error error) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).as("the S3 error thrown").isInstanceOf(S3Exception.class);
        S3Exception exception = (S3Exception) thrown;
        assertThat(exception.error()).as("S3 error of: " + exception.getMessage()).isEqualTo(error);
        return exception;
    }

    /** Asserts that the call throws {@link S3Exception} with this error and exactly this message. */
    static void assertS3Error(ThrowingCallable call, S3Error error, String message) {
        assertThat(assertS3Error(call, error).getMessage()).as("message of " + error).isEqualTo(message);
    }
}
