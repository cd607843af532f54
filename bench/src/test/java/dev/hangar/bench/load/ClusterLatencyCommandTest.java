package dev.hangar.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.bench.LoadGenerator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code cluster-lat} with tiny sizes and checks its CSV; no wall-clock upper bound anywhere. */
class ClusterLatencyCommandTest {

    @Test
    void measuresEveryOperationFromBothCoordinatorsAtEveryDelay(@TempDir Path out) throws Exception {
        StringWriter stdout = new StringWriter();
        StringWriter stderr = new StringWriter();
        int exit = LoadGenerator.run(new PrintWriter(stdout), new PrintWriter(stderr), "cluster-lat",
            "--delays", "0,5", "--ops", "20", "--warmup", "5", "--block-size", "64KiB", "--out", out.toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", stdout, stderr).isZero();
        assertThat(out.resolve(ClusterLatencyCommand.PLOT_FILE)).isNotEmptyFile();
        List<String> lines = Files.readAllLines(out.resolve(ClusterLatencyCommand.CSV_FILE));
        assertThat(lines.getFirst()).isEqualTo(String.join(",", ClusterLatencyCommand.CSV_HEADER));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            assertThat(cells).hasSameSizeAs(ClusterLatencyCommand.CSV_HEADER.toArray());
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < cells.length; i++) {
                row.put(ClusterLatencyCommand.CSV_HEADER.get(i), cells[i]);
            }
            rows.add(row);
        }
        // 2 delays x 2 coordinators x 4 operations.
        assertThat(rows).hasSize(16);
        for (Map<String, String> row : rows) {
            String what = row.toString();
            assertThat(row.get("ops")).as(what).isEqualTo("20");
            assertThat(row.get("errors")).as(what).isEqualTo("0");
            double rtt = Double.parseDouble(row.get("rtt_ms"));
            double min = Double.parseDouble(row.get("min_ms"));
            double p50 = Double.parseDouble(row.get("p50_ms"));
            double p99 = Double.parseDouble(row.get("p99_ms"));
            double rounds = Double.parseDouble(row.get("rounds_per_op"));
            assertThat(rtt).as(what).isEqualTo(2.0 * Integer.parseInt(row.get("delay_ms")));
            assertThat(min).as(what).isPositive().isLessThanOrEqualTo(p50);
            assertThat(p50).as(what).isLessThanOrEqualTo(p99);
            // Only a block read coordinated by a replica is served by its local copy; everything
            // else needs at least one remote answer, so at least one round and one round trip.
            boolean local = row.get("coordinator").equals("replica") && row.get("op").equals("block-read");
            if (local) {
                assertThat(rounds).as(what).isZero();
            } else {
                assertThat(rounds).as(what).isGreaterThanOrEqualTo(1.0);
                assertThat(min).as(what).isGreaterThanOrEqualTo(rtt);
            }
            if (rtt > 0) {
                assertThat(Double.parseDouble(row.get("p50_per_rtt"))).as(what).isCloseTo(p50 / rtt, org.assertj.core.data.Offset.offset(0.01));
            } else {
                assertThat(row.get("p50_per_rtt")).as(what).isEmpty();
            }
        }
    }
}
