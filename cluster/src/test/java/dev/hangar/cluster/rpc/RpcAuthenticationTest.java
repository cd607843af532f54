package dev.hangar.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The handshake on real loopback sockets: a server of cluster {@code cluster-a} and, against it, real
 * clients with the right or wrong secret or cluster id, and a hand-written client ({@link WireClient})
 * that skips, garbles or replays parts of the handshake. The server's handlers count every call they
 * get: a refused peer must never reach one.
 */
@Timeout(60)
class RpcAuthenticationTest {
    private static final String SECRET_TEXT = "authentication-test-secret-01";
    private static final ClusterSecret SECRET = ClusterSecret.of(SECRET_TEXT);
    private static final ClusterSecret WRONG = ClusterSecret.of("a-different-cluster-secret-02");
    private static final NodeId CLIENT = new NodeId("client");
    private static final NodeId SERVER = new NodeId("server");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** Short, so that the silent client's test does not wait 10 s; still far above a loopback handshake. */
    private static final RpcConfig CONFIG = RpcConfig.defaults().withHandshakeTimeout(Duration.ofSeconds(1));

    private final NetworkFaults faults = new NetworkFaults();
    private final AtomicInteger handled = new AtomicInteger();
    private RpcServer server;
    private RpcPeer peer;

    @BeforeEach
    void start() throws Exception {
        server = new RpcServer(SERVER, CONFIG, new RpcSecurity(SECRET, null, () -> "cluster-a"), faults, null);
        server.register("whoami", (from, payload) -> {
            handled.incrementAndGet();
            return CompletableFuture.completedFuture(from.value().getBytes(StandardCharsets.UTF_8));
        });
        server.start("127.0.0.1", 0);
        peer = new RpcPeer(SERVER, server.address());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RpcClient client(ClusterSecret secret, String clusterId) {
        return new RpcClient(CLIENT, CONFIG, new RpcSecurity(secret, null, () -> clusterId), faults);
    }

    private static Throwable failureOf(CompletableFuture<?> future) throws Exception {
        try {
            future.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("call succeeded");
    }

    @Test
    void membersOfTheClusterAndNodesWithoutOneGetIn() throws Exception {
        for (String clusterId : List.of("cluster-a", "")) {
            try (RpcClient client = client(SECRET, clusterId)) {
                byte[] answer = client.call(peer, "whoami", new byte[0], TIMEOUT).get(20, TimeUnit.SECONDS);
                // The id the handler sees is the one the client proved.
                assertThat(answer).asString().isEqualTo("client");
            }
        }
        assertThat(handled).hasValue(2);
    }

    @Test
    void aClientWithTheWrongSecretIsClosedUnansweredAndLogged() throws Exception {
        try (LogCapture log = LogCapture.of(RpcServer.class); RpcClient client = client(WRONG, "cluster-a")) {
            Throwable failure = failureOf(client.call(peer, "whoami", new byte[0], TIMEOUT));
            assertThat(failure).isInstanceOf(RpcException.class).isNotInstanceOf(RpcTimeoutException.class)
                    .hasMessageContaining("cannot connect").hasMessageContaining("handshake");
            awaitWarning(log, "failed the cluster secret challenge");
            assertThat(log.warnings()).allSatisfy(w -> assertThat(w).contains("127.0.0.1").doesNotContain(SECRET_TEXT));
        }
        assertThat(handled).hasValue(0);
    }

    @Test
    void aClientOfAnotherClusterIsRefusedEvenWithTheRightSecret() throws Exception {
        try (RpcClient client = client(SECRET, "cluster-b")) {
            assertThat(failureOf(client.call(peer, "whoami", new byte[0], TIMEOUT))).isInstanceOf(RpcException.class);
        }
        // By hand: the server does not even send its challenge to a hello of another cluster.
        try (LogCapture log = LogCapture.of(RpcServer.class);
                WireClient attacker = new WireClient(server.address())) {
            assertThat(attacker.authenticate(SECRET, "intruder", "cluster-b")).isEmpty();
            attacker.request(1, "whoami", new byte[0]);
            assertThat(attacker.readUntilClosed()).isEmpty();
            awaitWarning(log, "of cluster cluster-b");
        }
        assertThat(handled).hasValue(0);
    }

    /**
     * Connections still in their handshake are bounded (here 3 from one address): one more is closed at once,
     * long before the handshake timeout, while authenticated connections hold no slot and a slot comes back
     * when its connection ends.
     */
    @Test
    void connectionsStillAuthenticatingAreBounded() throws Exception {
        RpcConfig patient = RpcConfig.defaults().withHandshakeTimeout(Duration.ofSeconds(60));
        try (RpcServer bounded = new RpcServer(SERVER, patient, new RpcSecurity(SECRET, null, () -> "cluster-a"),
                faults, null).handshakeSlots(100, 3);
                LogCapture log = LogCapture.of(RpcServer.class);
                RpcClient member = new RpcClient(CLIENT, patient, new RpcSecurity(SECRET, null, () -> "cluster-a"),
                        faults)) {
            bounded.register("whoami", (from, payload) -> CompletableFuture.completedFuture(
                    from.value().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            bounded.start("127.0.0.1", 0);
            RpcPeer boundedPeer = new RpcPeer(SERVER, bounded.address());
            assertThat(member.call(boundedPeer, "whoami", new byte[0], TIMEOUT).get(20, TimeUnit.SECONDS))
                    .asString().isEqualTo("client");

            List<WireClient> silent = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    WireClient client = new WireClient(bounded.address());
                    silent.add(client);
                    // Taken a slot, not refused: the server answers its hello with a challenge.
                    client.hello("silent-" + i, "cluster-a");
                    assertThat(client.read()).hasValueSatisfying(f -> assertThat(f.kind()).isEqualTo(WireClient.CHALLENGE));
                }
                long start = System.nanoTime();
                try (WireClient oneTooMany = new WireClient(bounded.address())) {
                    oneTooMany.hello("one-too-many", "cluster-a");
                    assertThat(oneTooMany.readUntilClosed()).isEmpty();
                }
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused at once, not at the 60 s timeout")
                        .isLessThan(Duration.ofSeconds(30));
                awaitWarning(log, "too many connections still authenticating");
                // The authenticated connection still answers.
                assertThat(member.call(boundedPeer, "whoami", new byte[0], TIMEOUT).get(20, TimeUnit.SECONDS))
                        .asString().isEqualTo("client");
            } finally {
                for (WireClient client : silent) {
                    client.close();
                }
            }
            // Their slots come back when they close: a new member gets in.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try (RpcClient another = new RpcClient(new NodeId("another"), patient,
                        new RpcSecurity(SECRET, null, () -> "cluster-a"), faults)) {
                    assertThat(another.call(boundedPeer, "whoami", new byte[0], TIMEOUT).get(20, TimeUnit.SECONDS))
                            .asString().isEqualTo("another");
                    break;
                } catch (ExecutionException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("no handshake slot came back after the silent clients closed", notYet);
                    }
                    Thread.sleep(200);
                }
            }
        }
    }

    @Test
    void requestsBeforeTheHandshakeCloseTheConnectionUnanswered() throws Exception {
        try (WireClient attacker = new WireClient(server.address())) {
            attacker.request(1, "whoami", new byte[0]);
            attacker.request(2, "whoami", new byte[0]);
            assertThat(attacker.readUntilClosed()).isEmpty();
        }
        // The old protocol: a hello that only names a node, then requests.
        try (WireClient attacker = new WireClient(server.address())) {
            attacker.send(WireClient.HELLO, 0, "server", new byte[0]);
            attacker.request(1, "whoami", new byte[0]);
            assertThat(attacker.readUntilClosed()).isEmpty();
        }
        // A proper hello, then a made-up proof with a request right behind it: only the challenge comes back.
        try (WireClient attacker = new WireClient(server.address())) {
            attacker.hello("intruder", "");
            attacker.send(WireClient.PROOF, 0, "", new byte[Handshake.PROOF_BYTES]);
            attacker.request(1, "whoami", new byte[0]);
            assertThat(attacker.readUntilClosed()).extracting(WireClient.Frame::kind).containsExactly(WireClient.CHALLENGE);
        }
        assertThat(handled).hasValue(0);
    }

    @Test
    void aRecordedProofIsWorthNothingOnAnotherConnection() throws Exception {
        byte[] recorded;
        try (WireClient member = new WireClient(server.address())) {
            member.hello("client", "cluster-a");
            WireClient.Frame challenge = member.read().orElseThrow();
            recorded = member.proof(SECRET, challenge);
            member.send(WireClient.PROOF, 0, "", recorded);
            assertThat(member.read()).hasValueSatisfying(f -> assertThat(f.kind()).isEqualTo(WireClient.PROOF));
            member.request(7, "whoami", new byte[0]);
            assertThat(member.read()).hasValueSatisfying(f -> assertThat(f.kind()).isEqualTo(WireClient.RESPONSE));
        }
        try (WireClient replay = new WireClient(server.address())) {
            replay.hello("client", "cluster-a");
            assertThat(replay.read()).isPresent(); // a fresh challenge, which the recording does not answer
            replay.send(WireClient.PROOF, 0, "", recorded);
            replay.request(8, "whoami", new byte[0]);
            assertThat(replay.readUntilClosed()).isEmpty();
        }
        assertThat(handled).hasValue(1);
    }

    @Test
    void aProofIsBoundToItsRole() {
        Handshake.Transcript transcript = new Handshake.Transcript(
                new Handshake.Hello(CLIENT, Handshake.nonce(), ""),
                new Handshake.Challenge(SERVER, Handshake.nonce(), "cluster-a"));
        RpcFrame clientProof = Handshake.proof(SECRET, Handshake.Role.CLIENT, transcript);
        assertThat(Handshake.verify(SECRET, Handshake.Role.CLIENT, transcript, clientProof)).isTrue();
        // Reflected back as the server's proof, or checked with another secret, it fails.
        assertThat(Handshake.verify(SECRET, Handshake.Role.SERVER, transcript, clientProof)).isFalse();
        assertThat(Handshake.verify(WRONG, Handshake.Role.CLIENT, transcript, clientProof)).isFalse();
    }

    @Test
    void oversizedAndSilentPeersAreClosed() throws Exception {
        try (WireClient attacker = new WireClient(server.address())) {
            // A 1 MiB frame announced before authenticating: refused from its length prefix.
            attacker.sendRaw(ByteBuffer.allocate(8).putInt(1 << 20).putInt(0).array());
            assertThat(attacker.readUntilClosed()).isEmpty();
        }
        long start = System.nanoTime();
        try (WireClient silent = new WireClient(server.address())) {
            assertThat(silent.readUntilClosed()).isEmpty();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }

    /**
     * A server that does not know the secret: it challenges like a real one and answers the client's
     * proof with a proof of its own making. The client must refuse it and send it no request.
     */
    @Test
    void aServerWithoutTheSecretGetsNoRequest() throws Exception {
        AtomicReference<Integer> requestsSeen = new AtomicReference<>();
        try (ServerSocket rogue = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (Socket socket = rogue.accept()) {
                    socket.setSoTimeout(10_000);
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                    readFrame(in); // hello
                    writeFrame(out, Handshake.challenge(SERVER, Handshake.nonce(), ""));
                    readFrame(in); // the client's proof
                    writeFrame(out, new RpcFrame(RpcFrame.Kind.PROOF, 0, "", new byte[Handshake.PROOF_BYTES]));
                    int requests = 0;
                    try {
                        while (readFrame(in) == RpcFrame.Kind.REQUEST.ordinal()) {
                            requests++;
                        }
                    } catch (IOException closed) {
                        // the client hung up
                    }
                    requestsSeen.set(requests);
                } catch (IOException e) {
                    requestsSeen.set(-1);
                }
            });
            RpcPeer impostor = new RpcPeer(SERVER, new InetSocketAddress("127.0.0.1", rogue.getLocalPort()));
            try (RpcClient client = client(SECRET, "cluster-a")) {
                Throwable failure = failureOf(client.call(impostor, "whoami", new byte[0], TIMEOUT));
                assertThat(failure).hasMessageContaining("failed the cluster secret challenge");
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (requestsSeen.get() == null && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(requestsSeen.get()).isZero();
        }
    }

    /** A call to a known node id goes only to a server that proved that id. */
    @Test
    void aServerThatProvesAnotherIdIsNotCalledUnderThisOne() throws Exception {
        try (RpcClient client = client(SECRET, "cluster-a")) {
            RpcPeer wrongName = new RpcPeer(new NodeId("someone-else"), server.address());
            assertThat(failureOf(client.call(wrongName, "whoami", new byte[0], TIMEOUT)))
                    .hasMessageContaining("is server, not someone-else");
            // A seed, known only by its address, may be any node.
            assertThat(client.call(RpcPeer.seed(server.address()), "whoami", new byte[0], TIMEOUT)
                    .get(20, TimeUnit.SECONDS)).asString().isEqualTo("client");
        }
        assertThat(handled).hasValue(1);
    }

    private static void awaitWarning(LogCapture log, String text) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (log.warnings().stream().noneMatch(w -> w.contains(text))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no warning containing \"" + text + "\" in " + log.warnings());
            }
            Thread.sleep(20);
        }
    }

    private static int readFrame(DataInputStream in) throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        return frame[0];
    }

    private static void writeFrame(DataOutputStream out, RpcFrame frame) throws IOException {
        byte[] method = frame.method().getBytes(StandardCharsets.UTF_8);
        out.writeInt(RpcFrame.FIXED_HEADER_BYTES + method.length + frame.payload().length);
        out.writeByte(frame.kind().ordinal());
        out.writeLong(frame.requestId());
        out.writeShort(method.length);
        out.write(method);
        out.write(frame.payload());
        out.flush();
    }
}
