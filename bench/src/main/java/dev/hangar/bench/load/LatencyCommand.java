package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Garage's s3lat: one request at a time, so that what is measured is the latency of each endpoint,
 * not throughput. Object requests use tiny objects.
 */
@Command(name = "lat", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Garage's s3lat: one request at a time on ListBuckets, ListObjects, PutObject, GetObject, DeleteObject.",
        "Prints mean / min / max (and p50 / p99) latency per endpoint."})
public final class LatencyCommand extends LoadCommand {

    @Option(names = "--requests", defaultValue = "100", description = "Requests per endpoint (default: ${DEFAULT-VALUE}).")
    int requests = 100;

    @Option(names = "--size", defaultValue = "16", description = "Bytes per object (default: ${DEFAULT-VALUE}).")
    int size = 16;

    @Option(names = "--duration", defaultValue = "PT10M", description = "Time limit, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration duration = Duration.ofMinutes(10);

    @Override
    int concurrency() {
        return 1;
    }

    @Override
    void validate() {
        requirePositive("--requests", requests);
        requirePositive("--size", size);
    }

    @Override
    int run(S3AsyncClient client, PrintWriter out) throws Exception {
        header(out, String.format(Locale.ROOT, "requests=%d size=%dB concurrency=1", requests, size));
        OperationStats listBuckets = new OperationStats("ListBuckets");
        OperationStats listObjects = new OperationStats("ListObjects");
        OperationStats put = new OperationStats("PutObject");
        OperationStats get = new OperationStats("GetObject");
        OperationStats delete = new OperationStats("DeleteObject");
        List<OperationStats> endpoints = List.of(listBuckets, listObjects, put, get, delete);
        Deadline deadline = Deadline.after(duration);
        String keyPrefix = keyPrefix();
        int rounds = 0;
        for (int i = 0; i < requests && !deadline.expired(); i++, rounds++) {
            String key = keyPrefix + String.format(Locale.ROOT, "%08d", i);
            byte[] payload = Payloads.bytes(seed, i, size);
            time(listBuckets, () -> client.listBuckets(), 0);
            time(listObjects, () -> client.listObjectsV2(request -> request.bucket(s3.bucket)), 0);
            time(put, () -> client.putObject(request -> request.bucket(s3.bucket).key(key).contentLength((long) size),
                AsyncRequestBody.fromBytesUnsafe(payload)), size);
            time(get, () -> client.getObject(request -> request.bucket(s3.bucket).key(key), new TimedGet()), size);
            time(delete, () -> client.deleteObject(request -> request.bucket(s3.bucket).key(key)), 0);
        }
        Table table = new Table(List.of("endpoint", "requests", "errors", "mean ms", "min ms", "max ms", "p50 ms", "p99 ms"));
        Csv rows = new Csv(List.of("endpoint", "requests", "errors", "mean_ms", "min_ms", "max_ms", "p50_ms", "p99_ms"));
        for (OperationStats endpoint : endpoints) {
            List<String> cells = List.of(endpoint.name(), Long.toString(endpoint.count()), Long.toString(endpoint.errors()),
                millis(endpoint.meanMillis()), millis(endpoint.minMillis()), millis(endpoint.maxMillis()),
                millis(endpoint.percentileMillis(50)), millis(endpoint.percentileMillis(99)));
            table.row(cells);
            rows.row(cells);
        }
        table.print(out);
        if (rounds < requests) {
            out.println("stopped by the time limit after " + rounds + " of " + requests + " rounds");
        }
        writeCsv(rows, out);
        out.flush();
        return exitCode(endpoints);
    }

    private static void time(OperationStats stats, Supplier<CompletableFuture<?>> request, long bytes) {
        long start = System.nanoTime();
        try {
            request.get().join();
            stats.success(start, bytes);
        } catch (RuntimeException e) {
            stats.failure(e);
        }
    }
}
