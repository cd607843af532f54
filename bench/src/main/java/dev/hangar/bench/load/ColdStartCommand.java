package dev.hangar.bench.load;

import dev.hangar.bench.Folders;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * A fresh server's first requests: starts the server command given, on an emptied data folder,
 * times the start to its first answered signed request (ListBuckets), then writes one object of
 * each size and times one client's first GETs of them in turn. What a user sees of a JVM that has
 * not warmed up yet, and whether one size is much slower than its neighbours (a latency cliff).
 */
@Command(name = "coldstart", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Starts a server (the command after --) on an empty data folder, times its start to the first answered request,",
        "then one client's first GETs of objects of each size. Repeats with --runs; works with any S3 server."})
public final class ColdStartCommand implements Callable<Integer> {

    @Mixin
    S3Options s3 = new S3Options();

    @Spec
    @Nullable CommandSpec spec;

    @Option(names = "--data", required = true, description = "The server's data folder, emptied before each start.")
    Path data = Path.of("data");

    @Option(names = "--runs", defaultValue = "3", description = "Fresh starts (default: ${DEFAULT-VALUE}).")
    int runs = 3;

    @Option(names = "--requests", defaultValue = "1000", description = "GETs after each start, sizes in turn (default: ${DEFAULT-VALUE}).")
    int requests = 1000;

    @Option(names = "--sizes", split = ",", converter = ByteSize.class,
        defaultValue = "1KiB,2KiB,4KiB,8KiB,16KiB,32KiB,64KiB,128KiB,256KiB,512KiB,1MiB,2MiB,4MiB",
        description = "Object sizes, ascending (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes = List.of();

    @Option(names = "--small", defaultValue = "64KiB", converter = ByteSize.class,
        description = "Sizes up to this one make the 'small GET' line (default: ${DEFAULT-VALUE}).")
    int small = 64 * 1024;

    @Option(names = "--start-limit", defaultValue = "PT2M", description = "Longest wait for the first answer (default: ${DEFAULT-VALUE}).")
    Duration startLimit = Duration.ofMinutes(2);

    @Option(names = "--log", description = "Append the server's output to this file (default: discarded).")
    @Nullable Path log;

    @Parameters(arity = "1..*", paramLabel = "COMMAND", description = "The server's command line, after --.")
    List<String> command = List.of();

    @Override
    public Integer call() throws Exception {
        CommandSpec commandSpec = spec();
        PrintWriter out = commandSpec.commandLine().getOut();
        if (runs <= 0 || requests <= 0 || sizes.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(commandSpec.commandLine(), "--runs, --requests and --sizes must be positive");
        }
        out.println("# hangar-bench coldstart " + s3.describe() + " runs=" + runs + " requests=" + requests + " command=" + command);
        out.println(LoadCommand.machine());
        List<OperationStats> bySize = sizes.stream().map(size -> new OperationStats(ByteSize.format(size))).toList();
        OperationStats smallGets = new OperationStats("small GET");
        long[] startMillis = new long[runs];
        try (S3AsyncClient client = s3.open(1)) {
            for (int run = 0; run < runs; run++) {
                startMillis[run] = oneRun(client, run, bySize, smallGets);
                out.printf(Locale.ROOT, "run %d: first answer %d ms after the start%n", run + 1, startMillis[run]);
                out.flush();
            }
        }
        long[] sorted = startMillis.clone();
        Arrays.sort(sorted);
        out.printf(Locale.ROOT, "start to first answer: median %d ms, min %d ms, max %d ms%n", sorted[runs / 2], sorted[0], sorted[runs - 1]);
        Table table = new Table(List.of("size", "GETs", "errors", "p50 ms", "p90 ms", "max ms", "p50 / previous"));
        double previous = Double.NaN;
        for (OperationStats stats : bySize) {
            double p50 = stats.percentileMillis(50);
            table.row(List.of(stats.name(), Long.toString(stats.count()), Long.toString(stats.errors()), Table.decimal(p50, 2),
                Table.decimal(stats.percentileMillis(90), 2), Table.decimal(stats.maxMillis(), 2),
                Double.isNaN(previous) ? "" : Table.decimal(p50 / previous, 2)));
            previous = p50;
        }
        table.print(out);
        out.printf(Locale.ROOT, "small GET (<= %s) of the first %d requests: p50 %.2f ms, p90 %.2f ms%n", ByteSize.format(small), requests,
            smallGets.percentileMillis(50), smallGets.percentileMillis(90));
        out.flush();
        long errors = bySize.stream().mapToLong(OperationStats::errors).sum();
        bySize.stream().filter(stats -> stats.errors() > 0)
            .forEach(stats -> commandSpec.commandLine().getErr().println(stats.name() + ": " + stats.errors() + " failed, first: "
                + stats.firstError()));
        return errors == 0 ? 0 : 1;
    }

    /** One fresh start; returns the milliseconds from the start to the first answer. */
    private long oneRun(S3AsyncClient client, int run, List<OperationStats> bySize, OperationStats smallGets) throws Exception {
        Folders.deleteTree(data);
        Files.createDirectories(data);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (log != null) {
            builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        } else {
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        }
        warmUp(client);
        long start = System.nanoTime();
        Process server = builder.start();
        try {
            long firstAnswer = awaitFirstAnswer(client, server, start);
            s3.ensureBucket(client);
            String prefix = "coldstart-" + run + "/";
            for (int i = 0; i < sizes.size(); i++) {
                int size = sizes.get(i);
                client.putObject(request -> request.bucket(s3.bucket).key(prefix + size).contentLength((long) size),
                    AsyncRequestBody.fromBytesUnsafe(Payloads.bytes(run, i, size))).join();
            }
            for (int i = 0; i < requests; i++) {
                int index = i % sizes.size();
                int size = sizes.get(index);
                long requestStart = System.nanoTime();
                try {
                    int length = client.getObject(request -> request.bucket(s3.bucket).key(prefix + size), AsyncResponseTransformer.toBytes())
                        .join().asByteArrayUnsafe().length;
                    long elapsed = System.nanoTime() - requestStart;
                    if (length != size) {
                        bySize.get(index).failure(new IllegalStateException("GET returned " + length + " bytes of " + size));
                        continue;
                    }
                    bySize.get(index).successAfter(elapsed, size);
                    if (size <= small) {
                        smallGets.successAfter(elapsed, size);
                    }
                } catch (CompletionException e) {
                    bySize.get(index).failure(e);
                }
            }
            return firstAnswer;
        } finally {
            server.destroy();
            if (!server.waitFor(2, TimeUnit.MINUTES)) {
                server.destroyForcibly().waitFor();
            }
        }
    }

    private long awaitFirstAnswer(S3AsyncClient client, Process server, long start) throws InterruptedException {
        URI endpoint = s3.endpoint;
        if (endpoint == null) {
            throw new picocli.CommandLine.ParameterException(spec().commandLine(), "coldstart needs --endpoint");
        }
        InetSocketAddress address = new InetSocketAddress(endpoint.getHost(), endpoint.getPort() > 0 ? endpoint.getPort() : 80);
        FirstAnswer.await(client, server, address, start + startLimit.toNanos(),
            log != null ? "see " + log : "--log FILE keeps its output");
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** Loads the client's own classes before the clock starts: one request to the port nothing listens on yet. */
    private static void warmUp(S3AsyncClient client) {
        try {
            client.listBuckets(request -> request.overrideConfiguration(configuration -> configuration.apiCallTimeout(FirstAnswer.ATTEMPT_LIMIT))).join();
        } catch (CompletionException expected) {
            // Refused or timed out: either way the SDK's classes are loaded now.
        }
    }

    private CommandSpec spec() {
        if (spec == null) {
            throw new IllegalStateException("picocli did not inject the command spec");
        }
        return spec;
    }
}
