package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The table and CSV of the {@code encryption} benchmark: per mode PUT and GET MiB/s and their ratio
 * to plain objects measured in the same run, overall and as the median of the rounds' ratios.
 */
final class EncryptionReport {

    static final List<String> TABLE_HEADER = List.of("mode", "PUTs", "GETs", "errors", "PUT MiB/s", "PUT vs plain", "per round",
        "GET MiB/s", "GET vs plain", "per round", "PUT p50 ms", "GET p50 ms");
    static final List<String> CSV_HEADER = List.of("mode", "puts", "gets", "errors", "put_mib_per_s", "put_ratio", "put_round_ratio",
        "get_mib_per_s", "get_ratio", "get_round_ratio", "put_p50_ms", "get_p50_ms", "supported");
    static final String UNSUPPORTED = "not supported by the endpoint";

    private final List<EncryptionResult> results;
    private final Optional<EncryptionResult> plain;

    EncryptionReport(List<EncryptionResult> results) {
        this.results = List.copyOf(results);
        this.plain = results.stream().filter(result -> result.mode() == EncryptionMode.PLAIN && result.supported()).findFirst();
    }

    /** A mode's PUT throughput over plain's, NaN without a plain figure. */
    double putRatio(EncryptionResult result) {
        return plain.map(reference -> EncryptionResult.ratio(result.putMibPerSecond(), reference.putMibPerSecond())).orElse(Double.NaN);
    }

    double getRatio(EncryptionResult result) {
        return plain.map(reference -> EncryptionResult.ratio(result.getMibPerSecond(), reference.getMibPerSecond())).orElse(Double.NaN);
    }

    /** The median over rounds of a mode's PUT MiB/s over plain's in the same round, NaN without a plain figure. */
    double putRoundRatio(EncryptionResult result) {
        return plain.map(reference -> EncryptionResult.medianRatio(result.putRounds(), reference.putRounds())).orElse(Double.NaN);
    }

    double getRoundRatio(EncryptionResult result) {
        return plain.map(reference -> EncryptionResult.medianRatio(result.getRounds(), reference.getRounds())).orElse(Double.NaN);
    }

    Table table() {
        Table table = new Table(TABLE_HEADER);
        for (EncryptionResult result : results) {
            if (!result.supported()) {
                table.row(List.of(result.mode().label(), "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"));
                continue;
            }
            table.row(List.of(result.mode().label(), Long.toString(result.puts()), Long.toString(result.gets()),
                Long.toString(result.errors()), number(result.putMibPerSecond(), 1), percent(putRatio(result)),
                percent(putRoundRatio(result)), number(result.getMibPerSecond(), 1), percent(getRatio(result)),
                percent(getRoundRatio(result)), number(result.putP50Millis(), 1),
                number(result.getP50Millis(), 1)));
        }
        return table;
    }

    Csv csv() {
        Csv csv = new Csv(CSV_HEADER);
        for (EncryptionResult result : results) {
            boolean supported = result.supported();
            csv.row(List.of(result.mode().label(), Long.toString(result.puts()), Long.toString(result.gets()),
                Long.toString(result.errors()), supported ? number(result.putMibPerSecond(), 2) : "",
                supported ? number(putRatio(result), 3) : "", supported ? number(putRoundRatio(result), 3) : "",
                supported ? number(result.getMibPerSecond(), 2) : "", supported ? number(getRatio(result), 3) : "",
                supported ? number(getRoundRatio(result), 3) : "", supported ? number(result.putP50Millis(), 2) : "",
                supported ? number(result.getP50Millis(), 2) : "", Boolean.toString(supported)));
        }
        return csv;
    }

    /** One line per mode the endpoint refused, with its answer (its row in the table has only dashes). */
    void printUnsupported(PrintWriter out) {
        for (EncryptionResult result : results) {
            if (!result.supported()) {
                out.println(result.mode().label() + ": " + UNSUPPORTED + " (" + result.unsupported() + ")");
            }
        }
    }

    /** A figure, or {@code -} when there is none (an empty CSV cell would read as zero). */
    static String number(double value, int decimals) {
        return Double.isFinite(value) ? Table.decimal(value, decimals) : "-";
    }

    static String percent(double ratio) {
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.0f %%", ratio * 100) : "-";
    }
}
