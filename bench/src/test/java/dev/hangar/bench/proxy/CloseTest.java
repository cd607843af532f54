package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How connections end. A FIN travels like the bytes before it (after them, and delayed), and the
 * other direction keeps working (half-close, as HTTP/1.0 clients and gRPC's end of stream use it).
 * A reset, an unreachable target, the connection limit and closing the proxy reset the client at
 * once. In every case the proxy forgets the connection.
 */
@Timeout(60)
class CloseTest {

    private static final Duration GENEROUS = Duration.ofSeconds(10);

    @Test
    void aFinFollowsTheDelayedBytesAndTheOtherDirectionStaysOpen() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ProxyServer proxy = Proxies.start(Proxies.config(target.getLocalPort(), "50ms"));
             Socket client = Proxies.connect(proxy);
             Socket server = target.accept()) {
            server.setSoTimeout(30_000);
            long sent = System.nanoTime();
            client.getOutputStream().write(ascii("request"));
            client.shutdownOutput();

            byte[] request = server.getInputStream().readAllBytes();
            long endOfStream = System.nanoTime();
            assertThat(new String(request, StandardCharsets.US_ASCII)).isEqualTo("request");
            assertThat((endOfStream - sent) / 1e6).as("ms from the client's FIN to the target's end of stream").isGreaterThanOrEqualTo(50.0);

            // Half-closed: the target still answers, then ends its side too.
            server.getOutputStream().write(ascii("response"));
            server.shutdownOutput();
            assertThat(new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("response");
            Proxies.awaitTrue(() -> proxy.openConnections() == 0, GENEROUS, "the proxy forgets a connection closed both ways");
        }
    }

    @Test
    void theTargetClosingFirstReachesTheClientAfterItsBytes() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ProxyServer proxy = Proxies.start(Proxies.config(target.getLocalPort(), "20ms"));
             Socket client = Proxies.connect(proxy)) {
            try (Socket server = target.accept()) {
                server.getOutputStream().write(ascii("bye"));
            }
            InputStream in = client.getInputStream();
            assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("bye");
            // The client ends its half too, and the proxy closes both sides.
            client.shutdownOutput();
            Proxies.awaitTrue(() -> proxy.openConnections() == 0, GENEROUS, "the proxy forgets the connection");
        }
    }

    @Test
    void aResetByTheTargetResetsTheClient() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ProxyServer proxy = Proxies.start(Proxies.config(target.getLocalPort(), "20ms"));
             Socket client = Proxies.connect(proxy)) {
            try (Socket server = target.accept()) {
                Proxies.exchangeOneByte(client, server);
                server.setSoLinger(true, 0);
            }
            assertThatThrownBy(() -> client.getInputStream().read()).as("the client's read after the target's reset")
                .isInstanceOf(SocketException.class).hasMessageContaining("reset");
            Proxies.awaitTrue(() -> proxy.openConnections() == 0, GENEROUS, "the proxy forgets a reset connection");
        }
    }

    /** The target writes and resets at once: the client reads the bytes, then the reset, one delay after it happened. */
    @Test
    void aResetTravelsBehindTheBytesBeforeItAndIsDelayed() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ProxyServer proxy = Proxies.start(Proxies.config(target.getLocalPort(), "50ms"));
             Socket client = Proxies.connect(proxy)) {
            long reset;
            try (Socket server = target.accept()) {
                Proxies.exchangeOneByte(client, server);
                server.getOutputStream().write(ascii("last words"));
                server.setSoLinger(true, 0);
                reset = System.nanoTime();
            }
            InputStream in = client.getInputStream();
            assertThat(new String(in.readNBytes(10), StandardCharsets.US_ASCII)).isEqualTo("last words");
            assertThatThrownBy(in::read).as("the client's read after the bytes").isInstanceOf(SocketException.class).hasMessageContaining("reset");
            assertThat((System.nanoTime() - reset) / 1e6).as("ms from the target's reset to the client's").isGreaterThanOrEqualTo(50.0);
            Proxies.awaitTrue(() -> proxy.openConnections() == 0, GENEROUS, "the proxy forgets a reset connection");
        }
    }

    @Test
    void aResetByTheClientResetsTheTarget() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ProxyServer proxy = Proxies.start(Proxies.config(target.getLocalPort(), "20ms"))) {
            Socket client = Proxies.connect(proxy);
            try (Socket server = target.accept()) {
                Proxies.exchangeOneByte(client, server);
                resetAndClose(client);
                assertThatThrownBy(() -> server.getInputStream().read()).as("the target's read after the client's reset")
                    .isInstanceOf(SocketException.class).hasMessageContaining("reset");
            }
            Proxies.awaitTrue(() -> proxy.openConnections() == 0, GENEROUS, "the proxy forgets a reset connection");
        }
    }

    @Test
    void anUnreachableTargetResetsTheClient() throws Exception {
        int closedPort;
        try (ServerSocket gone = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            closedPort = gone.getLocalPort();
        }
        try (ProxyServer proxy = Proxies.start(Proxies.config(closedPort, "0"))) {
            Proxies.assertResetOnConnectOrRead(proxy, "a connection to an unreachable target");
            Proxies.awaitTrue(() -> proxy.openConnections() == 0, GENEROUS, "the proxy forgets the refused connection");
        }
    }

    @Test
    void aConnectionBeyondTheLimitIsResetAndItsSlotComesBack() throws Exception {
        try (TimestampingEchoServer echo = new TimestampingEchoServer(OneWayTimes.MESSAGE_BYTES);
             ProxyServer proxy = Proxies.start(Proxies.config(echo.port(), "0").withLimits(1024 * 1024, 64 * 1024, 2));
             Socket second = Proxies.connect(proxy)) {
            Socket first = Proxies.connect(proxy);
            try {
                OneWayTimes.measure(first, echo, 0, 1);
                OneWayTimes.measure(second, echo, 0, 1);
                Proxies.assertResetOnConnectOrRead(proxy, "a third connection with a limit of 2");
            } finally {
                resetAndClose(first);
            }
            Proxies.awaitTrue(() -> proxy.openConnections() == 1, GENEROUS, "the first connection's slot is free again");
            try (Socket fourth = Proxies.connect(proxy)) {
                OneWayTimes.measure(fourth, echo, 0, 1);
            }
        }
    }

    @Test
    void closingTheProxyResetsOpenConnectionsAndFreesItsPorts() throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            ProxyServer proxy = Proxies.start(Proxies.config(target.getLocalPort(), "0"));
            int port = proxy.ports().getFirst();
            try (Socket client = Proxies.connect(proxy); Socket server = target.accept()) {
                Proxies.exchangeOneByte(client, server);
                proxy.close();
                assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketException.class);
                server.setSoTimeout(30_000);
                assertThatThrownBy(() -> server.getInputStream().read()).isInstanceOf(SocketException.class);
                assertThat(proxy.openConnections()).isZero();
            }
            // The port is free again: another proxy binds it.
            ProxyConfig again = ProxyConfig.of(List.of(new ListenerSpec(port, "127.0.0.1", target.getLocalPort(), "target")),
                ZoneMap.parse(List.of(), "client"), DelayTable.parse(List.of(), OneWayDelay.NONE, Jitter.UNIFORM));
            try (ProxyServer second = Proxies.start(again)) {
                assertThat(second.ports()).containsExactly(port);
            }
        }
    }

    @Test
    void aListenerOnATakenPortFailsToStartAndLeavesNothingBound() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            ProxyConfig config = ProxyConfig.of(
                List.of(new ListenerSpec(0, "127.0.0.1", 1, "target"), new ListenerSpec(taken.getLocalPort(), "127.0.0.1", 1, "target")),
                ZoneMap.parse(List.of(), "client"), DelayTable.parse(List.of(), OneWayDelay.NONE, Jitter.UNIFORM));
            assertThatThrownBy(() -> Proxies.start(config)).isInstanceOf(IOException.class);
        }
    }

    private static void resetAndClose(Socket socket) throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
