package dev.hangar.bench.consensus;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns the CSV that JMH writes for {@link ConsensusBenchmark} ({@code -rf csv -rff FILE}) into the lab's Markdown
 * table: per operation, policy, role, cluster size and delay, the latency percentiles beside the rounds the
 * coordinator counted per request and those docs/cluster.md expects ({@link ExpectedRounds}), and how many round
 * trips the delay added to the median, {@code (p50 - p50 at delay 0) / (2 * delay)}, when the run has the cell at
 * delay 0 too.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.hangar.bench.consensus.ConsensusTable results.csv</pre>
 */
public final class ConsensusTable {
    private static final List<String> AXES = List.of("policy", "role", "nodes", "delayMs");

    /** One benchmark method at one point of the parameter matrix. */
    private record Cell(Operation operation, Map<String, String> params) {
        Policy policy() {
            return Policy.parse(params.get("policy"));
        }

        Role role() {
            return Role.parse(params.get("role"));
        }

        int delayMs() {
            return Integer.parseInt(params.get("delayMs"));
        }

        Cell atDelay(int delay) {
            Map<String, String> moved = new TreeMap<>(params);
            moved.put("delayMs", Integer.toString(delay));
            return new Cell(operation, moved);
        }
    }

    /** The results of one cell: the primary score's sample count, and the secondary results by name. */
    private record Results(long samples, Map<String, Double> secondary) {
        Optional<Double> get(String name) {
            return Optional.ofNullable(secondary.get(name));
        }

        double perRequest(String counter) {
            double requests = get("requests").orElse(0.0);
            return requests == 0 ? Double.NaN : get(counter).orElse(0.0) / requests;
        }
    }

    private ConsensusTable() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ConsensusTable JMH_RESULTS.csv");
            System.exit(2);
        }
        print(Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8), System.out);
    }

    static void print(List<String> csv, PrintStream out) {
        List<String> header = fields(csv.getFirst());
        Map<Cell, Long> samples = new LinkedHashMap<>();
        Map<Cell, Map<String, Double>> secondary = new LinkedHashMap<>();
        for (String line : csv.subList(1, csv.size())) {
            if (line.isBlank()) {
                continue;
            }
            List<String> row = fields(line);
            // dev.hangar...ConsensusBenchmark.getObject, or with a secondary result: ...getObject:p0.50
            String benchmark = row.get(header.indexOf("Benchmark"));
            int colon = benchmark.indexOf(':');
            String qualified = colon < 0 ? benchmark : benchmark.substring(0, colon);
            String method = qualified.substring(qualified.lastIndexOf('.') + 1);
            String secondaryName = colon < 0 ? null : benchmark.substring(colon + 1);
            Optional<Operation> operation = Operation.ofMethod(method);
            if (operation.isEmpty()) {
                continue;
            }
            Map<String, String> params = new TreeMap<>();
            for (int i = 0; i < header.size(); i++) {
                if (header.get(i).startsWith("Param: ")) {
                    params.put(header.get(i).substring("Param: ".length()), row.get(i));
                }
            }
            Cell cell = new Cell(operation.get(), params);
            double score = Double.parseDouble(row.get(header.indexOf("Score")));
            if (secondaryName != null) {
                secondary.computeIfAbsent(cell, ignored -> new LinkedHashMap<>()).put(secondaryName, score);
            } else {
                samples.put(cell, Long.parseLong(row.get(header.indexOf("Samples"))));
            }
        }
        Map<Cell, Results> results = new LinkedHashMap<>();
        samples.forEach((cell, count) -> results.put(cell, new Results(count, secondary.getOrDefault(cell, Map.of()))));
        List<String> varying = varyingParams(results.keySet());
        List<String> columns = new ArrayList<>(List.of("operation", "policy", "role", "nodes", "delay ms"));
        columns.addAll(varying);
        columns.addAll(List.of("samples", "p50 ms", "p90 ms", "p99 ms", "object rounds (expected)",
                "settings rounds (expected)", "RTTs added at p50 (expected)"));
        out.println("| " + String.join(" | ", columns) + " |");
        out.println("|" + "---|".repeat(columns.size()));
        results.keySet().stream().sorted(order()).forEach(cell -> out.println(row(cell, results, varying)));
    }

    private static String row(Cell cell, Map<Cell, Results> results, List<String> varying) {
        Results measured = results.get(cell);
        int expectedObject = ExpectedRounds.object(cell.policy(), cell.role(), cell.operation());
        int expectedSettings = cell.params().getOrDefault("calls", "s3").equals("s3")
                ? ExpectedRounds.SETTINGS_WHEN_WARM
                : 0;
        List<String> cells = new ArrayList<>(List.of(cell.operation().method(), cell.params().get("policy"),
                cell.params().get("role"), cell.params().get("nodes"), cell.params().get("delayMs")));
        varying.forEach(param -> cells.add(cell.params().get(param)));
        cells.add(Long.toString(measured.samples()));
        for (String percentile : List.of("p0.50", "p0.90", "p0.99")) {
            cells.add(measured.get(percentile).map(ConsensusTable::millis).orElse("-"));
        }
        cells.add(rounds(measured.perRequest("objectRounds")) + " (" + expectedObject + ")");
        cells.add(rounds(measured.perRequest("settingsRounds")) + " (" + expectedSettings + ")");
        Results atZero = results.get(cell.atDelay(0));
        String added = "-";
        if (cell.delayMs() > 0 && atZero != null && measured.get("p0.50").isPresent()
                && atZero.get("p0.50").isPresent()) {
            double rttsAdded = (measured.get("p0.50").get() - atZero.get("p0.50").get()) / (2.0 * cell.delayMs());
            added = String.format(Locale.ROOT, "%.2f (%d)", rttsAdded, expectedObject + expectedSettings);
        }
        cells.add(added);
        return "| " + String.join(" | ", cells) + " |";
    }

    // Parameters beyond the table's axes that differ between cells get a column; the others are the run's constants.
    private static List<String> varyingParams(Set<Cell> cells) {
        Map<String, Set<String>> values = new TreeMap<>();
        cells.forEach(cell -> cell.params().forEach((param, value) -> values
                .computeIfAbsent(param, ignored -> new LinkedHashSet<>()).add(value)));
        return values.entrySet().stream().filter(entry -> !AXES.contains(entry.getKey()) && entry.getValue().size() > 1)
                .map(Map.Entry::getKey).toList();
    }

    private static Comparator<Cell> order() {
        return Comparator.comparing(Cell::operation)
                .thenComparing(cell -> Integer.parseInt(cell.params().get("nodes")))
                .thenComparing(Cell::policy).thenComparing(Cell::role).thenComparing(Cell::delayMs)
                .thenComparing(cell -> cell.params().toString());
    }

    private static String millis(double value) {
        return String.format(Locale.ROOT, value < 10 ? "%.2f" : "%.1f", value);
    }

    private static String rounds(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    // JMH's CSV: fields separated by commas, text in double quotes (a quote doubled inside), numbers bare.
    static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
