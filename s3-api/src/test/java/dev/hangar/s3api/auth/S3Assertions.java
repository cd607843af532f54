package dev.hangar.s3api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions on the S3 error a piece of code answers with. */
final class S3Assertions {
    private S3Assertions() {
    }

    /** Asserts that the call throws {@link S3Exception} with this error, and returns its message. */
    static String assertS3Error(ThrowingCallable call, S3Error error) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).as("the S3 error thrown").isInstanceOf(S3Exception.class);
        assertThat(((S3Exception) thrown).error()).as("S3 error of: " + thrown.getMessage()).isEqualTo(error);
        return thrown.getMessage();
    }

    /** Asserts that reading the body throws {@link PayloadVerificationException} with this error; its message. */
    static String assertPayloadError(ThrowingCallable call, S3Error error) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).as("the payload error thrown").isInstanceOf(PayloadVerificationException.class);
        assertThat(((PayloadVerificationException) thrown).error())
                .as("S3 error of: " + thrown.getMessage()).isEqualTo(error);
        return thrown.getMessage();
    }
}
