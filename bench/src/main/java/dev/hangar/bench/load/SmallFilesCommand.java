package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Software Heritage's workload: many small objects of log-normal sizes around a 4 KiB median,
 * written, then read at random, then read sequentially (runs of consecutive objects in write order,
 * each run from a random point, as their read workers do).
 */
@Command(name = "smallfiles", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Software Heritage's workload: small objects of log-normal sizes around a 4 KiB median.",
        "Prints write, then random-read and sequential-read objects/s, latency p50 / p98 / p99 / max."})
public final class SmallFilesCommand extends LoadCommand {

    @Option(names = "--objects", defaultValue = "50000", description = "Objects written (default: ${DEFAULT-VALUE}).")
    int objects = 50_000;

    @Option(names = "--random-reads", defaultValue = "-1", description = "Random reads (default: as many as objects).")
    int randomReads = -1;

    @Option(names = "--sequential-reads", defaultValue = "-1", description = "Sequential reads (default: as many as objects).")
    int sequentialReads = -1;

    @Option(names = "--run-length", defaultValue = "64",
        description = "Consecutive objects per sequential run, each run from a random object (default: ${DEFAULT-VALUE}).")
    int runLength = 64;

    @Option(names = "--median-size", defaultValue = "4096", description = "Median object size in bytes (default: ${DEFAULT-VALUE}).")
    int medianSize = 4096;

    @Option(names = "--sigma", defaultValue = "1.0",
        description = "Spread of the log-normal sizes: size = median × e^(sigma × N(0,1)) (default: ${DEFAULT-VALUE}).")
    double sigma = 1.0;

    @Option(names = "--max-size", defaultValue = "81920",
        description = "Largest object in bytes; SWH leaves objects above 80 KiB out (default: ${DEFAULT-VALUE}).")
    int maxSize = 80 * 1024;

    @Option(names = "--concurrency", defaultValue = "32", description = "Requests in flight at most (default: ${DEFAULT-VALUE}).")
    int concurrency = 32;

    @Option(names = "--duration", defaultValue = "PT10M", description = "Time limit of each phase, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration duration = Duration.ofMinutes(10);

    @Option(names = "--plot", paramLabel = "FILE", description = "Plot the read latency distributions (CDF) to FILE (.png or .svg).")
    @Nullable Path plot;

    @Override
    int concurrency() {
        return concurrency;
    }

    @Override
    @Nullable Path plot() {
        return plot;
    }

    @Override
    void validate() {
        requirePositive("--objects", objects);
        requirePositive("--run-length", runLength);
        requirePositive("--median-size", medianSize);
        requirePositive("--max-size", maxSize);
        requirePositive("--concurrency", concurrency);
    }

    @Override
    int run(S3AsyncClient client, PrintWriter out) throws Exception {
        int randomCount = randomReads < 0 ? objects : randomReads;
        int sequentialCount = sequentialReads < 0 ? objects : sequentialReads;
        header(out, String.format(Locale.ROOT, "objects=%d median-size=%dB sigma=%.2f max-size=%dB random-reads=%d "
            + "sequential-reads=%d run-length=%d concurrency=%d", objects, medianSize, sigma, maxSize, randomCount, sequentialCount,
            runLength, concurrency));
        String keyPrefix = keyPrefix();
        int[] sizes = new int[objects];
        for (int i = 0; i < objects; i++) {
            sizes[i] = Payloads.logNormalSize(seed, i, medianSize, sigma, maxSize);
        }

        OperationStats write = new OperationStats("write");
        long start = System.nanoTime();
        int written = BoundedLoad.run(objects, concurrency, Deadline.after(duration), i -> {
            byte[] payload = Payloads.bytes(seed, i, sizes[i]);
            long requestStart = System.nanoTime();
            return client.putObject(request -> request.bucket(s3.bucket).key(key(keyPrefix, i)).contentLength((long) sizes[i]),
                    AsyncRequestBody.fromBytesUnsafe(payload))
                .whenComplete((response, error) -> {
                    if (error == null) {
                        write.success(requestStart, sizes[i]);
                    } else {
                        write.failure(error);
                    }
                });
        });
        double writeSeconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "write: %d objects in %.3f s%n", write.count(), writeSeconds);
        out.flush();
        if (written == 0) {
            out.println("no object written before the time limit");
            return 1;
        }

        OperationStats random = new OperationStats("random-read");
        SplittableRandom picks = Payloads.random(seed, -2);
        int[] randomIndexes = new int[randomCount];
        for (int i = 0; i < randomCount; i++) {
            randomIndexes[i] = picks.nextInt(written);
        }
        start = System.nanoTime();
        BoundedLoad.run(randomCount, concurrency, Deadline.after(duration),
            i -> read(client, keyPrefix, randomIndexes[i], sizes, random));
        double randomSeconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "random-read: %d objects in %.3f s%n", random.count(), randomSeconds);
        out.flush();

        OperationStats sequential = new OperationStats("sequential-read");
        int[] sequentialIndexes = new int[sequentialCount];
        int runStart = 0;
        for (int i = 0; i < sequentialCount; i++) {
            if (i % runLength == 0) {
                runStart = picks.nextInt(written);
            }
            sequentialIndexes[i] = (runStart + i % runLength) % written;
        }
        start = System.nanoTime();
        BoundedLoad.run(sequentialCount, concurrency, Deadline.after(duration),
            i -> read(client, keyPrefix, sequentialIndexes[i], sizes, sequential));
        double sequentialSeconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "sequential-read: %d objects in %.3f s%n%n", sequential.count(), sequentialSeconds);

        List<String> header = List.of("phase", "objects", "errors", "MiB", "seconds", "objects/s", "MiB/s", "p50 ms", "p98 ms",
            "p99 ms", "max ms");
        Table table = new Table(header);
        Csv rows = new Csv(List.of("phase", "objects", "errors", "mib", "seconds", "objects_per_s", "mib_per_s", "p50_ms", "p98_ms",
            "p99_ms", "max_ms"));
        for (var phase : List.of(Map.entry(write, writeSeconds), Map.entry(random, randomSeconds),
            Map.entry(sequential, sequentialSeconds))) {
            OperationStats stats = phase.getKey();
            double seconds = phase.getValue();
            List<String> cells = List.of(stats.name(), Long.toString(stats.count()), Long.toString(stats.errors()),
                Table.decimal(stats.bytes() / MIB, 2), Table.decimal(seconds, 3), Table.decimal(stats.count() / seconds, 1),
                Table.decimal(stats.bytes() / MIB / seconds, 2), millis(stats.percentileMillis(50)), millis(stats.percentileMillis(98)),
                millis(stats.percentileMillis(99)), millis(stats.maxMillis()));
            table.row(cells);
            rows.row(cells);
        }
        table.print(out);
        if (written < objects) {
            out.println("the write phase stopped by the time limit after " + written + " of " + objects + " objects");
        }
        writeCsv(rows, out);
        if (plot != null) {
            Map<String, Histogram> series = new LinkedHashMap<>();
            series.put("random read", random.histogram());
            series.put("sequential read", sequential.histogram());
            Plots.latencyCdf(plot, String.format(Locale.ROOT, "smallfiles: read latency, %d objects, median %d B, concurrency %d",
                written, medianSize, concurrency), series);
            out.println("plot written to " + plot);
        }
        out.flush();
        return exitCode(List.of(write, random, sequential));
    }

    private java.util.concurrent.CompletableFuture<?> read(S3AsyncClient client, String keyPrefix, int index, int[] sizes,
        OperationStats stats) {
        long requestStart = System.nanoTime();
        return client.getObject(request -> request.bucket(s3.bucket).key(key(keyPrefix, index)), new TimedGet())
            .whenComplete((result, error) -> {
                if (error != null) {
                    stats.failure(error);
                } else if (result.bytes() != sizes[index]) {
                    stats.failure(new IllegalStateException("object " + index + " has " + result.bytes() + " bytes, expected " + sizes[index]));
                } else {
                    stats.success(requestStart, result.bytes());
                }
            });
    }

    private static String key(String keyPrefix, int index) {
        return keyPrefix + String.format(Locale.ROOT, "%010d", index);
    }
}
