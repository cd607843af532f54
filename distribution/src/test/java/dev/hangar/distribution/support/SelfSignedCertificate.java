package dev.hangar.distribution.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed server certificate for {@code localhost} and 127.0.0.1, made at test time with the JDK's own
 * {@code keytool} (no test dependency, nothing checked in), written as the PEM files an operator has: the
 * certificate, and its EC P-256 private key as unencrypted PKCS#8. Clients trust it alone.
 *
 * @param certificate the certificate, PEM
 * @param privateKey its private key, PEM
 * @param trusted a key store holding the certificate as the one trusted entry
 */
public record SelfSignedCertificate(Path certificate, Path privateKey, KeyStore trusted) {
    private static final String PASSWORD = "test-keystore-password";
    private static final String ALIAS = "hangar";

    /** Makes a certificate in {@code dir}. */
    public static SelfSignedCertificate create(Path dir) {
        Path store = dir.resolve("server.p12");
        Path certificate = dir.resolve("server.pem");
        keytool("-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-keystore", store.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", ALIAS, "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", certificate.toString());
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, PASSWORD.toCharArray());
            Path privateKey = dir.resolve("server.key");
            Files.writeString(privateKey, "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                            .encodeToString(keys.getKey(ALIAS, PASSWORD.toCharArray()).getEncoded())
                    + "\n-----END PRIVATE KEY-----\n", StandardCharsets.US_ASCII);
            Certificate issued = keys.getCertificate(ALIAS);
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry(ALIAS, issued);
            return new SelfSignedCertificate(certificate, privateKey, trusted);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Trust managers that trust this certificate and nothing else. */
    public TrustManager[] trustManagers() {
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trusted);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A client TLS context that trusts this certificate and nothing else. */
    public SSLContext clientContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void keytool(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        command.add("-noprompt");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + String.join(" ", arguments) + " failed: "
                        + new String(output, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
