package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Starting proxies on loopback and connecting through them, for the tests. */
final class Proxies {

    static final String TARGET_ZONE = "target";

    private Proxies() {
    }

    /** A proxy on a free loopback port in front of {@code targetPort}, with the given delay table and zone rules. */
    static ProxyConfig config(int targetPort, DelayTable delays, List<String> zoneRules) {
        return ProxyConfig.of(List.of(new ListenerSpec(0, "127.0.0.1", targetPort, TARGET_ZONE)),
            ZoneMap.parse(zoneRules, "client"), delays).withSeed(42);
    }

    /** Every direction gets {@code delay}. */
    static ProxyConfig config(int targetPort, String delay) {
        return config(targetPort, DelayTable.parse(List.of(), OneWayDelay.parse(delay, Jitter.UNIFORM), Jitter.UNIFORM), List.of());
    }

    static ProxyServer start(ProxyConfig config) throws IOException {
        return ProxyServer.start(config, new ProxyLog() {
            @Override
            public void connection(String event) {
            }

            @Override
            public void problem(String event) {
                System.out.println("proxy: " + event);
            }
        });
    }

    /** A client socket from {@code sourceAddress} (any 127.x.y.z works on Linux loopback) to the proxy's first port. */
    static Socket connect(ProxyServer proxy, String sourceAddress) throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.bind(new InetSocketAddress(InetAddress.getByName(sourceAddress), 0));
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.ports().getFirst()), 10_000);
        socket.setSoTimeout(30_000);
        return socket;
    }

    static Socket connect(ProxyServer proxy) throws IOException {
        return connect(proxy, "127.0.0.1");
    }

    /**
     * Makes sure both directions of a proxied connection carry bytes (so the proxy has connected to
     * the target and started its pipes) by sending one byte each way.
     */
    static void exchangeOneByte(Socket client, Socket server) throws IOException {
        client.getOutputStream().write('c');
        server.setSoTimeout(30_000);
        assertThat(server.getInputStream().read()).as("the byte from the client").isEqualTo('c');
        server.getOutputStream().write('s');
        assertThat(client.getInputStream().read()).as("the byte from the target").isEqualTo('s');
    }

    /**
     * Connects to the proxy and expects a reset. It may come while {@code connect} waits for the
     * handshake to finish (a connect with a timeout checks the socket's error afterwards) or at the
     * first read.
     */
    static void assertResetOnConnectOrRead(ProxyServer proxy, String what) throws IOException {
        Socket socket;
        try {
            socket = connect(proxy);
        } catch (SocketException e) {
            assertThat(e).as(what).hasMessageContaining("reset");
            return;
        }
        try (socket) {
            assertThatThrownBy(() -> socket.getInputStream().read()).as(what).isInstanceOf(SocketException.class);
        }
    }

    /** Polls {@code condition} until it holds or {@code timeout} passes; then fails with {@code what}. */
    static void awaitTrue(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what);
            }
            Thread.sleep(10);
        }
    }
}
