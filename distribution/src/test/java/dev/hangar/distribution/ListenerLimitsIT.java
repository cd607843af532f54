package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.RawHttp;
import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The limits of {@code hangar.http.*} on the packaged jar with a 256 MiB heap, set short so that they show within
 * a test: idle connections and clients that never read a large GET neither exhaust the server's memory nor keep
 * other clients out, and are closed by the timeouts; a slowloris client (headers a byte at a time) is cut at the
 * header timeout although it is never idle; a body that stops is cut at the read timeout and stores nothing;
 * requests beyond the concurrency limit are answered {@code 503 SlowDown}; a connection beyond the connection
 * limit gets {@code 503 SlowDown} and is closed, and one beyond its hard cap is closed at accept.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ListenerLimitsIT {
    private static final String ACCESS_KEY = "HANGARLIMITSKEY00001";
    private static final String SECRET_KEY = "hangar-limits-secret-0123456789abcdefghij";
    private static final Duration IDLE = Duration.ofSeconds(4);
    private static final Duration HEADERS = Duration.ofSeconds(3);
    private static final Duration READ = Duration.ofSeconds(6);
    private static final Duration WRITE = Duration.ofSeconds(8);
    /** How much later than its timeout a close may come on a loaded 2-core machine. */
    private static final Duration MARGIN = Duration.ofSeconds(20);
    /** The limited server's limits: requests at once, connections. */
    private static final int CONCURRENT = 8;
    private static final int CONNECTIONS = 20;
    /** Beyond this many connections new ones are closed at accept: the limit and a quarter more, at least 16. */
    private static final int HARD_CAP = CONNECTIONS + 16;
    /** The limited server's management requests at once. */
    private static final int MANAGEMENT_CONCURRENT = 3;
    private static final String ADMIN_TOKEN = "hangar-limits-admin-token-0123456789abcdef";
    private static final int MIB = 1024 * 1024;

    private Path work;
    private PackagedServer server;
    private int websitePort;
    private S3Client s3;
    private PackagedServer limited;
    private S3Client limitedS3;

    @BeforeAll
    void start() throws IOException, InterruptedException {
        work = Files.createTempDirectory(Files.createDirectories(Path.of("target", "limits-it")).toAbsolutePath(), "");
        websitePort = freePort();
        server = PackagedServer.start(work.resolve("data"), "256m", Map.of(
            "HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY, "HANGAR_ROOT_SECRET_KEY", SECRET_KEY,
            "HANGAR_WEBSITE_PORT", Integer.toString(websitePort),
            "HANGAR_HTTP_IDLE_TIMEOUT", IDLE.toSeconds() + "s",
            "HANGAR_HTTP_HEADER_TIMEOUT", HEADERS.toSeconds() + "s",
            "HANGAR_HTTP_READ_TIMEOUT", READ.toSeconds() + "s",
            "HANGAR_HTTP_WRITE_TIMEOUT", WRITE.toSeconds() + "s"), "limits");
        s3 = S3Clients.sync(server.endpoint(), ACCESS_KEY, SECRET_KEY);
        s3.createBucket(request -> request.bucket("limits"));
        // Anyone may read: the non-reading GETs below need no signature.
        s3.putBucketPolicy(request -> request.bucket("limits").policy("""
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
              "Resource": "arn:aws:s3:::limits/*"}]}"""));

        limited = PackagedServer.start(work.resolve("limited"), "128m", Map.of(
            "HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY, "HANGAR_ROOT_SECRET_KEY", SECRET_KEY,
            "HANGAR_HTTP_READ_TIMEOUT", READ.toSeconds() + "s",
            "HANGAR_HTTP_MAX_CONCURRENT_REQUESTS", Integer.toString(CONCURRENT),
            "HANGAR_HTTP_MAX_CONNECTIONS", Integer.toString(CONNECTIONS),
            "HANGAR_HTTP_MANAGEMENT_MAX_CONCURRENT_REQUESTS", Integer.toString(MANAGEMENT_CONCURRENT),
            "HANGAR_ADMIN_TOKEN", ADMIN_TOKEN), "limited");
        limitedS3 = S3Clients.sync(limited.endpoint(), ACCESS_KEY, SECRET_KEY);
        limitedS3.createBucket(request -> request.bucket("limits"));
        limitedS3.putObject(request -> request.bucket("limits").key("small"), RequestBody.fromString("small"));
    }

    @AfterAll
    void stop() throws IOException, InterruptedException {
        for (S3Client client : new S3Client[] {s3, limitedS3}) {
            if (client != null) {
                client.close();
            }
        }
        try {
            if (limited != null) {
                limited.stop();
            }
        } finally {
            PackagedServer.stopAndDelete(server, work);
        }
    }

    @Test
    void idleConnectionsAndClientsThatNeverReadNeitherStarveOthersNorExhaustMemory() throws Exception {
        byte[] large = RandomContent.of(4001, 8 * MIB).bytes();
        s3.putObject(request -> request.bucket("limits").key("large"), RequestBody.fromBytes(large));
        List<Socket> idle = new ArrayList<>();
        List<Socket> nonReading = new ArrayList<>();
        try {
            for (int i = 0; i < 2_000; i++) {
                idle.add(connect(i % 50 == 0 ? server.managementPort() : server.port()));
            }
            for (int i = 0; i < 200; i++) {
                Socket socket = connect(server.port());
                socket.setReceiveBufferSize(4096);
                socket.getOutputStream().write(("GET /limits/large HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
                nonReading.add(socket);
            }

            // Meanwhile a client keeps working, through all of it.
            for (int round = 0; round < 20; round++) {
                int index = round;
                byte[] body = RandomContent.of(4100 + round, 300_000).bytes();
                s3.putObject(request -> request.bucket("limits").key("busy-" + index), RequestBody.fromBytes(body));
                assertThat(s3.getObjectAsBytes(request -> request.bucket("limits").key("busy-" + index)).asByteArray())
                    .isEqualTo(body);
                assertThat(s3.getObjectAsBytes(request -> request.bucket("limits").key("large")).asByteArray())
                    .isEqualTo(large);
            }

            long deadline = System.nanoTime() + IDLE.plus(MARGIN).toNanos();
            for (Socket socket : idle) {
                assertThat(closedBy(socket, deadline)).as("an idle connection to port %d closed within %s",
                    socket.getPort(), IDLE.plus(MARGIN)).isTrue();
            }
            assertThat(server.output()).doesNotContain("OutOfDirectMemoryError").doesNotContain("OutOfMemoryError");
            // The non-reading GETs are abandoned at the write timeout.
            long writeDeadline = System.nanoTime() + WRITE.plus(MARGIN).toNanos();
            while (System.nanoTime() < writeDeadline && countOf(server.output(), "write timeout") < nonReading.size()) {
                Thread.sleep(500);
            }
            assertThat(countOf(server.output(), "write timeout")).as("GETs abandoned at the write timeout")
                .isGreaterThanOrEqualTo(nonReading.size());
        } finally {
            closeAll(idle);
            closeAll(nonReading);
        }
    }

    @Test
    void aSlowlorisIsCutAtTheHeaderTimeoutThoughNeverIdle() throws Exception {
        assertSlowlorisCut(server.port());
    }

    /** The static website listener takes the same timeouts as the S3 port: it is as public. */
    @Test
    void theWebsiteListenerCutsIdleConnectionsAndSlowlorisToo() throws Exception {
        long opened = System.nanoTime() + MARGIN.toNanos();
        while (true) {
            try (Socket probe = connect(websitePort)) {
                break;
            } catch (java.net.ConnectException notYet) {
                assertThat(System.nanoTime()).as("the website port %d opens", websitePort).isLessThan(opened);
                Thread.sleep(200);
            }
        }
        try (Socket idle = connect(websitePort)) {
            long started = System.nanoTime();
            assertThat(closedBy(idle, started + IDLE.plus(MARGIN).toNanos()))
                .as("an idle website connection is closed within %s", IDLE.plus(MARGIN)).isTrue();
            // Nothing sent: the header timeout (3 s) or the idle one (4 s), whichever comes first, not sooner.
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("closed at a timeout, not before")
                .isGreaterThanOrEqualTo(HEADERS.minusMillis(500));
        }
        assertSlowlorisCut(websitePort);
    }

    private static void assertSlowlorisCut(int port) throws Exception {
        try (Socket socket = connect(port)) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /limits/large HTTP/1.1\r\nHost: localhost\r\n".getBytes(StandardCharsets.US_ASCII));
            long started = System.nanoTime();
            boolean closed = false;
            // A header byte every 500 ms: the connection is never idle for the idle timeout.
            for (int i = 0; i < 200 && !closed; i++) {
                try {
                    out.write('X');
                    out.flush();
                    Thread.sleep(500);
                    closed = closedBy(socket, System.nanoTime() + 1_000_000);
                } catch (SocketException reset) {
                    closed = true;
                }
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            assertThat(closed).as("the slowloris connection was closed").isTrue();
            assertThat(took).as("closed after the header timeout").isGreaterThanOrEqualTo(HEADERS.minusMillis(500))
                .isLessThan(HEADERS.plus(MARGIN));
        }
    }

    @Test
    void aBodyThatStopsIsCutAtTheReadTimeoutAndStoresNothing() throws Exception {
        try (Socket socket = connect(server.port())) {
            socket.getOutputStream().write(("PUT /limits/stalled HTTP/1.1\r\nHost: localhost\r\nContent-Length: "
                + MIB + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(new byte[10_000]);
            socket.getOutputStream().flush();
            assertThat(closedBy(socket, System.nanoTime() + READ.plus(MARGIN).toNanos()))
                .as("the stalled upload's connection closed within %s", READ.plus(MARGIN)).isTrue();
        }
        assertThat(s3.listObjectsV2(request -> request.bucket("limits").prefix("stalled")).contents()).isEmpty();
    }

    @Test
    void requestsBeyondTheConcurrencyLimitAreSlowDown() throws Exception {
        List<Socket> holding = new ArrayList<>();
        try (Trickle trickle = new Trickle(holding)) {
            // Signed uploads that send a little of their body, then a byte a second so that the read timeout leaves
            // them be: one more than the limit. Until one of them is refused, which of them are running is unknown
            // (on a loaded machine the server may take a while to reach each); once one is, the others hold every
            // permit.
            RawS3 raw = new RawS3(limited.endpoint(), "us-east-1", ACCESS_KEY, SECRET_KEY, RawS3.newHttpClient());
            for (int i = 0; i <= CONCURRENT; i++) {
                trickle.add(heldUpload(raw, limited.port(), "held-" + i));
            }
            RawHttp.Answer refusedHeld = firstAnswer(holding, System.nanoTime() + MARGIN.toNanos());
            assertThat(refusedHeld).as("one of %d requests beyond %d at once answered", CONCURRENT + 1, CONCURRENT)
                .isNotNull();
            assertThat(refusedHeld.status()).isEqualTo(503);
            RawS3.Response document = raw.send(java.net.http.HttpRequest.newBuilder(
                limited.endpoint().resolve("/limits/small")).GET().build());
            assertThat(document.status()).as("a GET while every permit is held").isEqualTo(503);
            assertThat(document.errorCode()).contains("SlowDown");
        } finally {
            closeAll(holding);
        }
        // Once the held requests end, requests run again.
        long deadline = System.nanoTime() + READ.plus(MARGIN).toNanos();
        boolean served = false;
        while (!served && System.nanoTime() < deadline) {
            try {
                served = limitedS3.headObject(request -> request.bucket("limits").key("small")).contentLength() > 0;
            } catch (software.amazon.awssdk.services.s3.model.S3Exception slowDown) {
                assertThat(slowDown.statusCode()).isEqualTo(503);
                Thread.sleep(200);
            }
        }
        assertThat(served).as("requests served again once the held ones ended").isTrue();
    }

    @Test
    void managementRequestsBeyondTheirLimitAre503() throws Exception {
        int port = limited.managementPort();
        List<Socket> holding = new ArrayList<>();
        try {
            // Administration requests that send a little of their body and wait: one more than the limit. Until one
            // of them is refused, which of them are running is unknown; once one is, the others hold every permit.
            for (int i = 0; i <= MANAGEMENT_CONCURRENT; i++) {
                holding.add(heldAdministration(port));
            }
            RawHttp.Answer refusedHeld = firstAnswer(holding, System.nanoTime() + MARGIN.toNanos());
            assertThat(refusedHeld).as("one of %d requests beyond %d at once answered", MANAGEMENT_CONCURRENT + 1,
                MANAGEMENT_CONCURRENT).isNotNull();
            assertThat(refusedHeld.status()).isEqualTo(503);

            RawHttp.Answer refused = health(port);
            assertThat(refused.status()).as("health while every permit is held").isEqualTo(503);
            assertThat(refused.header("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("application/json"));
            assertThat(refused.bodyText()).contains("management-max-concurrent-requests");
            assertThat(refused.header("Retry-After")).isPresent();
            // The S3 listener's requests are counted apart and still run.
            assertThat(limitedS3.headObject(request -> request.bucket("limits").key("small")).contentLength())
                .isPositive();
        } finally {
            closeAll(holding);
        }
        // Once the held requests end, management requests run again.
        long deadline = System.nanoTime() + READ.plus(MARGIN).toNanos();
        int status = 0;
        while (status != 200 && System.nanoTime() < deadline) {
            status = health(port).status();
            if (status != 200) {
                assertThat(status).isEqualTo(503);
                Thread.sleep(200);
            }
        }
        assertThat(status).as("management requests served again once the held ones ended").isEqualTo(200);
    }

    @Test
    void aConnectionBeyondTheLimitIsSlowDownAndBeyondTheHardCapClosedAtAccept() throws Exception {
        List<Socket> open = new ArrayList<>();
        try {
            // The client's own pooled connection may be one of them: fill up to the limit, then one more.
            while (open.size() < CONNECTIONS) {
                open.add(connect(limited.port()));
            }
            // The server counts a connection when it has taken it from the accept queue, which may be a moment
            // after the client's connect returned: a request on a connection it has not yet counted is served
            // (and, asking for it, closed). Try again until one is counted beyond the limit.
            long deadline = System.nanoTime() + MARGIN.toNanos();
            String answer = "";
            while (!answer.startsWith("HTTP/1.1 503") && System.nanoTime() < deadline) {
                try (Socket extra = connect(limited.port())) {
                    extra.getOutputStream().write(("GET /limits/small HTTP/1.1\r\nHost: localhost:" + limited.port()
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    answer = readUntilClosed(extra, System.nanoTime() + MARGIN.toNanos());
                }
            }
            assertThat(answer).as("the answer to a request on a connection beyond %d", CONNECTIONS)
                .startsWith("HTTP/1.1 503").contains("<Code>SlowDown</Code>").containsIgnoringCase("connection: close");

            // Connections that send nothing hold no more than the hard cap: up to it they wait (for a request or
            // the idle timeout), beyond it they are closed as they are accepted, without a byte.
            while (open.size() < HARD_CAP) {
                open.add(connect(limited.port()));
            }
            boolean closedAtAccept = false;
            while (!closedAtAccept && System.nanoTime() < deadline + MARGIN.toNanos()) {
                Socket beyond = connect(limited.port());
                // Closed at once, or not counted beyond the cap yet: then it holds a place, and the next one tries.
                if (closedWithin(beyond, Duration.ofSeconds(2))) {
                    closedAtAccept = true;
                    beyond.close();
                } else {
                    open.add(beyond);
                }
            }
            assertThat(closedAtAccept).as("a connection beyond %d closed at accept, without a byte", HARD_CAP).isTrue();
        } finally {
            closeAll(open);
        }
        long deadline = System.nanoTime() + MARGIN.toNanos();
        boolean served = false;
        while (!served && System.nanoTime() < deadline) {
            try {
                served = limitedS3.headObject(request -> request.bucket("limits").key("small")).contentLength() > 0;
            } catch (RuntimeException stillFull) {
                Thread.sleep(200);
            }
        }
        assertThat(served).as("new connections are taken once the others closed").isTrue();
    }

    /** Whether the server closed the connection within {@code wait} without sending anything. */
    private static boolean closedWithin(Socket socket, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        InputStream in = socket.getInputStream();
        while (System.nanoTime() < deadline) {
            try {
                int read = in.read();
                if (read >= 0) {
                    throw new AssertionError("a connection beyond the hard cap was sent a byte: " + (char) read);
                }
                return true;
            } catch (SocketTimeoutException nothingYet) {
                // still open
            } catch (SocketException reset) {
                return true;
            }
        }
        return false;
    }

    /** What the server sent until it closed the connection; fails if it is still open at the deadline. */
    private static String readUntilClosed(Socket socket, long deadlineNanos) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        while (System.nanoTime() < deadlineNanos) {
            try {
                int read = in.read(buffer);
                if (read < 0) {
                    return received.toString(StandardCharsets.UTF_8);
                }
                received.write(buffer, 0, read);
            } catch (SocketTimeoutException nothingYet) {
                // still open
            } catch (SocketException reset) {
                return received.toString(StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("the connection was still open after " + MARGIN + "; received: " + received);
    }

    /** A signed PUT of 100,000 bytes that sends 1,000 of them and waits, holding its request open. */
    private static Socket heldUpload(RawS3 raw, int port, String key) throws IOException {
        byte[] body = new byte[100_000];
        SignedRequest signed = raw.sign(raw.request(SdkHttpMethod.PUT, "/limits/" + key).build(), body,
            properties -> { });
        StringBuilder head = new StringBuilder("PUT /limits/" + key + " HTTP/1.1\r\nHost: localhost:" + port
            + "\r\nContent-Length: " + body.length + "\r\n");
        signed.request().headers().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                head.append(name).append(": ").append(String.join(",", values)).append("\r\n");
            }
        });
        Socket socket = connect(port);
        OutputStream out = socket.getOutputStream();
        out.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        out.write(body, 0, 1_000);
        out.flush();
        return socket;
    }

    /** An authenticated key creation that sends 10 of its 10,000 body bytes and waits, holding its request open. */
    private static Socket heldAdministration(int port) throws IOException {
        Socket socket = connect(port);
        OutputStream out = socket.getOutputStream();
        out.write(("POST /actuator/accesskeys HTTP/1.1\r\nHost: localhost:" + port + "\r\nAuthorization: Bearer "
            + ADMIN_TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{\"name\": \"")
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** The first answer one of the sockets receives (read until that one closes), or null by the deadline. */
    private static RawHttp.Answer firstAnswer(List<Socket> sockets, long deadlineNanos) throws IOException {
        byte[] buffer = new byte[8192];
        do {
            for (Socket socket : sockets) {
                socket.setSoTimeout(50);
                int read;
                try {
                    read = socket.getInputStream().read(buffer);
                } catch (SocketTimeoutException nothingYet) {
                    continue;
                }
                ByteArrayOutputStream received = new ByteArrayOutputStream();
                // The refusal closes its connection: read the rest until then.
                socket.setSoTimeout(5_000);
                try {
                    for (; read >= 0; read = socket.getInputStream().read(buffer)) {
                        received.write(buffer, 0, read);
                    }
                } catch (SocketException reset) {
                    // the answer came before the reset
                }
                return RawHttp.parse(received.toByteArray());
            }
        } while (System.nanoTime() < deadlineNanos);
        return null;
    }

    private static RawHttp.Answer health(int port) {
        return RawHttp.exchange(port, RawHttp.request("GET /actuator/health HTTP/1.1\r\nHost: localhost:" + port
            + "\r\nConnection: close\r\n\r\n", new byte[0]));
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(1_000);
        return socket;
    }

    /** Whether the server closed the connection before the deadline: a read ends or the connection resets. */
    private static boolean closedBy(Socket socket, long deadlineNanos) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] drain = new byte[64 * 1024];
        do {
            try {
                if (in.read(drain) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException nothingYet) {
                // still open
            } catch (SocketException reset) {
                return true;
            }
        } while (System.nanoTime() < deadlineNanos);
        return false;
    }

    private static int countOf(String text, String needle) {
        int count = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length())) {
            count++;
        }
        return count;
    }

    /**
     * Sends one more body byte a second on each held request, so that the read timeout does not end them while a
     * loaded machine is slow to answer the one beyond the limit.
     */
    private static final class Trickle implements AutoCloseable {
        private final List<Socket> sockets;
        private final Thread thread;

        Trickle(List<Socket> sockets) {
            this.sockets = sockets;
            this.thread = Thread.ofPlatform().daemon().name("trickle").start(this::run);
        }

        synchronized void add(Socket socket) {
            sockets.add(socket);
        }

        private void run() {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(1_000);
                    synchronized (this) {
                        for (Socket socket : sockets) {
                            try {
                                socket.getOutputStream().write(0);
                                socket.getOutputStream().flush();
                            } catch (IOException answeredOrClosed) {
                                // the refused request's connection is closed; the others go on
                            }
                        }
                    }
                }
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() throws InterruptedException {
            thread.interrupt();
            thread.join();
        }
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing is best effort
            }
        }
    }
}
