package dev.hangar.s3api.xml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Request bodies for the parser tests, and the one way a parser may refuse them. */
final class RequestBodies {
    static final String NAMESPACE = " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"";

    private RequestBodies() {}

    static InputStream body(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Asserts that parsing fails with MalformedXML and a message that says why. */
    static void assertMalformed(ThrowingCallable parse, String detail) {
        assertThatThrownBy(parse)
                .isInstanceOfSatisfying(S3Exception.class, exception -> {
                    assertThat(exception.error()).isEqualTo(S3Error.MALFORMED_XML);
                    assertThat(exception.getMessage()).startsWith(S3Error.MALFORMED_XML.message()).contains(detail);
                });
    }

    /** The bytes of a rendered document as a request body, for round trips. */
    static InputStream body(byte[] document) {
        return new ByteArrayInputStream(document);
    }

    /** Asserts that parsing fails with that error and a message that holds the detail. */
    static void assertRefused(ThrowingCallable parse, S3Error error, String detail) {
        assertThatThrownBy(parse)
                .isInstanceOfSatisfying(S3Exception.class, exception -> {
                    assertThat(exception.error()).isEqualTo(error);
                    assertThat(exception.getMessage()).contains(detail);
                });
    }
}
