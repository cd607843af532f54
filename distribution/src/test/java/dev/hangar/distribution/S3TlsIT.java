package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.distribution.support.S3Clients;
import dev.hangar.distribution.support.SelfSignedCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code hangar.s3.tls.certificate} and {@code hangar.s3.tls.private-key}: the S3 port speaks TLS with the PEM
 * certificate given, the SDK works over https with it, plain HTTP to the port gets no S3 answer, the listener's
 * own handlers still work behind the handshake, and the management port stays plain HTTP; Spring Boot's own
 * {@code server.ssl.bundle} works instead. Whether S3 requests are secure is seen through {@code aws:SecureTransport}
 * here; SSE-C's own tests check what it takes over TLS and refuses over HTTP.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3TlsIT {
    private static final String ACCESS_KEY = "HANGARTLSITKEY000001";
    private static final String SECRET_KEY = "hangar-tls-it-secret-0123456789abcdefghij";
    private static final Duration HEADERS = Duration.ofSeconds(2);
    private static final Duration MARGIN = Duration.ofSeconds(5);

    private Path work;
    private SelfSignedCertificate certificate;
    private DedicatedServer server;
    private S3Client s3;

    @BeforeAll
    void start() throws IOException {
        work = Files.createTempDirectory(Files.createDirectories(Path.of("target", "tls-it")).toAbsolutePath(), "");
        certificate = SelfSignedCertificate.create(work);
        server = DedicatedServer.startWithKeys(work.resolve("data"), ACCESS_KEY, SECRET_KEY,
                "s3.tls.certificate=" + certificate.certificate(), "s3.tls.private-key=" + certificate.privateKey(),
                "http.header-timeout=" + HEADERS.toSeconds() + "s");
        s3 = S3Clients.sync(https(), ACCESS_KEY, SECRET_KEY, true, builder -> builder.httpClientBuilder(
                ApacheHttpClient.builder().tlsTrustManagersProvider(certificate::trustManagers)));
    }

    @AfterAll
    void stop() {
        if (s3 != null) {
            s3.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theSdkPutsAndGetsOverHttps() {
        byte[] content = new byte[3 * 1024 * 1024 / 2];
        new Random(7).nextBytes(content);
        s3.createBucket(request -> request.bucket("secure"));
        // The Apache client sends Expect: 100-continue with the PUT: the interim response comes through TLS too.
        s3.putObject(request -> request.bucket("secure").key("chunked"), RequestBody.fromBytes(content));
        s3.putObject(request -> request.bucket("secure").key("small"), RequestBody.fromString("over tls"));

        assertThat(s3.getObjectAsBytes(request -> request.bucket("secure").key("chunked")).asByteArray())
                .isEqualTo(content);
        assertThat(s3.getObjectAsBytes(request -> request.bucket("secure").key("small")).asUtf8String())
                .isEqualTo("over tls");
    }

    /**
     * SSE-C takes the customer's key over TLS (with {@code hangar.s3.customer-keys-over-http} at its default, false)
     * and refuses it over plain HTTP with S3's 400 InvalidRequest, storing nothing.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void customerKeysAreTakenOverHttpsAndRefusedOverPlainHttp() throws IOException {
        byte[] key = new byte[32];
        new Random(11).nextBytes(key);
        String base64 = java.util.Base64.getEncoder().encodeToString(key);
        String md5;
        try {
            md5 = java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("MD5").digest(key));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        s3.createBucket(request -> request.bucket("sse-c"));
        s3.putObject(request -> request.bucket("sse-c").key("sealed").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(base64).sseCustomerKeyMD5(md5), RequestBody.fromString("sealed over tls"));
        assertThat(s3.getObjectAsBytes(request -> request.bucket("sse-c").key("sealed").sseCustomerAlgorithm("AES256")
                .sseCustomerKey(base64).sseCustomerKeyMD5(md5)).asUtf8String()).isEqualTo("sealed over tls");

        try (DedicatedServer plain = DedicatedServer.startWithKeys(work.resolve("plain-data"), ACCESS_KEY, SECRET_KEY)) {
            S3Client http = plain.s3();
            http.createBucket(request -> request.bucket("sse-c"));
            var refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                    software.amazon.awssdk.services.s3.model.S3Exception.class,
                    () -> http.putObject(request -> request.bucket("sse-c").key("sealed").sseCustomerAlgorithm("AES256")
                            .sseCustomerKey(base64).sseCustomerKeyMD5(md5), RequestBody.fromString("in the clear")));
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
            assertThat(refused.awsErrorDetails().errorMessage()).contains("secure connection");
            assertThatThrownBy(() -> http.headObject(request -> request.bucket("sse-c").key("sealed")))
                    .isInstanceOf(software.amazon.awssdk.services.s3.model.NoSuchKeyException.class);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theServerPresentsTheConfiguredCertificate() throws Exception {
        try (SSLSocket socket = (SSLSocket) certificate.clientContext().getSocketFactory()
                .createSocket("localhost", server.port())) {
            socket.startHandshake();
            Certificate configured;
            try (InputStream in = Files.newInputStream(certificate.certificate())) {
                configured = CertificateFactory.getInstance("X.509").generateCertificate(in);
            }
            assertThat(socket.getSession().getPeerCertificates()[0]).isEqualTo(configured);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void plainHttpToTheTlsPortGetsNoS3Answer() throws IOException {
        // The SDK over http: no answer it could read.
        assertThatThrownBy(() -> server.s3().listBuckets()).isInstanceOf(SdkClientException.class);

        // A plain request on a socket: closed without an HTTP answer.
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] answer;
            try {
                answer = socket.getInputStream().readAllBytes();
            } catch (SocketTimeoutException stillOpen) {
                throw new AssertionError("the connection stayed open 30 s after a plain HTTP request", stillOpen);
            } catch (IOException reset) {
                answer = new byte[0];
            }
            assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotContain("HTTP/");
        }
    }

    /** The header timeout, one of the handlers right after the HTTP codec, still cuts a slowloris behind TLS. */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aSlowlorisOverTlsIsCutAtTheHeaderTimeout() throws Exception {
        try (SSLSocket socket = (SSLSocket) certificate.clientContext().getSocketFactory()
                .createSocket("localhost", server.port())) {
            socket.setSoTimeout(100);
            socket.startHandshake();
            OutputStream out = socket.getOutputStream();
            out.write("GET /secure/small HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long started = System.nanoTime();
            boolean closed = false;
            // A header byte every 300 ms: never idle, never a complete head.
            while (!closed && System.nanoTime() - started < HEADERS.plus(MARGIN).toNanos()) {
                try {
                    out.write('X');
                    out.flush();
                    Thread.sleep(300);
                    closed = closed(socket);
                } catch (IOException reset) {
                    closed = true;
                }
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(closed).as("the slowloris connection was closed").isTrue();
            assertThat(took).as("closed at the header timeout, not before")
                    .isGreaterThanOrEqualTo(HEADERS.minusMillis(500));
        }
    }

    /**
     * A request over TLS is secure to bucket policies: an object readable by anyone only over a secure transport,
     * as S3's documentation shows ({@code aws:SecureTransport}), is read anonymously over https.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aRequestOverTlsIsSecureTransport() throws Exception {
        s3.createBucket(request -> request.bucket("https-only"));
        s3.putObject(request -> request.bucket("https-only").key("page"), RequestBody.fromString("public over tls"));
        s3.putBucketPolicy(request -> request.bucket("https-only").policy("""
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
                  "Resource": "arn:aws:s3:::https-only/*", "Condition": {"Bool": {"aws:SecureTransport": "true"}}}]}"""));
        HttpResponse<String> anonymous = trustingClient().send(HttpRequest.newBuilder(https().resolve("/https-only/page"))
                .timeout(Duration.ofMinutes(1)).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(anonymous.statusCode()).isEqualTo(200);
        assertThat(anonymous.body()).isEqualTo("public over tls");
    }

    /** TLS is the S3 port's only: health probes, {@code hangar admin} and the console keep plain HTTP. */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theManagementPortStaysPlainHttp() {
        assertThat(server.admin().get("/actuator/health").status()).isEqualTo(200);
    }

    /**
     * Spring Boot's own keys work instead of Hangar's: a PEM bundle as {@code server.ssl.bundle}, reloaded when its
     * files change (a renewed certificate without a restart). Spring Boot then puts the management port on TLS
     * too, as configuration.md says.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void springBootsReloadingBundleWorksToo() throws Exception {
        Path files = Files.createDirectories(work.resolve("bundle"));
        Path chain = Files.copy(certificate.certificate(), files.resolve("fullchain.pem"));
        Path key = Files.copy(certificate.privateKey(), files.resolve("privkey.pem"));
        try (DedicatedServer spring = DedicatedServer.startWithKeys(work.resolve("spring"), ACCESS_KEY, SECRET_KEY,
                "--spring.ssl.bundle.pem.s3.reload-on-update=true",
                "--spring.ssl.bundle.pem.s3.keystore.certificate=file:" + chain,
                "--spring.ssl.bundle.pem.s3.keystore.private-key=file:" + key,
                "--spring.ssl.bundle.watch.file.quiet-period=500ms",
                "--server.ssl.bundle=s3");
                S3Client client = S3Clients.sync(URI.create("https://localhost:" + spring.port()), ACCESS_KEY,
                        SECRET_KEY, true, builder -> builder.httpClientBuilder(
                                ApacheHttpClient.builder().tlsTrustManagersProvider(certificate::trustManagers)))) {
            client.createBucket(request -> request.bucket("spring"));
            client.putObject(request -> request.bucket("spring").key("k"), RequestBody.fromString("spring ssl"));
            assertThat(client.getObjectAsBytes(request -> request.bucket("spring").key("k")).asUtf8String())
                    .isEqualTo("spring ssl");
            HttpResponse<String> health = trustingClient().send(HttpRequest.newBuilder(URI.create("https://localhost:"
                    + spring.management().getPort() + "/actuator/health")).timeout(Duration.ofMinutes(1)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).as("health over https on the management port").isEqualTo(200);

            SelfSignedCertificate renewed = SelfSignedCertificate.create(Files.createDirectories(work.resolve("renewed")));
            Files.copy(renewed.privateKey(), key, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(renewed.certificate(), chain, StandardCopyOption.REPLACE_EXISTING);
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (!handshakes(renewed, spring.port())) {
                assertThat(System.nanoTime()).as("the renewed certificate is served within a minute").isLessThan(deadline);
                Thread.sleep(250);
            }
        }
    }

    // Whether a client that trusts only this certificate completes a handshake with the port.
    private static boolean handshakes(SelfSignedCertificate trusted, int port) throws IOException {
        try (SSLSocket socket = (SSLSocket) trusted.clientContext().getSocketFactory().createSocket("localhost", port)) {
            socket.startHandshake();
            return true;
        } catch (SSLHandshakeException untrusted) {
            return false;
        }
    }

    private HttpClient trustingClient() {
        return HttpClient.newBuilder().sslContext(certificate.clientContext()).connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    private URI https() {
        return URI.create("https://localhost:" + server.port());
    }

    // Whether the server closed the connection: a read ends or fails; a read that times out finds it open.
    private static boolean closed(SSLSocket socket) {
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
