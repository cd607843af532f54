package dev.hangar.bench.proxy;

import static dev.hangar.bench.proxy.OneWayTimes.median;
import static dev.hangar.bench.proxy.OneWayTimes.percentile;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The delay the proxy adds, measured with small messages sent one at a time to an echo server
 * behind it (so no message waits behind another in a direction's FIFO), each direction timed on
 * its own: the echo server stamps arrivals on the client's clock (one JVM).
 *
 * <p>What it claims, per direction:
 * <ul>
 *   <li>no message arrives before its configured delay (the proxy never releases early);
 *   <li>the lower quartile of one-way times is within 10 % of the configured delay plus 1 ms. The
 *       1 ms covers the proxy's own path and the wake-up of a sleeping virtual thread (0.1 to 0.3
 *       ms on the project's 2-core machine); for delays of tens of ms the 10 % dominates;
 *   <li>the median is within 10 % plus 20 ms: a sanity bound only (100 ms applied twice would fail it; scheduling noise does not).
 * </ul>
 * Why the lower quartile: when other processes keep both cores busy, the threads that release
 * and receive a message wait for a core, and the median drifts by scheduling latency (measured
 * with both cores saturated: +3 ms at 20 ms) that no proxy can avoid, while the lower quartile
 * still shows the delay the proxy scheduled. Quiet-machine medians are printed and recorded in
 * docs/consensus-lab.md.
 */
@Timeout(120)
class DelayAccuracyTest {

    private static final double SLACK_MS = 1.0;
    private static final double LOADED_SLACK_MS = 20.0;

    @ParameterizedTest(name = "client to target {0} ms, target to client {1} ms")
    @CsvSource({"100, 150, 16", "50, 50, 20", "20, 20, 40", "5, 5, 100", "0.5, 0.5, 200", "0, 0, 200"})
    void addsTheConfiguredDelayToEachDirection(double upMs, double downMs, int rounds) throws Exception {
        DelayTable delays = DelayTable.parse(List.of("client->target=" + upMs + "ms", "target->client=" + downMs + "ms"),
            OneWayDelay.NONE, Jitter.UNIFORM);
        try (TimestampingEchoServer echo = new TimestampingEchoServer(OneWayTimes.MESSAGE_BYTES);
             ProxyServer proxy = Proxies.start(Proxies.config(echo.port(), delays, List.of()));
             Socket socket = Proxies.connect(proxy)) {
            OneWayTimes times = OneWayTimes.measure(socket, echo, 3, rounds);
            System.out.printf("configured up %.1f ms, down %.1f ms: %s%n", upMs, downMs, times.describe());
            assertDelay("client to target", times.upMillis(), upMs);
            assertDelay("target to client", times.downMillis(), downMs);
        }
    }

    /**
     * With 60 ± 20 ms uniform jitter each way, no message takes less than 40 ms, the jitter is
     * two-sided (a tenth of the messages at least come faster than the base: uniform on 40 to 80
     * ms, the tenth percentile is 44 ms) and spreads (quartiles 50 and 70 ms), and the median is
     * near 60 ms. The upper bound of a draw is checked on the draws themselves ({@link
     * OneWayDelayTest}): here it would only measure how busy the machine is.
     */
    @Test
    void jitterSpreadsEachDirectionWithinItsBounds() throws Exception {
        try (TimestampingEchoServer echo = new TimestampingEchoServer(OneWayTimes.MESSAGE_BYTES);
             ProxyServer proxy = Proxies.start(Proxies.config(echo.port(), "60ms+-20ms"));
             Socket socket = Proxies.connect(proxy)) {
            OneWayTimes times = OneWayTimes.measure(socket, echo, 2, 40);
            System.out.printf("configured 60±20 ms each way: %s%n", times.describe());
            for (double[] direction : List.of(times.upMillis(), times.downMillis())) {
                assertThat(direction[0]).as("fastest message, ms").isGreaterThanOrEqualTo(40.0);
                assertThat(percentile(direction, 10)).as("tenth percentile, ms").isLessThanOrEqualTo(60.0);
                assertThat(median(direction)).as("median, ms").isBetween(50.0, 70.0 + LOADED_SLACK_MS);
                assertThat(percentile(direction, 75) - percentile(direction, 25)).as("p75 - p25, ms: jitter visible").isGreaterThan(10.0);
            }
        }
    }

    /**
     * Two clients from different source addresses are in different zones and get their pair's
     * delays; a third matches no rule, is in the default zone and gets the table's fallback.
     */
    @Test
    void choosesTheDelayOfEachZonePair() throws Exception {
        DelayTable delays = DelayTable.parse(List.of("za:target=20ms", "zb->target=60ms", "target->zb=30ms"),
            OneWayDelay.parse("5ms", Jitter.UNIFORM), Jitter.UNIFORM);
        List<String> zoneRules = List.of("127.0.0.2=za", "127.0.0.3/32=zb");
        try (TimestampingEchoServer echo = new TimestampingEchoServer(OneWayTimes.MESSAGE_BYTES);
             ProxyServer proxy = Proxies.start(Proxies.config(echo.port(), delays, zoneRules))) {
            record Client(String source, double upMs, double downMs) {
            }
            for (Client client : List.of(new Client("127.0.0.2", 20, 20), new Client("127.0.0.3", 60, 30), new Client("127.0.0.1", 5, 5))) {
                try (Socket socket = Proxies.connect(proxy, client.source())) {
                    OneWayTimes times = OneWayTimes.measure(socket, echo, 2, 15);
                    System.out.printf("client %s: %s%n", client.source(), times.describe());
                    assertDelay(client.source() + " to target", times.upMillis(), client.upMs());
                    assertDelay("target to " + client.source(), times.downMillis(), client.downMs());
                }
            }
        }
    }

    private static void assertDelay(String direction, double[] sortedMillis, double configuredMs) {
        String what = String.format("%s, %d messages, configured %.1f ms: ", direction, sortedMillis.length, configuredMs);
        assertThat(sortedMillis[0]).as(what + "fastest, ms (never before the delay)").isGreaterThanOrEqualTo(configuredMs - 0.001);
        assertThat(percentile(sortedMillis, 25)).as(what + "lower quartile, ms").isLessThanOrEqualTo(configuredMs * 1.1 + SLACK_MS);
        assertThat(median(sortedMillis)).as(what + "median, ms").isLessThanOrEqualTo(configuredMs * 1.1 + LOADED_SLACK_MS);
    }
}
