package dev.hangar.bench.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Byte-for-byte integrity: 64 MiB of random bytes each way at once, written in random sizes,
 * through a proxy whose jitter is as large as its base delay, so that nearly every chunk draws a
 * delay that would overtake its predecessor if the FIFO rule were missing. Both sides check every
 * byte and the exact count (no loss, no duplicate, no reordering), and each sees the other's FIN.
 * Small chunks and a small cap give many draws and much back-pressure; the defaults give big reads.
 */
@Timeout(120)
class IntegrityTest {

    private static final long BYTES = 64L * 1024 * 1024;

    @ParameterizedTest(name = "chunk {0}, delay {1} {2}, in flight {3}")
    @CsvSource({"65536, 5ms+-5ms, UNIFORM, 4194304", "1024, 1ms+-1ms, NORMAL, 262144"})
    void carriesBothDirectionsByteForByte(int chunk, String delay, Jitter shape, int maxInFlight) throws Exception {
        try (ServerSocket target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            DelayTable delays = DelayTable.parse(List.of(), OneWayDelay.parse(delay, shape), shape);
            ProxyConfig config = Proxies.config(target.getLocalPort(), delays, List.of()).withLimits(maxInFlight, chunk, 16);
            try (ProxyServer proxy = Proxies.start(config); Socket client = Proxies.connect(proxy); Socket server = target.accept()) {
                long started = System.nanoTime();
                Future<?> clientSends = threads.submit(() -> send(client, 1));
                Future<?> serverSends = threads.submit(() -> send(server, 2));
                Future<StreamCheck.Received> serverReceives = threads.submit(() -> StreamCheck.receive(server, 1));
                Future<StreamCheck.Received> clientReceives = threads.submit(() -> StreamCheck.receive(client, 2));
                StreamCheck.Received atServer = serverReceives.get(90, TimeUnit.SECONDS);
                StreamCheck.Received atClient = clientReceives.get(90, TimeUnit.SECONDS);
                clientSends.get(10, TimeUnit.SECONDS);
                serverSends.get(10, TimeUnit.SECONDS);
                System.out.printf("chunk %d, %s %s: 2 x 64 MiB in %.2f s%n", chunk, delay, shape, (System.nanoTime() - started) / 1e9);
                assertThat(atServer).as("client to target").isEqualTo(new StreamCheck.Received(BYTES, -1));
                assertThat(atClient).as("target to client").isEqualTo(new StreamCheck.Received(BYTES, -1));
            }
        }
    }

    private static Void send(Socket socket, long seed) throws IOException {
        StreamCheck.send(socket, seed, BYTES);
        return null;
    }
}
