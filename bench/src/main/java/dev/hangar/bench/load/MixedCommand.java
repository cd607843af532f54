package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * warp's mixed benchmark: a prefilled set of objects, then GET, STAT (HeadObject), PUT and DELETE
 * drawn at random in fixed proportions by a fixed number of clients.
 */
@Command(name = "mixed", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"warp's mixed workload: GET / STAT / PUT / DELETE (default 45 / 30 / 15 / 10 %%) on a prefilled object set.",
        "Prints ops/s and MiB/s per operation and in total, latency p50 / p90 / p99 / max."})
public final class MixedCommand extends LoadCommand {

    @Option(names = "--size", defaultValue = "10MiB", converter = ByteSize.class,
        description = "Object size: 256, 4KiB, 10MiB... (default: ${DEFAULT-VALUE}, as warp).")
    int size = 10 * 1024 * 1024;

    @Option(names = "--objects", defaultValue = "200", description = "Objects written before the mix starts (default: ${DEFAULT-VALUE}).")
    int objects = 200;

    @Option(names = "--concurrency", defaultValue = "20", description = "Requests in flight at most (default: ${DEFAULT-VALUE}, as warp).")
    int concurrency = 20;

    @Option(names = "--duration", defaultValue = "PT1M", description = "Time limit of the mix, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration duration = Duration.ofMinutes(1);

    @Option(names = "--operations", defaultValue = "100000000", description = "Operations of the mix at most (default: ${DEFAULT-VALUE}).")
    int operations = 100_000_000;

    @Option(names = "--get-distrib", defaultValue = "45", description = "Weight of GET (default: ${DEFAULT-VALUE}).")
    int getWeight = 45;

    @Option(names = "--stat-distrib", defaultValue = "30", description = "Weight of STAT, a HeadObject (default: ${DEFAULT-VALUE}).")
    int statWeight = 30;

    @Option(names = "--put-distrib", defaultValue = "15", description = "Weight of PUT (default: ${DEFAULT-VALUE}).")
    int putWeight = 15;

    @Option(names = "--delete-distrib", defaultValue = "10", description = "Weight of DELETE (default: ${DEFAULT-VALUE}).")
    int deleteWeight = 10;

    private long nextObject;

    @Override
    int concurrency() {
        return concurrency;
    }

    @Override
    void validate() {
        requirePositive("--objects", objects);
        requirePositive("--concurrency", concurrency);
        requirePositive("--operations", operations);
        if (getWeight < 0 || statWeight < 0 || putWeight < 0 || deleteWeight < 0) {
            throw new picocli.CommandLine.ParameterException(spec().commandLine(), "operation weights cannot be negative");
        }
        requirePositive("the sum of the operation weights", (long) getWeight + statWeight + putWeight + deleteWeight);
    }

    @Override
    int run(S3AsyncClient client, PrintWriter out) throws Exception {
        header(out, String.format(Locale.ROOT, "size=%s objects=%d concurrency=%d get/stat/put/delete=%d/%d/%d/%d duration=%s",
            ByteSize.format(size), objects, concurrency, getWeight, statWeight, putWeight, deleteWeight, duration));
        ObjectPool pool = new ObjectPool();
        OperationStats prefill = new OperationStats("prefill");
        long start = System.nanoTime();
        BoundedLoad.run(objects, concurrency, Deadline.after(duration), i -> put(client, pool, prefill));
        double prefillSeconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "prefill: %d objects of %s in %.3f s%n", prefill.count(), ByteSize.format(size), prefillSeconds);
        out.flush();
        if (prefill.errors() > 0) {
            return exitCode(List.of(prefill));
        }

        OperationStats get = new OperationStats("GET");
        OperationStats stat = new OperationStats("STAT");
        OperationStats put = new OperationStats("PUT");
        OperationStats delete = new OperationStats("DELETE");
        SplittableRandom random = Payloads.random(seed, -3);
        int total = getWeight + statWeight + putWeight + deleteWeight;
        start = System.nanoTime();
        int issued = BoundedLoad.run(operations, concurrency, Deadline.after(duration), i -> {
            int draw = random.nextInt(total);
            if (draw < getWeight + statWeight) {
                String key = pool.acquireRead(random);
                if (key != null) {
                    return draw < getWeight ? get(client, pool, key, get) : stat(client, pool, key, stat);
                }
            } else if (draw >= getWeight + statWeight + putWeight) {
                String key = pool.takeForDelete(random);
                if (key != null) {
                    return delete(client, key, delete);
                }
            }
            return put(client, pool, put);
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "mix: %d operations in %.3f s, %d objects left%n%n", issued, seconds, pool.size());

        Table table = new Table(List.of("operation", "count", "errors", "ops/s", "MiB/s", "p50 ms", "p90 ms", "p99 ms", "max ms"));
        Csv rows = new Csv(List.of("operation", "count", "errors", "ops_per_s", "mib_per_s", "p50_ms", "p90_ms", "p99_ms", "max_ms"));
        List<OperationStats> mix = List.of(get, stat, put, delete);
        Histogram all = new Histogram(3);
        long count = 0;
        long errors = 0;
        long bytes = 0;
        for (OperationStats operation : mix) {
            Histogram histogram = operation.histogram();
            all.add(histogram);
            count += operation.count();
            errors += operation.errors();
            bytes += operation.bytes();
            List<String> cells = cells(operation.name(), operation.count(), operation.errors(), operation.bytes(), seconds, histogram);
            table.row(cells);
            rows.row(cells);
        }
        List<String> totals = cells("TOTAL", count, errors, bytes, seconds, all);
        table.row(totals);
        rows.row(totals);
        table.print(out);
        writeCsv(rows, out);
        out.flush();
        return exitCode(List.of(prefill, get, stat, put, delete));
    }

    private static List<String> cells(String name, long count, long errors, long bytes, double seconds, Histogram micros) {
        return List.of(name, Long.toString(count), Long.toString(errors), Table.decimal(count / seconds, 1),
            Table.decimal(bytes / MIB / seconds, 2), millis(at(micros, 50)), millis(at(micros, 90)), millis(at(micros, 99)),
            millis(micros.getTotalCount() == 0 ? 0 : micros.getMaxValue() / 1_000.0));
    }

    private static double at(Histogram micros, double percentile) {
        return micros.getTotalCount() == 0 ? 0 : micros.getValueAtPercentile(percentile) / 1_000.0;
    }

    private CompletableFuture<?> put(S3AsyncClient client, ObjectPool pool, OperationStats stats) {
        long index = nextObject++;
        String key = keyPrefix() + String.format(Locale.ROOT, "obj-%010d", index);
        byte[] payload = Payloads.bytes(seed, index, size);
        long start = System.nanoTime();
        return client.putObject(request -> request.bucket(s3.bucket).key(key).contentLength((long) size),
                AsyncRequestBody.fromBytesUnsafe(payload))
            .whenComplete((response, error) -> {
                if (error == null) {
                    stats.success(start, size);
                    pool.add(key);
                } else {
                    stats.failure(error);
                }
            });
    }

    private CompletableFuture<?> get(S3AsyncClient client, ObjectPool pool, String key, OperationStats stats) {
        long start = System.nanoTime();
        return client.getObject(request -> request.bucket(s3.bucket).key(key), new TimedGet())
            .whenComplete((result, error) -> {
                pool.releaseRead(key);
                record(stats, start, error, error == null ? result.bytes() : 0);
            });
    }

    private CompletableFuture<?> stat(S3AsyncClient client, ObjectPool pool, String key, OperationStats stats) {
        long start = System.nanoTime();
        return client.headObject(request -> request.bucket(s3.bucket).key(key))
            .whenComplete((result, error) -> {
                pool.releaseRead(key);
                record(stats, start, error, 0);
            });
    }

    private CompletableFuture<?> delete(S3AsyncClient client, String key, OperationStats stats) {
        long start = System.nanoTime();
        return client.deleteObject(request -> request.bucket(s3.bucket).key(key))
            .whenComplete((result, error) -> record(stats, start, error, 0));
    }

    private static void record(OperationStats stats, long start, @Nullable Throwable error, long bytes) {
        if (error == null) {
            stats.success(start, bytes);
        } else {
            stats.failure(error);
        }
    }
}
