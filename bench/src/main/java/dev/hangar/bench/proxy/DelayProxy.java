package dev.hangar.bench.proxy;

import dev.hangar.bench.load.ByteSize;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The delay proxy's command line, for a container in front of one node:
 *
 * <pre>{@code
 * java -cp benchmarks.jar dev.hangar.bench.proxy.DelayProxy \
 *   --listen 3901=node1:3901 --listen 3902=node1:3902 --target-zone z1 \
 *   --zone-of 10.0.1.0/24=z1 --zone-of 10.0.2.0/24=z2 \
 *   --delay z1:z1=0.5ms --delay z1:z2=50ms+-10ms
 * }</pre>
 */
@Command(name = "delay-proxy", mixinStandardHelpOptions = true, version = "delay-proxy 0.1.0", sortOptions = false,
    description = {"TCP proxy that delays each direction of every connection by the one-way delay between the client's zone "
        + "and the target's zone, with jitter, without reordering bytes and without throttling below "
        + "max-in-flight / delay per connection and direction.",
        "Bytes pass through unchanged (TLS, HTTP/2, gRPC). Runs until killed."})
public final class DelayProxy implements Callable<Integer> {

    @Option(names = "--listen", required = true, paramLabel = "PORT=HOST:PORT[@ZONE]",
        description = "Listen on PORT and forward to HOST:PORT, a node in ZONE (default: --target-zone). Repeat per port.")
    List<String> listeners = new ArrayList<>();

    @Option(names = "--target-zone", paramLabel = "ZONE", description = "Zone of the targets of listeners that name none.")
    @Nullable String targetZone;

    @Option(names = "--zone-of", paramLabel = "ADDRESS=ZONE",
        description = "Clients from ADDRESS (an IP, a CIDR range such as 10.0.1.0/24, or a host name looked up per connection) "
            + "are in ZONE. The longest prefix wins. Repeat per rule.")
    List<String> zoneRules = new ArrayList<>();

    @Option(names = "--default-zone", paramLabel = "ZONE", defaultValue = "unknown",
        description = "Zone of clients that no --zone-of rule covers (default: ${DEFAULT-VALUE}).")
    String defaultZone;

    @Option(names = "--delay", paramLabel = "A:B=DELAY",
        description = "One-way delay between zones A and B: A:B sets both directions, A->B only that one (and wins over A:B). "
            + "DELAY is BASE or BASE+-JITTER (or BASE±JITTER): 0.5ms, 50ms+-10ms. Repeat per pair.")
    List<String> delays = new ArrayList<>();

    @Option(names = "--default-delay", paramLabel = "DELAY", defaultValue = "0",
        description = "Delay of directions that no --delay names (default: ${DEFAULT-VALUE}).")
    String defaultDelay;

    @Option(names = "--jitter", paramLabel = "SHAPE", defaultValue = "uniform",
        description = "uniform: BASE plus a draw in [-JITTER, +JITTER] (netem's default); normal: standard deviation JITTER, "
            + "cut at 3 deviations. Never below 0 (default: ${DEFAULT-VALUE}).")
    Jitter jitter;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "0.0.0.0", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--max-in-flight", paramLabel = "SIZE", defaultValue = "4MiB", converter = ByteSize.class,
        description = "Per connection and direction, bytes held back at most; then the proxy stops reading that side. "
            + "Caps a connection at SIZE / delay per direction (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    @Option(names = "--chunk", paramLabel = "SIZE", defaultValue = "64KiB", converter = ByteSize.class,
        description = "Largest read; each read gets one delay draw (default: ${DEFAULT-VALUE}).")
    int chunk;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "512",
        description = "Connections open at once; one more is reset at once (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--connect-timeout", paramLabel = "DURATION", defaultValue = "10s",
        description = "How long to wait for a target to accept (default: ${DEFAULT-VALUE}).")
    String connectTimeout;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the jitter draws (default: random).")
    @Nullable Long seed;

    @Option(names = "--verbose", description = "Print every connection's open, close and reset.")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine(new DelayProxy()).execute(args));
    }

    /** The command line around {@code command}: {@code --jitter normal} and {@code NORMAL} both work. */
    static CommandLine commandLine(DelayProxy command) {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        return commandLine;
    }

    /** The configuration the options describe; a picocli parameter error names the faulty option. */
    ProxyConfig config() {
        try {
            List<ListenerSpec> listenerSpecs = listeners.stream().map(text -> ListenerSpec.parse(text, targetZone)).toList();
            ZoneMap zones = ZoneMap.parse(zoneRules, defaultZone);
            DelayTable table = DelayTable.parse(delays, OneWayDelay.parse(defaultDelay, jitter), jitter);
            return new ProxyConfig(bindAddress(), listenerSpecs, zones, table, maxInFlight, chunk, maxConnections,
                Durations.parse(connectTimeout), seed != null ? seed : System.nanoTime());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        ProxyConfig config = config();
        PrintWriter out = spec.commandLine().getOut();
        ProxyServer server = ProxyServer.start(config, new PrintingLog(out, verbose));
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "delay-proxy-shutdown"));
        describe(config, server, out);
        server.awaitClose();
        return 0;
    }

    private InetAddress bindAddress() {
        try {
            return InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("unknown bind address: " + bind, e);
        }
    }

    /** What the proxy does, printed once at start, so that a lab's logs state the injected delays. */
    private static void describe(ProxyConfig config, ProxyServer server, PrintWriter out) {
        List<Integer> ports = server.ports();
        for (int i = 0; i < ports.size(); i++) {
            ListenerSpec listener = config.listeners().get(i);
            out.printf("listening on %s:%d -> %s:%d (zone %s)%n", config.bindAddress().getHostAddress(), ports.get(i),
                listener.targetHost(), listener.targetPort(), listener.targetZone());
        }
        for (ZoneMap.Rule rule : config.zones().rules()) {
            out.printf("clients from %s are in zone %s%n", rule.pattern(), rule.zone());
        }
        out.printf("other clients are in zone %s%n", config.zones().defaultZone());
        Set<OneWayDelay> distinct = new LinkedHashSet<>();
        config.delays().delays().entrySet().stream()
            .sorted(java.util.Map.Entry.comparingByKey(java.util.Comparator.comparing(ZonePair::from).thenComparing(ZonePair::to)))
            .forEach(entry -> {
                out.printf("delay %s = %s%n", entry.getKey(), entry.getValue());
                distinct.add(entry.getValue());
            });
        out.printf("delay of any other direction = %s%n", config.delays().fallback());
        distinct.add(config.delays().fallback());
        for (OneWayDelay delay : distinct) {
            if (delay.maxNanos() > 0) {
                // The bandwidth-delay product rule: at most max-in-flight bytes per delay per connection and direction.
                double mibPerSecond = config.maxInFlightBytes() / (1024.0 * 1024.0) / (delay.maxNanos() / 1e9);
                out.printf("at %s a connection carries at most about %.0f MiB/s per direction (max-in-flight %s)%n",
                    delay, mibPerSecond, ByteSize.format(config.maxInFlightBytes()));
            }
        }
        out.printf("jitter seed %d, chunk %s, max %d connections%n", config.seed(), ByteSize.format(config.chunkBytes()),
            config.maxConnections());
        out.flush();
    }

    /** Prints events with a timestamp; connection events only when verbose. */
    private record PrintingLog(PrintWriter out, boolean verbose) implements ProxyLog {

        @Override
        public void connection(String event) {
            if (verbose) {
                print(event);
            }
        }

        @Override
        public void problem(String event) {
            print(event);
        }

        private void print(String event) {
            synchronized (out) {
                out.println(Instant.now() + " " + event);
                out.flush();
            }
        }
    }
}
