package dev.hangar.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EncryptionReportTest {

    private static final long MIB = 1024 * 1024;
    private static final long SECOND = 1_000_000_000L;

    /**
     * 8 objects of 64 MiB each way in two rounds: PUT in {@code putSeconds}, GET in {@code
     * getSeconds}, both rounds as fast.
     */
    private static EncryptionResult result(EncryptionMode mode, double putSeconds, double getSeconds) {
        double putRound = 8 * 64 / putSeconds;
        double getRound = 8 * 64 / getSeconds;
        return result(mode, putSeconds, getSeconds, List.of(putRound, putRound), List.of(getRound, getRound));
    }

    private static EncryptionResult result(EncryptionMode mode, double putSeconds, double getSeconds, List<Double> putRounds,
                                           List<Double> getRounds) {
        return new EncryptionResult(mode, 8, 8, 0, 8 * 64 * MIB, (long) (putSeconds * SECOND), 8 * 64 * MIB, (long) (getSeconds * SECOND),
            120.5, 60.25, putRounds, getRounds, null);
    }

    private static EncryptionResult unsupported(EncryptionMode mode) {
        return new EncryptionResult(mode, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), List.of(), "HTTP 501 NotImplemented");
    }

    @Test
    void throughputIsBytesOverTheModesOwnBatchTime() {
        assertThat(result(EncryptionMode.PLAIN, 4, 2).putMibPerSecond()).isCloseTo(128.0, within(1e-9));
        assertThat(result(EncryptionMode.PLAIN, 4, 2).getMibPerSecond()).isCloseTo(256.0, within(1e-9));
        assertThat(EncryptionResult.mibPerSecond(MIB, 0)).isNaN();
    }

    @Test
    void ratiosAreAgainstPlainOfTheSameRun() {
        EncryptionResult plain = result(EncryptionMode.PLAIN, 4, 2);
        EncryptionResult sealed = result(EncryptionMode.SSE_C, 5, 4);
        EncryptionReport report = new EncryptionReport(List.of(sealed, plain));

        assertThat(report.putRatio(sealed)).isCloseTo(0.8, within(1e-9));
        assertThat(report.getRatio(sealed)).isCloseTo(0.5, within(1e-9));
        assertThat(report.putRatio(plain)).isEqualTo(1.0);
    }

    @Test
    void theRoundRatioIsTheMedianOfEachRoundAgainstPlainInTheSameRound() {
        // The machine slows down by half in round 1 and stalls in round 3: rounds still compare like with like.
        EncryptionResult plain = result(EncryptionMode.PLAIN, 4, 2, List.of(100.0, 50.0, 100.0, 100.0, Double.NaN),
            List.of(200.0, 100.0, 200.0, 200.0, 200.0));
        EncryptionResult sealed = result(EncryptionMode.SSE_C, 5, 4, List.of(80.0, 40.0, 90.0, 10.0, 80.0),
            List.of(100.0, 50.0, 100.0, 100.0));
        EncryptionReport report = new EncryptionReport(List.of(plain, sealed));

        assertThat(report.putRoundRatio(sealed)).as("rounds 0-3 (round 4 has no plain figure): 0.1, 0.8, 0.8, 0.9")
            .isCloseTo(0.8, within(1e-9));
        assertThat(report.getRoundRatio(sealed)).isCloseTo(0.5, within(1e-9));
        assertThat(EncryptionResult.medianRatio(List.of(1.0, 3.0, 2.0), List.of(1.0, 1.0, 1.0))).isEqualTo(2.0);
        assertThat(EncryptionResult.medianRatio(List.of(Double.NaN), List.of(1.0))).isNaN();
        assertThat(EncryptionResult.medianRatio(List.of(), List.of())).isNaN();
    }

    @Test
    void withoutAPlainFigureThereIsNoRatio() {
        EncryptionResult sealed = result(EncryptionMode.SSE_C, 5, 4);
        assertThat(new EncryptionReport(List.of(sealed)).putRatio(sealed)).isNaN();
        assertThat(new EncryptionReport(List.of(unsupported(EncryptionMode.PLAIN), sealed)).getRatio(sealed)).isNaN();
        assertThat(EncryptionResult.ratio(1, 0)).isNaN();
        assertThat(EncryptionResult.ratio(Double.NaN, 1)).isNaN();
    }

    @Test
    void tableAndCsvShowEveryModeAndSayWhichTheEndpointRefused(@TempDir Path dir) throws IOException {
        EncryptionReport report = new EncryptionReport(List.of(result(EncryptionMode.PLAIN, 4, 2), result(EncryptionMode.SSE_C, 5, 4),
            unsupported(EncryptionMode.SSE_S3)));
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        report.table().print(out);
        report.printUnsupported(out);
        out.flush();

        List<String> lines = text.toString().lines().toList();
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).startsWith("mode    PUTs  GETs  errors  PUT MiB/s  PUT vs plain  per round  GET MiB/s");
        assertThat(lines.get(1)).matches("[- ]+");
        assertThat(lines.get(2).split(" +")).containsExactly("plain", "8", "8", "0", "128.0", "100", "%", "100", "%", "256.0", "100", "%",
            "100", "%", "120.5", "60.3");
        assertThat(lines.get(3).split(" +")).containsExactly("sse-c", "8", "8", "0", "102.4", "80", "%", "80", "%", "128.0", "50", "%",
            "50", "%", "120.5", "60.3");
        assertThat(lines.get(4).split(" +")).containsExactly("sse-s3", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-");
        assertThat(lines.get(5)).isEqualTo("sse-s3: not supported by the endpoint (HTTP 501 NotImplemented)");
        assertThat(lines.subList(0, 5)).extracting(String::length).as("fixed width").allSatisfy(length ->
            assertThat(length).isEqualTo(lines.get(1).length()));

        Path file = dir.resolve("encryption.csv");
        report.csv().write(file);
        List<Map<String, String>> rows = Csv.read(file);
        assertThat(rows).extracting(row -> row.get("mode")).containsExactly("plain", "sse-c", "sse-s3");
        assertThat(rows.get(1)).containsEntry("put_mib_per_s", "102.40").containsEntry("put_ratio", "0.800").containsEntry("put_round_ratio", "0.800")
            .containsEntry("get_mib_per_s", "128.00").containsEntry("get_ratio", "0.500").containsEntry("supported", "true");
        assertThat(rows.get(2)).containsEntry("puts", "0").containsEntry("put_mib_per_s", "").containsEntry("get_ratio", "")
            .containsEntry("supported", "false");
    }
}
