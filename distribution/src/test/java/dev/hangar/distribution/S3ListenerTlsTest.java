package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.web.server.Ssl;

class S3ListenerTlsTest {
    @TempDir
    Path dir;

    @Test
    void withoutHangarsKeysSpringBootsOwnSettingsStay() {
        assertThat(S3ListenerTls.of(new HangarProperties.S3Tls(null, null), null)).isNull();
        assertThat(S3ListenerTls.of(new HangarProperties.S3Tls(null, null), Ssl.forBundle("operators"))).isNull();
    }

    @Test
    void bothFilesGiveSpringBootsPemSettings() throws IOException {
        Path certificate = Files.writeString(dir.resolve("server.pem"), "certificate");
        Path key = Files.writeString(dir.resolve("server.key"), "key");

        Ssl ssl = S3ListenerTls.of(new HangarProperties.S3Tls(certificate, key), null);

        assertThat(ssl).isNotNull();
        assertThat(ssl.isEnabled()).isTrue();
        assertThat(ssl.getCertificate()).isEqualTo("file:" + certificate.toAbsolutePath());
        assertThat(ssl.getCertificatePrivateKey()).isEqualTo("file:" + key.toAbsolutePath());
    }

    @Test
    void oneFileWithoutTheOtherIsRefused() throws IOException {
        Path certificate = Files.writeString(dir.resolve("server.pem"), "certificate");

        assertThatThrownBy(() -> S3ListenerTls.of(new HangarProperties.S3Tls(certificate, null), null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("hangar.s3.tls.private-key");
        assertThatThrownBy(() -> S3ListenerTls.of(new HangarProperties.S3Tls(null, certificate), null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("hangar.s3.tls.certificate");
    }

    @Test
    void aMissingFileIsNamed() throws IOException {
        Path key = Files.writeString(dir.resolve("server.key"), "key");
        Path missing = dir.resolve("absent.pem");

        assertThatThrownBy(() -> S3ListenerTls.of(new HangarProperties.S3Tls(missing, key), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("hangar.s3.tls.certificate").hasMessageContaining(missing.toString());
    }

    @Test
    void hangarsKeysAndServerSslTogetherAreRefused() throws IOException {
        Path certificate = Files.writeString(dir.resolve("server.pem"), "certificate");
        Path key = Files.writeString(dir.resolve("server.key"), "key");
        Ssl disabled = new Ssl();
        disabled.setEnabled(false);

        assertThatThrownBy(() -> S3ListenerTls.of(new HangarProperties.S3Tls(certificate, key),
                Ssl.forBundle("operators"))).isInstanceOf(IllegalStateException.class).hasMessageContaining("server.ssl");
        assertThat(S3ListenerTls.of(new HangarProperties.S3Tls(certificate, key), disabled)).isNotNull();
    }
}
