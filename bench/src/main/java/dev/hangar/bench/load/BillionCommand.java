package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Garage's s3billion: batches of tiny objects uploaded concurrently, the wall-clock time of each
 * batch to its last upload. A store whose batch time grows with the bucket shows it here.
 */
@Command(name = "billion", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Garage's s3billion: N batches of M tiny objects uploaded concurrently; time per batch.",
        "Prints one line per batch and the check line 'max batch / first batch = X'."})
public final class BillionCommand extends LoadCommand {

    @Option(names = "--batches", defaultValue = "128", description = "Batches (default: ${DEFAULT-VALUE}).")
    int batches = 128;

    @Option(names = "--batch-size", defaultValue = "8192", description = "Objects per batch (default: ${DEFAULT-VALUE}).")
    int batchSize = 8192;

    @Option(names = "--size", defaultValue = "16", description = "Bytes per object (default: ${DEFAULT-VALUE}).")
    int size = 16;

    @Option(names = "--concurrency", defaultValue = "256", description = "Uploads in flight at most (default: ${DEFAULT-VALUE}).")
    int concurrency = 256;

    @Option(names = "--duration", defaultValue = "PT2H",
        description = "Time limit of the whole run, ISO-8601; no batch starts after it (default: ${DEFAULT-VALUE}).")
    Duration duration = Duration.ofHours(2);

    @Option(names = "--plot", paramLabel = "FILE", description = "Plot time per batch against batch index to FILE (.png or .svg).")
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
        requirePositive("--batches", batches);
        requirePositive("--batch-size", batchSize);
        requirePositive("--size", size);
        requirePositive("--concurrency", concurrency);
    }

    @Override
    int run(S3AsyncClient client, PrintWriter out) throws Exception {
        header(out, String.format(Locale.ROOT, "batches=%d batch-size=%d size=%dB concurrency=%d", batches, batchSize, size, concurrency));
        OperationStats puts = new OperationStats("PutObject");
        Deadline deadline = Deadline.after(duration);
        SplittableRandom keys = Payloads.random(seed, -1);
        Table table = new Table(List.of("batch", "objects", "errors", "seconds", "objects/s"));
        Csv rows = new Csv(List.of("batch", "objects", "errors", "seconds", "objects_per_s"));
        List<Double> seconds = new ArrayList<>();
        String keyPrefix = keyPrefix();
        long objectIndex = 0;
        for (int batch = 0; batch < batches && !deadline.expired(); batch++) {
            String[] batchKeys = new String[batchSize];
            for (int i = 0; i < batchSize; i++) {
                batchKeys[i] = keyPrefix + String.format(Locale.ROOT, "%016x", keys.nextLong());
            }
            long firstIndex = objectIndex;
            long countBefore = puts.count();
            long errorsBefore = puts.errors();
            long start = System.nanoTime();
            BoundedLoad.run(batchSize, concurrency, Deadline.after(Duration.ofDays(365)), i -> {
                byte[] payload = Payloads.bytes(seed, firstIndex + i, size);
                long requestStart = System.nanoTime();
                return client.putObject(request -> request.bucket(s3.bucket).key(batchKeys[i]).contentLength((long) size),
                        AsyncRequestBody.fromBytesUnsafe(payload))
                    .whenComplete((response, error) -> {
                        if (error == null) {
                            puts.success(requestStart, size);
                        } else {
                            puts.failure(error);
                        }
                    });
            });
            double elapsed = (System.nanoTime() - start) / 1e9;
            objectIndex += batchSize;
            long written = puts.count() - countBefore;
            long failed = puts.errors() - errorsBefore;
            seconds.add(elapsed);
            List<String> cells = List.of(Integer.toString(batch), Long.toString(written), Long.toString(failed),
                Table.decimal(elapsed, 3), Table.decimal(written / elapsed, 1));
            table.row(cells);
            rows.row(cells);
            out.printf(Locale.ROOT, "batch %d: %d objects in %.3f s (%.1f objects/s)%n", batch, written, elapsed, written / elapsed);
            out.flush();
        }
        out.println();
        table.print(out);
        out.println();
        if (seconds.isEmpty()) {
            out.println("no batch ran before the time limit");
            return 1;
        }
        double first = seconds.getFirst();
        double max = seconds.stream().mapToDouble(Double::doubleValue).max().orElse(first);
        double total = seconds.stream().mapToDouble(Double::doubleValue).sum();
        out.printf(Locale.ROOT, "objects: %d uploaded, %d failed, in %d of %d batches, %.3f s (%.1f objects/s)%n",
            puts.count(), puts.errors(), seconds.size(), batches, total, puts.count() / total);
        out.printf(Locale.ROOT, "PutObject latency ms: p50 %s  p90 %s  p99 %s  max %s%n", millis(puts.percentileMillis(50)),
            millis(puts.percentileMillis(90)), millis(puts.percentileMillis(99)), millis(puts.maxMillis()));
        out.printf(Locale.ROOT, "max batch / first batch = %.2f%n", max / first);
        if (seconds.size() < batches) {
            out.println("stopped by the time limit after " + seconds.size() + " batches");
        }
        writeCsv(rows, out);
        if (plot != null) {
            double[] x = new double[seconds.size()];
            double[] y = new double[seconds.size()];
            for (int i = 0; i < x.length; i++) {
                x[i] = i;
                y[i] = seconds.get(i);
            }
            Plots.line(plot, String.format(Locale.ROOT, "s3billion: %d batches of %d objects of %d B", seconds.size(), batchSize, size),
                "batch index", "time per batch (s)", "time per batch", x, y);
            out.println("plot written to " + plot);
        }
        out.flush();
        return exitCode(List.of(puts));
    }
}
