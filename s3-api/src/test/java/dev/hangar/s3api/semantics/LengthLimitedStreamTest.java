package dev.hangar.s3api.semantics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.auth.PayloadVerificationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class LengthLimitedStreamTest {

    @Test
    void readsABodyUpToTheLimit() throws IOException {
        LengthLimitedStream in = new LengthLimitedStream(body(10), 10, "too large");

        assertThat(in.readAllBytes()).hasSize(10);
        assertThat(in.count()).isEqualTo(10);
    }

    @Test
    void failsWithEntityTooLargeOnTheReadThatPassesTheLimit() throws IOException {
        LengthLimitedStream in = new LengthLimitedStream(body(11), 10, "too large");
        assertThat(in.readNBytes(10)).hasSize(10);

        assertThatThrownBy(in::read)
                .isInstanceOfSatisfying(PayloadVerificationException.class,
                        e -> assertThat(e.error()).isEqualTo(S3Error.ENTITY_TOO_LARGE))
                .hasMessage("too large");
    }

    @Test
    void failsOnABulkReadToo() {
        LengthLimitedStream in = new LengthLimitedStream(body(100), 10, "too large");

        assertThatThrownBy(in::readAllBytes).isInstanceOf(PayloadVerificationException.class);
    }

    private static InputStream body(int size) {
        return new ByteArrayInputStream(new byte[size]);
    }
}
