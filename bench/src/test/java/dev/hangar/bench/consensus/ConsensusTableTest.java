package dev.hangar.bench.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lab's table from a JMH CSV shaped as JMH writes it for two delays of one cell. */
class ConsensusTableTest {
    private static final String HEADER = "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\","
            + "\"Score Error (99.9%)\",\"Unit\",\"Param: calls\",\"Param: delayMs\",\"Param: nodes\",\"Param: policy\","
            + "\"Param: role\",\"Param: size\",\"Param: sync\"";

    @Test
    void putsPercentilesRoundsPerRequestAndRoundTripsAddedInOneRowPerCell() {
        List<String> csv = List.of(HEADER,
                row("putObject", 400, 2.5, "ms/op", 0), row("putObject:p0.50", 1, 2.0, "ms/op", 0),
                row("putObject:p0.90", 1, 3.0, "ms/op", 0), row("putObject:p0.99", 1, 9.0, "ms/op", 0),
                row("putObject:requests", 1, 400, "#", 0), row("putObject:objectRounds", 1, 800, "#", 0),
                row("putObject:settingsRounds", 1, 0, "#", 0),
                row("putObject", 20, 300.5, "ms/op", 25), row("putObject:p0.50", 1, 102.0, "ms/op", 25),
                row("putObject:p0.90", 1, 360.0, "ms/op", 25), row("putObject:p0.99", 1, 400.0, "ms/op", 25),
                row("putObject:requests", 1, 20, "#", 25), row("putObject:objectRounds", 1, 40, "#", 25),
                row("putObject:settingsRounds", 1, 0, "#", 25));

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ConsensusTable.print(csv, new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(printed.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "| operation | policy | role | nodes | delay ms | samples | p50 ms | p90 ms | p99 ms"
                        + " | object rounds (expected) | settings rounds (expected) | RTTs added at p50 (expected) |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|",
                "| putObject | raft-lease | gateway | 3 | 0 | 400 | 2.00 | 3.00 | 9.00 | 2.00 (2) | 0.00 (0) | - |",
                // (102 - 2) / 50 = 2 round trips: the forward and the append; the settings are the gateway's copies.
                "| putObject | raft-lease | gateway | 3 | 25 | 20 | 102.0 | 360.0 | 400.0 | 2.00 (2) | 0.00 (0)"
                        + " | 2.00 (2) |");
    }

    @Test
    void readsQuotedFieldsWithDoubledQuotes() {
        assertThat(ConsensusTable.fields("\"a,b\",1,\"say \"\"hi\"\"\",x")).containsExactly("a,b", "1", "say \"hi\"",
                "x");
    }

    private static String row(String benchmark, long samples, double score, String unit, int delayMs) {
        return "\"dev.hangar.bench.consensus.ConsensusBenchmark." + benchmark + "\",\"sample\",1," + samples + ","
                + score + ",NaN,\"" + unit + "\",s3," + delayMs + ",3,raft-lease,gateway,256,none";
    }
}
