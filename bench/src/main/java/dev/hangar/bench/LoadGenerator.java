package dev.hangar.bench;

import dev.hangar.bench.aot.TrainCommand;
import dev.hangar.bench.load.BillionCommand;
import dev.hangar.bench.load.ClusterLatencyCommand;
import dev.hangar.bench.load.ColdStartCommand;
import dev.hangar.bench.load.EncryptionCommand;
import dev.hangar.bench.load.LatencyCommand;
import dev.hangar.bench.load.MixedCommand;
import dev.hangar.bench.load.SmallFilesCommand;
import dev.hangar.bench.load.TimeToFirstByteCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The S3 load generator: reproduces the benchmarks of the seeds against any S3 endpoint (Hangar,
 * MinIO, Garage, AWS). Run it from the shaded jar:
 *
 * <pre>{@code java -cp bench/target/benchmarks.jar dev.hangar.bench.LoadGenerator billion --help}</pre>
 */
@Command(name = "hangar-bench", mixinStandardHelpOptions = true, version = "hangar-bench 0.1.0",
    description = {"S3 load generator: the seed benchmarks against any S3 endpoint. Every command stops by itself.",
        "cluster-lat needs no endpoint: it starts in-process cluster nodes and injects network delay."},
    subcommands = {MixedCommand.class, BillionCommand.class, SmallFilesCommand.class, LatencyCommand.class,
        TimeToFirstByteCommand.class, EncryptionCommand.class, ClusterLatencyCommand.class, TrainCommand.class,
        ColdStartCommand.class})
public final class LoadGenerator implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs one command in this JVM, printing to the given writers; returns the exit code. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new LoadGenerator());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        int exitCode = commandLine.execute(args);
        out.flush();
        err.flush();
        return exitCode;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
