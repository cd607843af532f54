package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Time to first byte of GETs of large objects, beside the time to the last byte: a store that
 * streams answers long before it has read the whole object. The PUTs that write the objects first
 * are timed too, since a large PUT's latency is what a cluster's chunk writes add up to.
 */
@Command(name = "ttfb", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Time to first byte of GETs of large objects, against the total time of each GET.",
        "Prints mean / p50 / p90 / p99 / max of both, of the PUTs that wrote the objects, and the GET throughput."})
public final class TimeToFirstByteCommand extends LoadCommand {

    @Option(names = "--size", defaultValue = "10MiB", converter = ByteSize.class, description = "Object size (default: ${DEFAULT-VALUE}).")
    int size = 10 * 1024 * 1024;

    @Option(names = "--objects", defaultValue = "8", description = "Objects written first, read in turn (default: ${DEFAULT-VALUE}).")
    int objects = 8;

    @Option(names = "--requests", defaultValue = "100", description = "GETs (default: ${DEFAULT-VALUE}).")
    int requests = 100;

    @Option(names = "--concurrency", defaultValue = "1", description = "GETs in flight at most (default: ${DEFAULT-VALUE}).")
    int concurrency = 1;

    @Option(names = "--duration", defaultValue = "PT5M", description = "Time limit of the GETs, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration duration = Duration.ofMinutes(5);

    @Option(names = "--plot", paramLabel = "FILE", description = "Plot the distributions of TTFB and total time (CDF) to FILE (.png or .svg).")
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
        requirePositive("--requests", requests);
        requirePositive("--concurrency", concurrency);
    }

    @Override
    int run(S3AsyncClient client, PrintWriter out) throws Exception {
        header(out, String.format(Locale.ROOT, "size=%s objects=%d requests=%d concurrency=%d", ByteSize.format(size), objects, requests,
            concurrency));
        String keyPrefix = keyPrefix();
        OperationStats put = new OperationStats("PUT");
        BoundedLoad.run(objects, concurrency, Deadline.after(duration), i -> {
            byte[] payload = Payloads.bytes(seed, i, size);
            long start = System.nanoTime();
            return client.putObject(request -> request.bucket(s3.bucket).key(key(keyPrefix, i)).contentLength((long) size),
                    AsyncRequestBody.fromBytesUnsafe(payload))
                .whenComplete((response, error) -> {
                    if (error == null) {
                        put.success(start, size);
                    } else {
                        put.failure(error);
                    }
                });
        });
        if (put.errors() > 0) {
            return exitCode(List.of(put));
        }

        OperationStats firstByte = new OperationStats("TTFB");
        OperationStats whole = new OperationStats("total");
        long start = System.nanoTime();
        BoundedLoad.run(requests, concurrency, Deadline.after(duration), i -> {
            long requestStart = System.nanoTime();
            return client.getObject(request -> request.bucket(s3.bucket).key(key(keyPrefix, i % objects)), new TimedGet())
                .whenComplete((result, error) -> {
                    if (error != null) {
                        whole.failure(error);
                    } else if (result.bytes() != size) {
                        whole.failure(new IllegalStateException("GET returned " + result.bytes() + " bytes, expected " + size));
                    } else {
                        firstByte.successAfter(result.firstByteNanos() - requestStart, 0);
                        whole.successAfter(result.endNanos() - requestStart, result.bytes());
                    }
                });
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        Table table = new Table(List.of("metric", "requests", "errors", "mean ms", "p50 ms", "p90 ms", "p99 ms", "max ms"));
        Csv rows = new Csv(List.of("metric", "requests", "errors", "mean_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms"));
        for (OperationStats stats : List.of(put, firstByte, whole)) {
            List<String> cells = List.of(stats.name(), Long.toString(stats.count()), Long.toString(stats.errors()), millis(stats.meanMillis()),
                millis(stats.percentileMillis(50)), millis(stats.percentileMillis(90)), millis(stats.percentileMillis(99)),
                millis(stats.maxMillis()));
            table.row(cells);
            rows.row(cells);
        }
        table.print(out);
        out.printf(Locale.ROOT, "GET throughput: %.1f requests/s, %.2f MiB/s%n", whole.count() / seconds, whole.bytes() / MIB / seconds);
        writeCsv(rows, out);
        if (plot != null) {
            Map<String, Histogram> series = new LinkedHashMap<>();
            series.put("time to first byte", firstByte.histogram());
            series.put("total time", whole.histogram());
            Plots.latencyCdf(plot, String.format(Locale.ROOT, "ttfb: GET of %s objects, concurrency %d", ByteSize.format(size), concurrency),
                series);
            out.println("plot written to " + plot);
        }
        out.flush();
        return exitCode(List.of(put, firstByte, whole));
    }

    private static String key(String keyPrefix, int index) {
        return keyPrefix + String.format(Locale.ROOT, "large-%06d", index);
    }
}
