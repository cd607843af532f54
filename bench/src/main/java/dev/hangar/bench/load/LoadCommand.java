package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * What every load command shares: the connection, the seed, the CSV file and the key prefix; opens
 * the client, makes sure the bucket exists, and turns failed requests into exit code 1.
 */
abstract class LoadCommand implements Callable<Integer> {

    static final double MIB = 1024.0 * 1024.0;

    @Mixin
    S3Options s3 = new S3Options();

    @Spec
    @Nullable CommandSpec spec;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of payloads, sizes, keys and choices (default: ${DEFAULT-VALUE}).")
    long seed = 1;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write the results as CSV to FILE.")
    @Nullable Path csv;

    @Option(names = "--prefix", description = "Prefix of the keys written (default: the command's name and a slash).")
    @Nullable String prefix;

    @Override
    public final Integer call() throws Exception {
        Path plot = plot();
        if (plot != null) {
            Plots.checkFormat(plot);
        }
        validate();
        try (S3AsyncClient client = s3.open(concurrency())) {
            s3.ensureBucket(client);
            return run(client, out());
        }
    }

    /** Requests in flight at most. */
    abstract int concurrency();

    /** The plot file asked for, if the command draws one. */
    @Nullable Path plot() {
        return null;
    }

    /** Checks the parameters before any request is sent. */
    void validate() {
    }

    /** Runs the benchmark and prints its report; returns the exit code. */
    abstract int run(S3AsyncClient client, PrintWriter out) throws Exception;

    final CommandSpec spec() {
        if (spec == null) {
            throw new IllegalStateException("picocli did not inject the command spec");
        }
        return spec;
    }

    final PrintWriter out() {
        return spec().commandLine().getOut();
    }

    final String keyPrefix() {
        return prefix != null ? prefix : spec().name() + "/";
    }

    final void requirePositive(String option, long value) {
        if (value <= 0) {
            throw new picocli.CommandLine.ParameterException(spec().commandLine(), option + " must be positive, got " + value);
        }
    }

    /** The first lines of a report: what ran, against what, on which machine. */
    final void header(PrintWriter out, String parameters) {
        out.println("# hangar-bench " + spec().name() + " " + s3.describe() + " " + parameters + " seed=" + seed);
        out.println(machine());
        out.flush();
    }

    /** The report line that says on which machine it ran. */
    static String machine() {
        return "# machine: " + Runtime.getRuntime().availableProcessors() + " cpus, " + System.getProperty("os.name") + " "
            + System.getProperty("os.arch") + ", java " + System.getProperty("java.version");
    }

    /** Reports failed requests on stderr; 1 if any request failed, else 0. */
    final int exitCode(List<OperationStats> operations) {
        long errors = 0;
        PrintWriter err = spec().commandLine().getErr();
        for (OperationStats operation : operations) {
            if (operation.errors() > 0) {
                errors += operation.errors();
                err.println(operation.name() + ": " + operation.errors() + " failed requests, first: " + operation.firstError());
            }
        }
        err.flush();
        return errors == 0 ? 0 : 1;
    }

    final void writeCsv(Csv table, PrintWriter out) throws java.io.IOException {
        if (csv != null) {
            table.write(csv);
            out.println("CSV written to " + csv);
        }
    }

    static String millis(double value) {
        return Table.decimal(value, 2);
    }
}
