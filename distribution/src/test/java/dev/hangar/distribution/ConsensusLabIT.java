package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hangar.bench.lab.ConsensusLab;
import dev.hangar.bench.load.Csv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The consensus lab's small matrix (docs/consensus-lab.md), as CI runs it: both policies on 3 containers of
 * the image and a gateway, with the delay proxies in front of them, at 0 and 100 ms RTT, then a little of
 * every other run. It checks the lab's output, not the figures: every cell is there with every request
 * answered, the delay shows (an operation that crosses the network takes at least the round trip), the
 * nodes' rounds metric is in every cell, and the Raft mode lets exactly one conditional write of a race win.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class ConsensusLabIT {
    private static final String IMAGE = System.getProperty("hangar.image", "hangar:dev");
    private static final List<String> POLICIES = List.of("leaderless", "raft");
    private static final List<String> COORDINATORS = List.of("n1", "gw");
    private static final List<String> OPERATIONS = List.of("ListBuckets", "ListObjectsV2", "PutObject", "GetObject",
            "DeleteObject");
    private static final int ROUNDS = 8;
    private static final int RACES = 5;

    @TempDir
    Path out;

    @Test
    void theSmallMatrixHasEveryCellTheDelayAndTheRounds() throws IOException {
        assumeFalse(SuiteCluster.isOn(), "ConsensusLabIT runs in the default failsafe execution only");
        assumeFalse("skip".equalsIgnoreCase(System.getenv().getOrDefault("HANGAR_CONTAINERS", "")),
                "HANGAR_CONTAINERS=skip: not starting containers");
        // The lab's failure travels into this test's own failure message: a summary of the run shows why, not
        // only that the exit status was 1.
        AtomicReference<Exception> failure = new AtomicReference<>();
        CommandLine lab = new CommandLine(new ConsensusLab()).setExecutionExceptionHandler((e, command, parsed) -> {
            failure.set(e);
            return 1;
        });
        int exit = lab.execute("--image", IMAGE, "--policies", String.join(",", POLICIES),
                "--topologies", "3", "--rtts", "0,100", "--jitter-percent", "0", "--warmup", "3", "--rounds",
                Integer.toString(ROUNDS), "--clients", "1,8", "--load-seconds", "3", "--load-rtt", "10", "--races",
                Integer.toString(RACES), "--failover-seconds", "8", "--failover-clients", "4", "--out", out.toString());
        if (failure.get() != null) {
            throw new AssertionError("the lab failed: " + failure.get(), failure.get());
        }
        assertThat(exit).as("the lab's exit status (its output above says why)").isZero();

        List<Map<String, String>> latency = Csv.read(out.resolve("latency.csv"));
        for (String policy : POLICIES) {
            for (int rtt : List.of(0, 100)) {
                for (String coordinator : COORDINATORS) {
                    for (String operation : OPERATIONS) {
                        String cell = policy + " at " + rtt + " ms RTT through " + coordinator + ", " + operation;
                        Map<String, String> row = latency.stream().filter(r -> r.get("policy").equals(policy)
                                && r.get("rtt_ms").equals(Integer.toString(rtt)) && r.get("coordinator").equals(coordinator)
                                && r.get("operation").equals(operation)).findFirst().orElse(null);
                        assertThat(row).as(cell).isNotNull();
                        assertThat(row.get("requests")).as("requests answered, %s", cell).isEqualTo(Integer.toString(ROUNDS));
                        assertThat(row.get("errors")).as("requests failed, %s", cell).isEqualTo("0");
                        assertThat(row.get("rounds_per_request")).as("the nodes' rounds metric, %s", cell).isNotEmpty();
                        if (rtt == 100 && (operation.equals("PutObject") || operation.equals("DeleteObject"))) {
                            // A write waits for a quorum or a Raft majority: at least one round trip to another node.
                            assertThat(Double.parseDouble(row.get("p50_ms"))).as("p50 of %s", cell).isGreaterThanOrEqualTo(100.0);
                            assertThat(Double.parseDouble(row.get("rounds_per_request"))).as("rounds of %s", cell)
                                    .isGreaterThanOrEqualTo(1.0);
                        }
                    }
                }
            }
        }
        List<Map<String, String>> throughput = Csv.read(out.resolve("throughput.csv"));
        assertThat(throughput).as("throughput runs: 2 policies × 2 client counts").hasSize(4)
                .allSatisfy(row -> assertThat(Long.parseLong(row.get("requests"))).as("requests of %s", row).isPositive());
        List<Map<String, String>> races = Csv.read(out.resolve("races.csv"));
        assertThat(races).hasSize(2);
        Map<String, String> raft = races.stream().filter(row -> row.get("policy").equals("raft")).findFirst().orElseThrow();
        assertThat(raft.get("conditional_winners")).as("If-None-Match: * winners in %d Raft races", RACES)
                .isEqualTo(Integer.toString(RACES));
        assertThat(raft.get("versions_lost")).as("acknowledged versions lost in Raft races").isEqualTo("0");
        List<Map<String, String>> failover = Csv.read(out.resolve("failover.csv"));
        assertThat(failover).extracting(row -> row.get("policy")).as("failover runs").contains("leaderless", "raft");
        assertThat(out.resolve("summary.md")).content().contains("## Topology 3", "## Failover", "## What each policy buys");
        try (var plots = Files.list(out)) {
            assertThat(plots.filter(file -> file.toString().endsWith(".png")).count())
                    .as("plots: 5 latency plots, 2 failover plots").isEqualTo(7);
        }
    }
}
