package dev.hangar.cluster.rpc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made at test time with the JDK's own {@code keytool} (no test dependency, nothing
 * checked in): a CA, node certificates it signs, and self-signed certificates that no node trusts.
 * Keys are EC P-256; private keys are written as unencrypted PKCS#8 PEM, the form {@link RpcTls} reads.
 */
public final class TestCertificates {
    private static final String PASSWORD = "test-keystore-password";

    /** A certificate (PEM) and its private key (PKCS#8 PEM). */
    public record Identity(Path certificate, Path privateKey) {}

    private final Path dir;
    private final Path caStore;
    private final Path caCertificate;

    private TestCertificates(Path dir) {
        this.dir = dir;
        this.caStore = dir.resolve("ca.p12");
        this.caCertificate = dir.resolve("ca.pem");
    }

    /** Makes a CA in {@code dir}. */
    public static TestCertificates create(Path dir) {
        TestCertificates certificates = new TestCertificates(dir);
        certificates.keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=hangar test ca", "-ext", "bc:c", "-validity", "2",
                "-keystore", certificates.caStore.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        certificates.keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", certificates.caStore.toString(),
                "-storepass", PASSWORD, "-file", certificates.caCertificate.toString());
        return certificates;
    }

    /** The CA's certificate, to trust. */
    public Path ca() {
        return caCertificate;
    }

    /** A certificate for {@code name} signed by the CA. */
    public Identity signed(String name) {
        Path store = keyPair(name);
        Path request = dir.resolve(name + ".csr");
        Path certificate = dir.resolve(name + ".pem");
        keytool("-certreq", "-alias", name, "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", request.toString());
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", caStore.toString(), "-storepass", PASSWORD,
                "-infile", request.toString(), "-outfile", certificate.toString(), "-validity", "2",
                "-ext", "KeyUsage=digitalSignature", "-ext", "ExtendedKeyUsage=serverAuth,clientAuth");
        return new Identity(certificate, privateKey(store, name));
    }

    /** A self-signed certificate for {@code name}, which chains to nothing a node trusts. */
    public Identity selfSigned(String name) {
        Path store = keyPair(name);
        Path certificate = dir.resolve(name + ".pem");
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", certificate.toString());
        return new Identity(certificate, privateKey(store, name));
    }

    private Path keyPair(String name) {
        Path store = dir.resolve(name + ".p12");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
        return store;
    }

    private Path privateKey(Path store, String alias) {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, PASSWORD.toCharArray());
            Key key = keys.getKey(alias, PASSWORD.toCharArray());
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                    + "\n-----END PRIVATE KEY-----\n";
            Path file = dir.resolve(alias + ".key");
            Files.writeString(file, pem, StandardCharsets.US_ASCII);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private void keytool(String... arguments) {
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
