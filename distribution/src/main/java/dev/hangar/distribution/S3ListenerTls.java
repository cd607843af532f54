package dev.hangar.distribution;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.server.Ssl;

/**
 * TLS on the S3 port from {@code hangar.s3.tls.certificate} and {@code hangar.s3.tls.private-key}: Spring Boot's own
 * SSL support ({@link Ssl} with PEM locations, what {@code server.ssl.certificate} and
 * {@code server.ssl.certificate-private-key} give), set on the S3 listener's factory only. Spring Boot copies
 * {@code server.ssl.*} onto the management port as well; this does not, so probes, {@code hangar admin} and the
 * console keep their plain HTTP port.
 *
 * <p>The handshake sits before Reactor Netty's HTTP codec, so the handlers Hangar puts right after the codec
 * (listener limits, interim responses, reads after a response) see the same decrypted requests as without TLS.
 */
final class S3ListenerTls {
    private S3ListenerTls() {
    }

    /**
     * The S3 listener's SSL settings from Hangar's keys; null when neither is set, which leaves Spring Boot's
     * {@code server.ssl.*} (null too unless set) in force.
     *
     * @param springSsl what {@code server.ssl.*} say: both ways at once would leave one of them silently unused
     */
    static @Nullable Ssl of(HangarProperties.S3Tls tls, @Nullable Ssl springSsl) {
        if (tls.certificate() == null && tls.privateKey() == null) {
            return null;
        }
        if (tls.certificate() == null || tls.privateKey() == null) {
            throw new IllegalStateException("hangar.s3.tls.certificate and hangar.s3.tls.private-key are set together:"
                    + " TLS on the S3 port needs both");
        }
        if (Ssl.isEnabled(springSsl)) {
            throw new IllegalStateException("TLS on the S3 port is set twice, by hangar.s3.tls.* and by server.ssl.*:"
                    + " keep one");
        }
        Ssl ssl = new Ssl();
        ssl.setCertificate(location("hangar.s3.tls.certificate", tls.certificate()));
        ssl.setCertificatePrivateKey(location("hangar.s3.tls.private-key", tls.privateKey()));
        return ssl;
    }

    // Checked here for a message that names the setting; Spring Boot reads the file when the server starts.
    private static String location(String setting, Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(setting + ": no file " + file.toAbsolutePath());
        }
        return "file:" + file.toAbsolutePath();
    }
}
