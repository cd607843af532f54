package dev.hangar.bench.lab;

import dev.hangar.bench.load.OperationStats;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The consensus lab's containerised half (docs/consensus-lab.md): for each topology and each replication
 * policy, a {@link LabCluster} from the container image with a delay proxy on every inter-node link, and on
 * it Garage's s3lat workload at each round trip through a replica ({@code n1}) and through the gateway, then
 * closed-loop throughput, races through every node, and a node killed under load. Results go to {@code --out}
 * ({@link LabReport}).
 */
@Command(name = "consensus-lab", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Leaderless against Raft on Hangar clusters in containers, with delayed inter-node links.",
        "Needs a Docker engine and the image (./mvnw -DskipTests -Pimage -pl distribution -am package);",
        "bench/scripts/consensus-lab.sh builds and runs it."})
public final class ConsensusLab implements Callable<Integer> {
    private static final String BUCKET = "lab";
    private static final String VERSIONED_BUCKET = "lab-versioned";

    @Option(names = "--image", defaultValue = "hangar:dev", description = "Container image (default: ${DEFAULT-VALUE}).")
    String image = "hangar:dev";

    @Option(names = "--policies", split = ",", defaultValue = "leaderless,raft",
        description = "Replication policies (default: ${DEFAULT-VALUE}).")
    List<String> policies = List.of("leaderless", "raft");

    @Option(names = "--raft-reads", defaultValue = "lease", description = "Raft reads: lease, read-index or leader (default: ${DEFAULT-VALUE}).")
    String raftReads = "lease";

    @Option(names = "--topologies", split = ",", defaultValue = "3,5,6x3",
        description = "N storage nodes each in a zone, or NxZ in Z zones (default: ${DEFAULT-VALUE}).")
    List<String> topologies = List.of("3", "5", "6x3");

    @Option(names = "--rtts", split = ",", defaultValue = "0,10,50,100", description = "Round trips between zones, ms (default: ${DEFAULT-VALUE}).")
    List<Integer> rtts = List.of(0, 10, 50, 100);

    @Option(names = "--jitter-percent", defaultValue = "20",
        description = "Jitter between zones, percent of the one-way delay (Garage: 100 ± 20 ms). Default: ${DEFAULT-VALUE}.")
    int jitterPercent = 20;

    @Option(names = "--warmup", defaultValue = "10", description = "s3lat rounds not counted (default: ${DEFAULT-VALUE}).")
    int warmup = 10;

    @Option(names = "--rounds", defaultValue = "100", description = "s3lat rounds counted (default: ${DEFAULT-VALUE}).")
    int rounds = 100;

    @Option(names = "--load-rtt", defaultValue = "10", description = "RTT of the throughput, race and failover runs, ms (default: ${DEFAULT-VALUE}).")
    int loadRtt = 10;

    @Option(names = "--clients", split = ",", defaultValue = "1,8,64", description = "Closed-loop clients (default: ${DEFAULT-VALUE}; none: 0).")
    List<Integer> clients = List.of(1, 8, 64);

    @Option(names = "--load-seconds", defaultValue = "15", description = "Seconds per throughput run (default: ${DEFAULT-VALUE}).")
    int loadSeconds = 15;

    @Option(names = "--races", defaultValue = "100", description = "Races per kind (default: ${DEFAULT-VALUE}; none: 0).")
    int races = 100;

    @Option(names = "--failover-seconds", defaultValue = "45", description = "Length of the failover run (default: ${DEFAULT-VALUE}; none: 0).")
    int failoverSeconds = 45;

    @Option(names = "--failover-clients", defaultValue = "8", description = "Clients of the failover run (default: ${DEFAULT-VALUE}).")
    int failoverClients = 8;

    @Option(names = "--raft-expected-rtt", defaultValue = "PT0.1S",
        description = "hangar.cluster.raft.expected-rtt of the nodes (default: ${DEFAULT-VALUE}, the product's).")
    Duration raftExpectedRtt = Duration.ofMillis(100);

    @Option(names = "--out", required = true, description = "Folder of the results (CSV, summary.md, PNG plots).")
    Path out;

    @Option(names = "--replot", description = "Only draw the plots again from the CSV files in --out; run nothing.")
    boolean replot;

    @Option(names = "--label", defaultValue = "", description = "What the summary says of the run (commit, machine).")
    String label = "";

    public static void main(String[] args) {
        System.exit(new CommandLine(new ConsensusLab()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (replot) {
            LabReport.replot(out);
            return 0;
        }
        List<LabTopology> parsed = topologies.stream().map(LabTopology::parse).toList();
        LabReport report = new LabReport(out, header());
        long started = System.nanoTime();
        for (LabTopology topology : parsed) {
            for (String policy : policies) {
                log("%s on %s: starting %d storage nodes and a gateway", policy, topology, topology.storageNodes());
                long clusterStarted = System.nanoTime();
                try (LabCluster cluster = LabCluster.start(image, topology, policy, raftReads, raftExpectedRtt)) {
                    log("%s on %s: formed in %d s", policy, topology, seconds(System.nanoTime() - clusterStarted));
                    measure(cluster, policy, report);
                }
                report.write();
                log("%s on %s: done after %d s in all", policy, topology, seconds(System.nanoTime() - started));
            }
        }
        log("results in %s", out.toAbsolutePath());
        return 0;
    }

    private void measure(LabCluster cluster, String policy, LabReport report) throws IOException, InterruptedException {
        String topology = cluster.topology().name();
        S3Client first = cluster.s3(cluster.ids().getFirst());
        first.createBucket(request -> request.bucket(BUCKET));
        first.createBucket(request -> request.bucket(VERSIONED_BUCKET));
        List<String> coordinators = List.of(cluster.topology().storageIds().getFirst(), LabCluster.GATEWAY);
        for (int rtt : rtts) {
            cluster.delay(cluster.topology().delays(Duration.ofMillis(rtt), jitterPercent));
            for (String coordinator : coordinators) {
                S3Client s3 = cluster.s3(coordinator);
                String led = cluster.leadership(coordinator);
                for (S3Lat.Result result : S3Lat.run(s3, cluster.admin(coordinator), BUCKET, warmup, rounds)) {
                    OperationStats stats = result.latency();
                    report.add(new LabReport.LatencyRow(policy, topology, rtt, rtt == 0 ? 0 : jitterPercent, coordinator,
                            led, result.operation(), stats.count(), stats.errors(), stats.minMillis(),
                            stats.percentileMillis(50), stats.percentileMillis(99), stats.maxMillis(), result.roundsPerRequest()));
                }
                log("%s on %s at %d ms RTT through %s: s3lat done", policy, topology, rtt, coordinator);
            }
        }
        cluster.delay(cluster.topology().delays(Duration.ofMillis(loadRtt), loadRtt == 0 ? 0 : jitterPercent));
        List<S3Client> everyNode = new ArrayList<>();
        cluster.ids().forEach(id -> everyNode.add(cluster.s3(id)));
        for (int count : clients) {
            if (count > 0) {
                ClosedLoop.Result result = ClosedLoop.run(c -> everyNode.get(c % everyNode.size()), BUCKET, count,
                        Duration.ofSeconds(loadSeconds), "load-" + count, (at, took, failure) -> { });
                report.add(new LabReport.ThroughputRow(policy, topology, loadRtt, result));
                log("%s on %s: %d clients, %.1f requests/s", policy, topology, count, result.requestsPerSecond());
            }
        }
        if (races > 0) {
            report.add(new LabReport.RaceRow(policy, topology, loadRtt, Races.run(cluster, BUCKET, VERSIONED_BUCKET, races)));
            log("%s on %s: %d races done", policy, topology, races);
        }
        if (failoverSeconds > 0) {
            Failover.Result result = Failover.run(cluster, BUCKET, failoverClients, Duration.ofSeconds(failoverSeconds));
            report.add(new LabReport.FailoverRow(policy, topology, loadRtt, failoverClients, result));
            log("%s on %s: %s killed, %d failed requests", policy, topology, result.victim(), result.errors());
        }
    }

    private String header() {
        return "# Consensus lab run\n\n" + (label.isBlank() ? "" : label + "\n\n")
                + "Started " + Instant.now() + " on " + Runtime.getRuntime().availableProcessors() + " cores, Java "
                + Runtime.version() + ". Image `" + image + "`; policies " + policies + " (Raft reads: " + raftReads
                + "); topologies " + topologies + "; RTTs " + rtts + " ms with ±" + jitterPercent + " % jitter between zones; s3lat "
                + warmup + " warm-up + " + rounds + " rounds per coordinator; closed loop " + clients + " clients for "
                + loadSeconds + " s, " + races + " races and a " + failoverSeconds + " s failover run, at " + loadRtt
                + " ms RTT.";
    }

    private static long seconds(long nanos) {
        return Duration.ofNanos(nanos).toSeconds();
    }

    private static void log(String format, Object... args) {
        System.out.printf("[consensus-lab %s] %s%n", Instant.now().toString().substring(11, 19), String.format(format, args));
    }
}
