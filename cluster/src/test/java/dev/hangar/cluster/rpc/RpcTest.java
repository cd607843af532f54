package dev.hangar.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.layout.NodeId;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RpcTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final NodeId CLIENT = new NodeId("client");
    private static final NodeId SERVER = new NodeId("server");

    private static final RpcSecurity SECURITY = RpcSecurity.of(ClusterSecret.of("rpc-test-secret-0123456789"));

    private final NetworkFaults faults = new NetworkFaults();
    private RpcServer server;
    private RpcClient client;
    private RpcPeer peer;

    @BeforeEach
    void start() throws Exception {
        server = newServer(RpcConfig.defaults(), 0);
        client = new RpcClient(CLIENT, RpcConfig.defaults(), SECURITY, faults);
        peer = new RpcPeer(SERVER, server.address());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private RpcServer newServer(RpcConfig config, int port) throws InterruptedException {
        RpcServer s = new RpcServer(SERVER, config, SECURITY, faults, null);
        s.register("echo", (from, payload) -> CompletableFuture.completedFuture(payload));
        s.register("whoami", (from, payload) ->
                CompletableFuture.completedFuture(from.value().getBytes(StandardCharsets.UTF_8)));
        s.register("fail", (from, payload) -> {
            throw new IllegalStateException("disk on fire");
        });
        s.register("failAsync", (from, payload) ->
                CompletableFuture.failedFuture(new IllegalArgumentException("bad key")));
        s.register("never", (from, payload) -> new CompletableFuture<>());
        s.register("big", (from, payload) -> CompletableFuture.completedFuture(new byte[ByteBuffer.wrap(payload).getInt()]));
        s.start("127.0.0.1", port);
        return s;
    }

    private byte[] call(String method, byte[] payload) throws Exception {
        return client.call(peer, method, payload, TIMEOUT).get(10, TimeUnit.SECONDS);
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        try {
            future.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError("call did not fail but " + e, e);
        }
        throw new AssertionError("call succeeded");
    }

    @Test
    void echoesAndKnowsTheCaller() throws Exception {
        assertThat(call("echo", "hello".getBytes(StandardCharsets.UTF_8))).asString().isEqualTo("hello");
        assertThat(call("echo", new byte[0])).isEmpty();
        assertThat(call("whoami", new byte[0])).asString().isEqualTo("client");
        assertThat(client.calls().count("echo")).isEqualTo(2);
        assertThat(client.calls().snapshot()).containsEntry("whoami", 1L);
    }

    @Test
    void matchesAThousandConcurrentCallsOnOneConnection() {
        List<CompletableFuture<byte[]>> calls = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            calls.add(client.call(peer, "echo", ByteBuffer.allocate(4).putInt(i).array(), TIMEOUT));
        }
        for (int i = 0; i < 1000; i++) {
            assertThat(ByteBuffer.wrap(calls.get(i).join()).getInt()).isEqualTo(i);
        }
        assertThat(client.calls().count("echo")).isEqualTo(1000);
    }

    @Test
    void propagatesHandlerFailures() {
        Throwable thrown = failureOf(client.call(peer, "fail", new byte[0], TIMEOUT));
        assertThat(thrown).isInstanceOf(RpcRemoteException.class).hasMessageContaining("disk on fire");
        assertThat(failureOf(client.call(peer, "failAsync", new byte[0], TIMEOUT)))
                .isInstanceOf(RpcRemoteException.class).hasMessageContaining("bad key");
        assertThat(failureOf(client.call(peer, "nope", new byte[0], TIMEOUT)))
                .isInstanceOf(RpcRemoteException.class).hasMessageContaining("no handler for method nope");
    }

    @Test
    void timesOutWhenTheHandlerNeverAnswers() throws Exception {
        long start = System.nanoTime();
        Throwable thrown = failureOf(client.call(peer, "never", new byte[0], Duration.ofMillis(200)));
        assertThat(thrown).isInstanceOf(RpcTimeoutException.class);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
        // The connection is still fine afterwards.
        assertThat(call("echo", new byte[] {7})).containsExactly(7);
    }

    @Test
    void injectedDelayDelaysTheCall() throws Exception {
        call("echo", new byte[1]); // connect first: the delay is what is measured
        faults.set(CLIENT, SERVER, new NetworkFaults.LinkFaults(Duration.ofMillis(50), Duration.ZERO, 0));
        long start = System.nanoTime();
        call("echo", new byte[1]);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));

        // Both directions: a round trip pays the one-way delay twice.
        faults.delayBetween(CLIENT, SERVER, Duration.ofMillis(30), Duration.ofMillis(10));
        start = System.nanoTime();
        call("echo", new byte[1]);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(60));
    }

    @Test
    void partitionFailsCallsAndHealingRestoresThem() throws Exception {
        call("echo", new byte[1]);
        faults.partition(Set.of(CLIENT), Set.of(SERVER));
        assertThat(failureOf(client.call(peer, "echo", new byte[1], Duration.ofMillis(100))))
                .isInstanceOf(RpcTimeoutException.class);
        faults.heal();
        assertThat(call("echo", new byte[] {1})).containsExactly(1);

        // Only the answers lost: the request runs, the caller still times out.
        faults.cut(SERVER, CLIENT);
        assertThat(failureOf(client.call(peer, "echo", new byte[1], Duration.ofMillis(100))))
                .isInstanceOf(RpcTimeoutException.class);
        faults.clear();
        faults.set(CLIENT, SERVER, new NetworkFaults.LinkFaults(Duration.ZERO, Duration.ZERO, 1.0));
        assertThat(failureOf(client.call(peer, "echo", new byte[1], Duration.ofMillis(100))))
                .isInstanceOf(RpcTimeoutException.class);
        faults.clear();
        assertThat(call("echo", new byte[] {2})).containsExactly(2);
    }

    @Test
    void reconnectsAfterTheServerRestarts() throws Exception {
        assertThat(call("echo", new byte[] {1})).containsExactly(1);
        InetSocketAddress address = server.address();
        server.close();
        assertThat(failureOf(client.call(peer, "echo", new byte[1], Duration.ofSeconds(2))))
                .isInstanceOf(RpcException.class);
        server = newServer(RpcConfig.defaults(), address.getPort());
        assertThat(call("echo", new byte[] {2})).containsExactly(2);
    }

    @Test
    void failsAtOnceWhenThePeerIsDown() throws Exception {
        InetSocketAddress address = server.address();
        server.close();
        Throwable thrown = failureOf(client.call(new RpcPeer(SERVER, address), "echo", new byte[1], TIMEOUT));
        assertThat(thrown).isInstanceOf(RpcException.class).isNotInstanceOf(RpcTimeoutException.class)
                .hasMessageContaining("cannot connect");
    }

    @Test
    void refusesFramesAboveTheMaximum() throws Exception {
        byte[] tooLarge = new byte[RpcConfig.DEFAULT_MAX_FRAME_BYTES];
        assertThat(failureOf(client.call(peer, "echo", tooLarge, TIMEOUT)))
                .isInstanceOf(RpcFrameTooLargeException.class).hasMessageContaining("exceeds");
        // A response too large for the frame limit comes back as an error, not a dead connection.
        byte[] ask = ByteBuffer.allocate(4).putInt(RpcConfig.DEFAULT_MAX_FRAME_BYTES).array();
        assertThat(failureOf(client.call(peer, "big", ask, TIMEOUT)))
                .isInstanceOf(RpcRemoteException.class).hasMessageContaining("exceeds the maximum frame");
        assertThat(call("big", ByteBuffer.allocate(4).putInt(1 << 20).array())).hasSize(1 << 20);
    }

    @Test
    void aServerWithASmallerLimitClosesTheConnectionOnAnOversizedFrame() throws Exception {
        RpcServer small = new RpcServer(new NodeId("small"), RpcConfig.defaults().withMaxFrameBytes(1024), SECURITY, faults, null);
        small.register("echo", (from, payload) -> CompletableFuture.completedFuture(payload));
        try {
            RpcPeer smallPeer = new RpcPeer(new NodeId("small"), small.start("127.0.0.1", 0));
            assertThat(failureOf(client.call(smallPeer, "echo", new byte[4096], TIMEOUT)))
                    .isInstanceOf(RpcException.class).isNotInstanceOf(RpcTimeoutException.class);
            assertThat(client.call(smallPeer, "echo", new byte[10], TIMEOUT).join()).hasSize(10);
        } finally {
            small.close();
        }
    }

    @Test
    void backPressureQueuesOrRefusesCallsWhileTheSocketIsFull() throws Exception {
        byte[] chunk = new byte[8 << 20];
        RpcConfig noQueue = new RpcConfig(RpcConfig.DEFAULT_MAX_FRAME_BYTES, 0, 1024, 4096, Duration.ofSeconds(5), 1);
        try (RpcClient strict = new RpcClient(CLIENT, noQueue, SECURITY, faults)) {
            strict.call(peer, "echo", new byte[1], TIMEOUT).get(10, TimeUnit.SECONDS);
            List<CompletableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(strict.call(peer, "echo", chunk, Duration.ofSeconds(20)));
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
            assertThat(calls).anySatisfy(c -> assertThat(failureOf(c)).isInstanceOf(RpcOverloadedException.class));
        }
        // With room to queue, the same burst waits for the socket and completes.
        RpcConfig queued = new RpcConfig(RpcConfig.DEFAULT_MAX_FRAME_BYTES, 16, 1024, 4096, Duration.ofSeconds(5), 1);
        try (RpcClient patient = new RpcClient(CLIENT, queued, SECURITY, faults)) {
            List<CompletableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(patient.call(peer, "echo", chunk, Duration.ofSeconds(20)));
            }
            for (CompletableFuture<byte[]> c : calls) {
                assertThat(c.get(20, TimeUnit.SECONDS)).hasSize(chunk.length);
            }
        }
    }

    @Test
    void aClientQueuesNoMoreBytesThanItsBound() throws Exception {
        byte[] chunk = new byte[8 << 20];
        // Room for plenty of calls by count, for 2 frames of 8 MiB by bytes.
        RpcConfig bounded = new RpcConfig(RpcConfig.DEFAULT_MAX_FRAME_BYTES, 1000, 1024, 4096, Duration.ofSeconds(5), 1)
                .withMaxInFlightBytes(RpcConfig.DEFAULT_MAX_FRAME_BYTES);
        try (RpcClient strict = new RpcClient(CLIENT, bounded, SECURITY, faults)) {
            strict.call(peer, "echo", new byte[1], TIMEOUT).get(10, TimeUnit.SECONDS);
            List<CompletableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(strict.call(peer, "echo", chunk, Duration.ofSeconds(20)));
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
            assertThat(calls).anySatisfy(c -> assertThat(failureOf(c)).isInstanceOf(RpcOverloadedException.class));
        }
    }

    @Test
    void aServerStopsReadingWhileItsRequestsHoldTheirBytesDue() throws Exception {
        List<CompletableFuture<byte[]>> held = new java.util.concurrent.CopyOnWriteArrayList<>();
        RpcServer holding = new RpcServer(new NodeId("holding"),
                RpcConfig.defaults().withMaxInFlightBytes(RpcConfig.DEFAULT_MAX_FRAME_BYTES), SECURITY, faults, null);
        holding.register("hold", (from, payload) -> {
            CompletableFuture<byte[]> answer = new CompletableFuture<>();
            held.add(answer);
            return answer;
        });
        holding.start("127.0.0.1", 0);
        try {
            RpcPeer holdingPeer = new RpcPeer(new NodeId("holding"), holding.address());
            byte[] chunk = new byte[4 << 20];
            List<CompletableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                calls.add(client.call(holdingPeer, "hold", chunk, Duration.ofSeconds(60)));
            }
            // 16 MiB of 4 MiB requests: the server reads four (it notices the bound after the fourth), then stops.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (held.size() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Thread.sleep(1_000);
            assertThat(held).as("requests being handled while the bound is reached").hasSize(4);
            // Answering frees the bytes: the rest are read and handled, four at a time.
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            int answered = 0;
            while (answered < calls.size() && System.nanoTime() < deadline) {
                if (answered < held.size()) {
                    held.get(answered++).complete(new byte[] {1});
                } else {
                    Thread.sleep(20);
                }
            }
            for (CompletableFuture<byte[]> call : calls) {
                assertThat(call.get(30, TimeUnit.SECONDS)).containsExactly(1);
            }
        } finally {
            holding.close();
        }
    }

    @Test
    void closedClientRefusesCalls() {
        client.close();
        assertThatThrownBy(() -> client.call(peer, "echo", new byte[0], TIMEOUT).join())
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(RpcException.class);
    }
}
