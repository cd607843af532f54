package dev.hangar.bench.load;

import dev.hangar.bench.Folders;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.replication.ReplicationConfig;
import dev.hangar.cluster.replication.ReplicationStats;
import dev.hangar.cluster.table.ReplicatedTable;
import dev.hangar.cluster.table.TableConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Latency amplification of the leaderless cluster under injected network delay: three storage
 * nodes (replication factor 3, one per zone, quorums 2/2) and one gateway in this JVM, on loopback,
 * with a one-way delay {@code d} injected on every link by {@link dev.hangar.cluster.rpc.NetworkFaults}.
 *
 * <p>For each {@code d} and each coordinator — a storage node, which is a replica of everything, and
 * the gateway, which is a replica of nothing — it times metadata puts and gets ({@link
 * ReplicatedTable}) and block writes and reads ({@link dev.hangar.cluster.replication.ReplicatedBlockStore}),
 * and reports p50 / p99 against the injected round trip, with the sequential inter-node rounds the
 * nodes themselves counted per operation.
 */
@Command(name = "cluster-lat", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Latency of the leaderless cluster under injected network delay: 3 in-process nodes (rf 3, quorums 2/2)",
        "and a gateway on loopback; metadata put/get and block write/read, coordinated by a replica and by the gateway.",
        "Prints p50 / p99 per one-way delay d against the round trip 2d; writes CSV and an SVG plot to --out."})
public final class ClusterLatencyCommand implements Callable<Integer> {

    static final String CSV_FILE = "cluster-latency.csv";
    static final String PLOT_FILE = "cluster-latency.svg";

    static final List<String> CSV_HEADER = List.of("coordinator", "op", "delay_ms", "jitter_ms", "rtt_ms", "ops",
        "concurrency", "errors", "min_ms", "p50_ms", "p99_ms", "max_ms", "p50_per_rtt", "p99_per_rtt", "rounds_per_op");

    private static final String REPLICA = "node-1";
    private static final String GATEWAY = "gateway-1";

    /** The operations timed, in the order they run (each read reads what the write before it wrote). */
    enum Op {
        META_PUT("meta-put"), META_GET("meta-get"), BLOCK_WRITE("block-write"), BLOCK_READ("block-read");

        final String label;

        Op(String label) {
            this.label = label;
        }
    }

    @Spec
    @Nullable CommandSpec spec;

    @Option(names = "--delays", split = ",", defaultValue = "0,5,20,50", paramLabel = "MS",
        description = "One-way delays d injected on every link, in ms (default: ${DEFAULT-VALUE}).")
    List<Integer> delays = List.of(0, 5, 20, 50);

    @Option(names = "--jitter", defaultValue = "0", paramLabel = "MS",
        description = "Uniform jitter added to each one-way delay, 0 to MS ms (default: ${DEFAULT-VALUE}).")
    int jitter;

    @Option(names = "--ops", defaultValue = "100", description = "Operations of each kind per delay and coordinator (default: ${DEFAULT-VALUE}).")
    int ops = 100;

    @Option(names = "--concurrency", defaultValue = "1", description = "Operations in flight per kind (default: ${DEFAULT-VALUE}: sequential).")
    int concurrency = 1;

    @Option(names = "--warmup", defaultValue = "200", description = "Untimed operations of each kind per coordinator, without delay, first (default: ${DEFAULT-VALUE}).")
    int warmup = 200;

    @Option(names = "--value-size", defaultValue = "300", converter = ByteSize.class,
        description = "Bytes per metadata value, about an inline object record (default: ${DEFAULT-VALUE}).")
    int valueSize = 300;

    @Option(names = "--block-size", defaultValue = "64KiB", converter = ByteSize.class,
        description = "Bytes per block (default: ${DEFAULT-VALUE}).")
    int blockSize = 64 * 1024;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the payloads (default: ${DEFAULT-VALUE}).")
    long seed = 1;

    @Option(names = "--out", required = true, paramLabel = "DIR",
        description = "Folder for " + CSV_FILE + " and " + PLOT_FILE + " (created if missing).")
    Path outDir = Path.of(".");

    @Option(names = "--no-plot", description = "Do not draw " + PLOT_FILE + ".")
    boolean noPlot;

    /** One measured cell: an operation at one delay from one coordinator. */
    record Result(String coordinator, Op op, int delayMillis, double rttMillis, Histogram micros, long errors,
        double roundsPerOp) {}

    @Override
    public Integer call() throws Exception {
        validate();
        PrintWriter out = out();
        out.printf(Locale.ROOT, "cluster-lat: 3 storage nodes (rf 3, one per zone, quorums 2/2) + 1 gateway, loopback;"
                + " delays=%s ms jitter=%d ms ops=%d concurrency=%d warmup=%d value=%s block=%s%n",
            delays, jitter, ops, concurrency, warmup, ByteSize.format(valueSize), ByteSize.format(blockSize));
        out.flush();
        Path dir = Files.createTempDirectory("hangar-cluster-lat");
        List<Result> results = new ArrayList<>();
        try (LoopbackCluster cluster = new LoopbackCluster(dir, 3, 1, 3, TableConfig.consistent("object"),
            ReplicationConfig.defaults())) {
            Samples payloads = new Samples(seed, valueSize, blockSize);
            for (String coordinator : List.of(REPLICA, GATEWAY)) {
                cluster.delayEverywhere(Duration.ZERO, Duration.ZERO);
                measure(cluster.node(coordinator), role(coordinator), "warmup", warmup, payloads, -1, 0);
            }
            for (int delay : delays) {
                cluster.delayEverywhere(Duration.ofMillis(delay), Duration.ofMillis(jitter));
                // Two one-way delays, each delay + U(0, jitter): jitter on average.
                double rtt = 2.0 * delay + jitter;
                for (String coordinator : List.of(REPLICA, GATEWAY)) {
                    long start = System.nanoTime();
                    List<Result> cell = measure(cluster.node(coordinator), role(coordinator), "d" + delay, ops, payloads,
                        delay, rtt);
                    results.addAll(cell);
                    out.printf(Locale.ROOT, "  d=%d ms, %s coordinator: %.1f s%n", delay, role(coordinator),
                        (System.nanoTime() - start) / 1e9);
                    out.flush();
                }
            }
        } finally {
            Folders.deleteTree(dir);
        }
        report(results, out);
        return results.stream().anyMatch(r -> r.errors() > 0) ? 1 : 0;
    }

    private void validate() {
        if (delays.isEmpty() || delays.stream().anyMatch(d -> d < 0)) {
            throw parameterError("--delays must list delays of 0 ms or more");
        }
        if (jitter < 0) {
            throw parameterError("--jitter must not be negative");
        }
        if (ops < 1 || concurrency < 1 || warmup < 0 || valueSize < 1 || blockSize < 1) {
            throw parameterError("--ops, --concurrency, --value-size and --block-size must be positive, --warmup not negative");
        }
    }

    private ParameterException parameterError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private PrintWriter out() {
        return spec == null ? new PrintWriter(System.out, true) : spec.commandLine().getOut();
    }

    private static String role(String coordinator) {
        return coordinator.equals(REPLICA) ? "replica" : "gateway";
    }

    /** Runs the four operations {@code count} times each from {@code node}; returns one result per operation. */
    private List<Result> measure(LoopbackCluster.Node node, String role, String run, int count, Samples payloads,
        int delay, double rtt) throws Exception {
        List<Result> results = new ArrayList<>();
        if (count == 0) {
            return results;
        }
        ReplicatedTable table = node.table();
        byte[] partition = (role + "/" + run).getBytes(StandardCharsets.UTF_8);
        BlockId[] blocks = new BlockId[count];
        for (int i = 0; i < count; i++) {
            blocks[i] = BlockId.random();
        }

        table.rounds().reset();
        Histogram put = time(count, i -> table.put(partition, sortKey(i), payloads.value(i)).join());
        double putRounds = perOp(table.rounds().rounds("put"), table.rounds().operations("put"));
        results.add(new Result(role, Op.META_PUT, delay, rtt, put, count - put.getTotalCount(), putRounds));

        Histogram get = time(count, i -> {
            if (table.get(partition, sortKey(i)).join().isEmpty()) {
                throw new IllegalStateException("entry " + i + " not found");
            }
        });
        double getRounds = perOp(table.rounds().rounds("get"), table.rounds().operations("get"));
        results.add(new Result(role, Op.META_GET, delay, rtt, get, count - get.getTotalCount(), getRounds));

        ReplicationStats before = node.blocks().stats();
        Histogram write = time(count, i -> node.blocks().write(blocks[i], new ByteArrayInputStream(payloads.block(i))));
        ReplicationStats afterWrite = node.blocks().stats();
        results.add(new Result(role, Op.BLOCK_WRITE, delay, rtt, write, count - write.getTotalCount(),
            perOp(afterWrite.writeRounds() - before.writeRounds(), afterWrite.writes() - before.writes())));

        Histogram read = time(count, i -> {
            try (InputStream in = node.blocks().read(blocks[i], 0, blockSize)) {
                if (in.readAllBytes().length != blockSize) {
                    throw new IllegalStateException("block " + i + " came back short");
                }
            }
        });
        ReplicationStats afterRead = node.blocks().stats();
        results.add(new Result(role, Op.BLOCK_READ, delay, rtt, read, count - read.getTotalCount(),
            perOp(afterRead.readRounds() - afterWrite.readRounds(), afterRead.reads() - afterWrite.reads())));
        return results;
    }

    @FunctionalInterface
    private interface Operation {
        void run(int index) throws Exception;
    }

    /**
     * Runs operations 0..count-1, {@code concurrency} at a time, and returns the latencies of the
     * successful ones in microseconds (the failed ones are missing from the count).
     */
    private Histogram time(int count, Operation operation) throws Exception {
        Histogram micros = new Histogram(Duration.ofMinutes(5).toNanos() / 1_000, 3);
        AtomicInteger next = new AtomicInteger();
        AtomicLong firstFailureLogged = new AtomicLong();
        Callable<Void> worker = () -> {
            for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                long start = System.nanoTime();
                try {
                    operation.run(i);
                    long elapsed = (System.nanoTime() - start) / 1_000;
                    synchronized (micros) {
                        micros.recordValue(Math.min(elapsed, micros.getHighestTrackableValue()));
                    }
                } catch (Exception | AssertionError e) {
                    if (firstFailureLogged.getAndIncrement() == 0) {
                        out().println("  operation failed: " + e);
                    }
                }
            }
            return null;
        };
        if (concurrency == 1) {
            worker.call();
            return micros;
        }
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Void>> workers = new ArrayList<>();
            for (int w = 0; w < concurrency; w++) {
                workers.add(pool.submit(worker));
            }
            for (Future<Void> w : workers) {
                w.get();
            }
        }
        return micros;
    }

    private static byte[] sortKey(int index) {
        return String.format(Locale.ROOT, "key-%08d", index).getBytes(StandardCharsets.UTF_8);
    }

    private static double perOp(long rounds, long operations) {
        return operations == 0 ? Double.NaN : (double) rounds / operations;
    }

    private void report(List<Result> results, PrintWriter out) throws IOException {
        Table table = new Table(List.of("coordinator", "op", "d ms", "RTT ms", "errors", "min ms", "p50 ms", "p99 ms",
            "p50/RTT", "p99/RTT", "rounds/op"));
        Csv csv = new Csv(CSV_HEADER);
        for (Result r : results) {
            Histogram h = r.micros();
            boolean any = h.getTotalCount() > 0;
            String min = any ? ms(h.getMinValue()) : "";
            String p50 = any ? ms(h.getValueAtPercentile(50)) : "";
            String p99 = any ? ms(h.getValueAtPercentile(99)) : "";
            String max = any ? ms(h.getMaxValue()) : "";
            String p50Ratio = any && r.rttMillis() > 0 ? Table.decimal(h.getValueAtPercentile(50) / 1_000.0 / r.rttMillis(), 2) : "";
            String p99Ratio = any && r.rttMillis() > 0 ? Table.decimal(h.getValueAtPercentile(99) / 1_000.0 / r.rttMillis(), 2) : "";
            String rounds = Double.isNaN(r.roundsPerOp()) ? "" : Table.decimal(r.roundsPerOp(), 2);
            String rtt = Table.decimal(r.rttMillis(), 1);
            table.row(List.of(r.coordinator(), r.op().label, Integer.toString(r.delayMillis()), rtt,
                Long.toString(r.errors()), min, p50, p99, p50Ratio.isEmpty() ? "-" : p50Ratio,
                p99Ratio.isEmpty() ? "-" : p99Ratio, rounds));
            csv.row(List.of(r.coordinator(), r.op().label, Integer.toString(r.delayMillis()), Integer.toString(jitter), rtt,
                Long.toString(h.getTotalCount() + r.errors()), Integer.toString(concurrency), Long.toString(r.errors()),
                min, p50, p99, max, p50Ratio, p99Ratio, rounds));
        }
        table.print(out);
        Files.createDirectories(outDir);
        Path csvFile = outDir.resolve(CSV_FILE);
        csv.write(csvFile);
        out.println("wrote " + csvFile);
        if (!noPlot) {
            Map<String, double[][]> series = new LinkedHashMap<>();
            for (String coordinator : List.of("replica", "gateway")) {
                for (Op op : Op.values()) {
                    List<Result> line = results.stream()
                        .filter(r -> r.coordinator().equals(coordinator) && r.op() == op && r.micros().getTotalCount() > 0)
                        .toList();
                    double[] x = line.stream().mapToDouble(Result::rttMillis).toArray();
                    double[] y = line.stream().mapToDouble(r -> r.micros().getValueAtPercentile(50) / 1_000.0).toArray();
                    if (x.length > 0) {
                        series.put(op.label + " via " + coordinator, new double[][] {x, y});
                    }
                }
            }
            double maxRtt = results.stream().mapToDouble(Result::rttMillis).max().orElse(0);
            series.put("1 RTT", new double[][] {{0, maxRtt}, {0, maxRtt}});
            Path plotFile = outDir.resolve(PLOT_FILE);
            Plots.lines(plotFile, String.format(Locale.ROOT,
                    "cluster-lat: p50 vs injected RTT (rf 3, quorums 2/2, concurrency %d)", concurrency),
                "injected round trip 2d (ms)", "p50 latency (ms)", series, "1 RTT");
            out.println("wrote " + plotFile);
        }
        out.flush();
    }

    private static String ms(double micros) {
        return Table.decimal(micros / 1_000.0, 2);
    }

    /** Random metadata values and blocks, a few of each, reused round-robin. */
    private static final class Samples {
        private final byte[][] values = new byte[16][];
        private final byte[][] blocks = new byte[4][];

        Samples(long seed, int valueSize, int blockSize) {
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < values.length; i++) {
                values[i] = new byte[valueSize];
                random.nextBytes(values[i]);
            }
            for (int i = 0; i < blocks.length; i++) {
                blocks[i] = new byte[blockSize];
                random.nextBytes(blocks[i]);
            }
        }

        byte[] value(int index) {
            return values[index % values.length];
        }

        byte[] block(int index) {
            return blocks[index % blocks.length];
        }
    }
}
