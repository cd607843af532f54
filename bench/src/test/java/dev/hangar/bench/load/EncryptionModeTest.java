package dev.hangar.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class EncryptionModeTest {

    @Test
    void readsAListInTheOrderGiven() {
        assertThat(EncryptionMode.parseList("sse-c,plain")).containsExactly(EncryptionMode.SSE_C, EncryptionMode.PLAIN);
        assertThat(EncryptionMode.parseList(" PLAIN , sse-c,SSE-S3")).containsExactly(EncryptionMode.PLAIN, EncryptionMode.SSE_C,
            EncryptionMode.SSE_S3);
        assertThat(new EncryptionMode.ListConverter().convert("sse-s3")).containsExactly(EncryptionMode.SSE_S3);
    }

    @Test
    void refusesUnknownEmptyAndRepeatedModes() {
        assertThatThrownBy(() -> EncryptionMode.parseList("plain,sse-kms")).isInstanceOf(TypeConversionException.class)
            .hasMessageContaining("'sse-kms'");
        assertThatThrownBy(() -> EncryptionMode.parseList("plain,,sse-c")).isInstanceOf(TypeConversionException.class)
            .hasMessageContaining("not a mode");
        assertThatThrownBy(() -> EncryptionMode.parseList("sse-c,plain,SSE-C")).isInstanceOf(TypeConversionException.class)
            .hasMessageContaining("given twice: sse-c");
    }
}
