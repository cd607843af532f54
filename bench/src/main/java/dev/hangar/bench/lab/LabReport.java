package dev.hangar.bench.lab;

import dev.hangar.bench.load.Csv;
import dev.hangar.bench.load.Plots;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The lab's results as they come, written again after every cluster so that an interrupted run keeps what
 * it measured: {@value #LATENCY}, {@value #THROUGHPUT}, {@value #FAILOVER}, {@value #RACES}, a Markdown
 * summary ({@value #SUMMARY}) with a table per topology in round trips added to the median, and plots
 * ({@link #replot} draws them again from the CSV files).
 */
final class LabReport {
    static final String LATENCY = "latency.csv";
    static final String THROUGHPUT = "throughput.csv";
    static final String FAILOVER = "failover.csv";
    static final String RACES = "races.csv";
    static final String SUMMARY = "summary.md";
    /** PNG: measured 48–64 KB a plot, against 340–500 KB for XChart's SVG of the same plot. */
    static final String PLOT = ".png";

    static final List<String> LATENCY_HEADER = List.of("policy", "topology", "rtt_ms", "jitter_pct", "coordinator",
            "raft_groups_led", "operation", "requests", "errors", "min_ms", "p50_ms", "p99_ms", "max_ms",
            "rounds_per_request", "rtts_added");

    /** One operation through one coordinator at one delay. */
    record LatencyRow(String policy, String topology, int rttMs, int jitterPercent, String coordinator, String groupsLed,
            String operation, long requests, long errors, double minMs, double p50Ms, double p99Ms, double maxMs,
            double roundsPerRequest) {}

    record ThroughputRow(String policy, String topology, int rttMs, ClosedLoop.Result result) {}

    record FailoverRow(String policy, String topology, int rttMs, int clients, Failover.Result result) {}

    record RaceRow(String policy, String topology, int rttMs, Races.Result result) {}

    private final Path out;
    private final String header;
    private final List<LatencyRow> latency = new ArrayList<>();
    private final List<ThroughputRow> throughput = new ArrayList<>();
    private final List<FailoverRow> failovers = new ArrayList<>();
    private final List<RaceRow> races = new ArrayList<>();

    /** @param header what the summary says first: the command, the commit, the machine */
    LabReport(Path out, String header) {
        this.out = out;
        this.header = header;
    }

    void add(LatencyRow row) {
        latency.add(row);
    }

    void add(ThroughputRow row) {
        throughput.add(row);
    }

    void add(FailoverRow row) {
        failovers.add(row);
    }

    void add(RaceRow row) {
        races.add(row);
    }

    /** Writes every file from what was added so far. */
    void write() throws IOException {
        Files.createDirectories(out);
        Csv latencyCsv = new Csv(LATENCY_HEADER);
        for (LatencyRow row : latency) {
            latencyCsv.row(List.of(row.policy(), row.topology(), Integer.toString(row.rttMs()),
                    Integer.toString(row.jitterPercent()), row.coordinator(), row.groupsLed(), row.operation(),
                    Long.toString(row.requests()), Long.toString(row.errors()), number(row.minMs()), number(row.p50Ms()),
                    number(row.p99Ms()), number(row.maxMs()), number(row.roundsPerRequest()), number(rttsAdded(row))));
        }
        latencyCsv.write(out.resolve(LATENCY));
        Csv throughputCsv = new Csv(List.of("policy", "topology", "rtt_ms", "clients", "seconds", "requests", "errors",
                "requests_per_s", "p50_ms", "p99_ms"));
        for (ThroughputRow row : throughput) {
            ClosedLoop.Result result = row.result();
            throughputCsv.row(List.of(row.policy(), row.topology(), Integer.toString(row.rttMs()),
                    Integer.toString(result.clients()), number(result.elapsed().toMillis() / 1000.0),
                    Long.toString(result.latency().count()), Long.toString(result.latency().errors()),
                    number(result.requestsPerSecond()), number(result.latency().percentileMillis(50)),
                    number(result.latency().percentileMillis(99))));
        }
        throughputCsv.write(out.resolve(THROUGHPUT));
        Csv failoverCsv = new Csv(List.of("policy", "topology", "rtt_ms", "clients", "victim", "killed_at_s", "second",
                "ok", "errors", "p50_ms", "p99_ms", "max_ms"));
        for (FailoverRow row : failovers) {
            for (Failover.Second second : row.result().seconds()) {
                failoverCsv.row(List.of(row.policy(), row.topology(), Integer.toString(row.rttMs()),
                        Integer.toString(row.clients()), row.result().victim(), number(row.result().killedAtSecond()),
                        Integer.toString(second.second()), Long.toString(second.ok()), Long.toString(second.errors()),
                        number(second.p50Ms()), number(second.p99Ms()), number(second.maxMs())));
            }
        }
        failoverCsv.write(out.resolve(FAILOVER));
        Csv racesCsv = new Csv(List.of("policy", "topology", "rtt_ms", "races", "nodes", "conditional_winners",
                "races_with_several_winners", "conditional_errors", "versions_acknowledged", "versions_lost",
                "version_errors"));
        for (RaceRow row : races) {
            Races.Result r = row.result();
            racesCsv.row(List.of(row.policy(), row.topology(), Integer.toString(row.rttMs()), Integer.toString(r.races()),
                    Integer.toString(r.nodes()), Integer.toString(r.conditionalWinners()),
                    Integer.toString(r.racesWithSeveralWinners()), Integer.toString(r.conditionalErrors()),
                    Integer.toString(r.versionsAcknowledged()), Integer.toString(r.versionsLost()),
                    Integer.toString(r.versionErrors())));
        }
        racesCsv.write(out.resolve(RACES));
        Files.writeString(out.resolve(SUMMARY), summary(), StandardCharsets.UTF_8);
        plots();
    }

    /** Draws the plots of a finished run again from its {@value #LATENCY} and {@value #FAILOVER} in {@code dir}. */
    static void replot(Path dir) throws IOException {
        LabReport report = new LabReport(dir, "");
        for (Map<String, String> row : Csv.read(dir.resolve(LATENCY))) {
            report.add(new LatencyRow(row.get("policy"), row.get("topology"), Integer.parseInt(row.get("rtt_ms")),
                    Integer.parseInt(row.get("jitter_pct")), row.get("coordinator"), row.get("raft_groups_led"),
                    row.get("operation"), Long.parseLong(row.get("requests")), Long.parseLong(row.get("errors")),
                    parse(row.get("min_ms")), parse(row.get("p50_ms")), parse(row.get("p99_ms")), parse(row.get("max_ms")),
                    parse(row.get("rounds_per_request"))));
        }
        Map<String, List<Map<String, String>>> runs = new LinkedHashMap<>();
        for (Map<String, String> row : Csv.read(dir.resolve(FAILOVER))) {
            runs.computeIfAbsent(row.get("policy") + "," + row.get("topology"), any -> new ArrayList<>()).add(row);
        }
        for (List<Map<String, String>> rows : runs.values()) {
            Map<String, String> first = rows.getFirst();
            List<Failover.Second> seconds = rows.stream().map(row -> new Failover.Second(Integer.parseInt(row.get("second")),
                    Long.parseLong(row.get("ok")), Long.parseLong(row.get("errors")), parse(row.get("p50_ms")),
                    parse(row.get("p99_ms")), parse(row.get("max_ms")))).toList();
            report.add(new FailoverRow(first.get("policy"), first.get("topology"), Integer.parseInt(first.get("rtt_ms")),
                    Integer.parseInt(first.get("clients")), new Failover.Result(first.get("victim"),
                    parse(first.get("killed_at_s")), seconds, 0, Double.NaN)));
        }
        report.plots();
    }

    private static double parse(String cell) {
        return cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }

    /** (p50 − p50 at no delay) / RTT, for the same policy, topology, coordinator and operation; NaN at no delay. */
    double rttsAdded(LatencyRow row) {
        if (row.rttMs() == 0) {
            return Double.NaN;
        }
        for (LatencyRow base : latency) {
            if (base.rttMs() == 0 && base.policy().equals(row.policy()) && base.topology().equals(row.topology())
                    && base.coordinator().equals(row.coordinator()) && base.operation().equals(row.operation())) {
                return (row.p50Ms() - base.p50Ms()) / row.rttMs();
            }
        }
        return Double.NaN;
    }

    private String summary() {
        StringBuilder text = new StringBuilder(header).append("\n\n");
        for (String topology : distinct(latency.stream().map(LatencyRow::topology).toList())) {
            text.append("## Topology ").append(topology).append("\n\n");
            List<LatencyRow> rows = latency.stream().filter(row -> row.topology().equals(topology)).toList();
            List<Integer> rtts = distinct(rows.stream().map(LatencyRow::rttMs).toList());
            text.append("p50 in ms at each RTT; then, per RTT above 0, the round trips the delay added to the p50, ")
                    .append("(p50 − p50 at 0) / RTT; then the metadata rounds per request the coordinator counted ")
                    .append("(at the largest RTT).\n\n");
            text.append("| policy | coordinator | operation |");
            rtts.forEach(rtt -> text.append(" p50 @").append(rtt).append(" |"));
            rtts.stream().filter(rtt -> rtt > 0).forEach(rtt -> text.append(" RTTs @").append(rtt).append(" |"));
            text.append(" rounds |\n|---|---|---|");
            rtts.forEach(rtt -> text.append("---|"));
            rtts.stream().filter(rtt -> rtt > 0).forEach(rtt -> text.append("---|"));
            text.append("---|\n");
            Map<String, Map<Integer, LatencyRow>> byLine = new LinkedHashMap<>();
            for (LatencyRow row : rows) {
                byLine.computeIfAbsent(row.policy() + " | " + row.coordinator() + " | " + row.operation(),
                        any -> new LinkedHashMap<>()).put(row.rttMs(), row);
            }
            for (Map.Entry<String, Map<Integer, LatencyRow>> line : byLine.entrySet()) {
                text.append("| ").append(line.getKey()).append(" |");
                for (int rtt : rtts) {
                    LatencyRow row = line.getValue().get(rtt);
                    text.append(' ').append(row == null ? "" : decimal(row.p50Ms(), 1)
                            + (row.errors() > 0 ? " (" + row.errors() + " errors)" : "")).append(" |");
                }
                for (int rtt : rtts) {
                    if (rtt > 0) {
                        LatencyRow row = line.getValue().get(rtt);
                        text.append(' ').append(row == null ? "" : decimal(rttsAdded(row), 2)).append(" |");
                    }
                }
                LatencyRow last = line.getValue().get(rtts.getLast());
                text.append(' ').append(last == null ? "" : decimal(last.roundsPerRequest(), 2)).append(" |\n");
            }
            text.append('\n');
        }
        if (!throughput.isEmpty()) {
            text.append("## Closed-loop throughput\n\nPutObject of a new 4 KiB key, then GetObject of it, per client, ")
                    .append("through every node in turn.\n\n| policy | topology | RTT ms | clients | requests/s | p50 ms | p99 ms | errors |\n")
                    .append("|---|---|---|---|---|---|---|---|\n");
            for (ThroughputRow row : throughput) {
                ClosedLoop.Result r = row.result();
                text.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %s | %s | %d |%n", row.policy(),
                        row.topology(), row.rttMs(), r.clients(), decimal(r.requestsPerSecond(), 1),
                        decimal(r.latency().percentileMillis(50), 1), decimal(r.latency().percentileMillis(99), 1),
                        r.latency().errors()));
            }
            text.append('\n');
        }
        if (!failovers.isEmpty()) {
            text.append("## Failover\n\nClosed-loop clients through every other node; the victim killed (SIGKILL) at ")
                    .append("the time given. Per second: failed requests and p99 in failover.csv and the plots.\n\n")
                    .append("| policy | topology | RTT ms | clients | victim | killed at s | failed requests | longest gap without a success, s | slowest request, s |\n")
                    .append("|---|---|---|---|---|---|---|---|---|\n");
            for (FailoverRow row : failovers) {
                Failover.Result r = row.result();
                double slowest = r.seconds().stream().mapToDouble(Failover.Second::maxMs).filter(ms -> !Double.isNaN(ms))
                        .max().orElse(Double.NaN) / 1000;
                text.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %s | %d | %s | %s |%n", row.policy(),
                        row.topology(), row.rttMs(), row.clients(), r.victim(), decimal(r.killedAtSecond(), 1),
                        r.errors(), decimal(r.longestGapSeconds(), 2), decimal(slowest, 2)));
            }
            text.append('\n');
        }
        if (!races.isEmpty()) {
            text.append("## What each policy buys\n\nRaces through every node at once. Conditional: `If-None-Match: *` ")
                    .append("PUTs of a new key (one winner is right). Versioned: PUTs of one key in a versioned bucket ")
                    .append("(every acknowledged version must be listed).\n\n")
                    .append("| policy | topology | races | nodes | winners per 100 races | races with several winners | versions acknowledged | versions lost | errors |\n")
                    .append("|---|---|---|---|---|---|---|---|---|\n");
            for (RaceRow row : races) {
                Races.Result r = row.result();
                text.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %d | %d | %d | %d |%n", row.policy(),
                        row.topology(), r.races(), r.nodes(), decimal(100.0 * r.conditionalWinners() / r.races(), 0),
                        r.racesWithSeveralWinners(), r.versionsAcknowledged(), r.versionsLost(),
                        r.conditionalErrors() + r.versionErrors()));
            }
            text.append('\n');
        }
        return text.toString();
    }

    private void plots() throws IOException {
        for (String topology : distinct(latency.stream().map(LatencyRow::topology).toList())) {
            for (String operation : S3Lat.OPERATIONS) {
                Map<String, double[][]> series = new LinkedHashMap<>();
                Map<String, List<LatencyRow>> byLine = new LinkedHashMap<>();
                for (LatencyRow row : latency) {
                    if (row.topology().equals(topology) && row.operation().equals(operation)) {
                        byLine.computeIfAbsent(row.policy() + " via " + row.coordinator(), any -> new ArrayList<>()).add(row);
                    }
                }
                byLine.forEach((name, rows) -> series.put(name, new double[][] {
                    rows.stream().mapToDouble(LatencyRow::rttMs).toArray(),
                    rows.stream().mapToDouble(LatencyRow::p50Ms).toArray()}));
                double maxRtt = byLine.values().stream().flatMap(List::stream).mapToDouble(LatencyRow::rttMs).max().orElse(0);
                series.put("one RTT", new double[][] {{0, maxRtt}, {0, maxRtt}});
                Plots.lines(out.resolve("latency-" + topology + "-" + operation + PLOT),
                        operation + ", " + topology + " nodes: p50 against RTT", "RTT between zones (ms)", "p50 (ms)",
                        series, "one RTT");
            }
        }
        for (FailoverRow row : failovers) {
            // Every second of the run, also those in which no request ended (an outage shows as zero answered).
            Map<Integer, Failover.Second> bySecond = new LinkedHashMap<>();
            row.result().seconds().forEach(second -> bySecond.put(second.second(), second));
            int last = row.result().seconds().stream().mapToInt(Failover.Second::second).max().orElse(0);
            List<Failover.Second> seconds = new ArrayList<>();
            for (int second = 0; second <= last; second++) {
                seconds.add(bySecond.getOrDefault(second, new Failover.Second(second, 0, 0, Double.NaN, Double.NaN, Double.NaN)));
            }
            double[] x = seconds.stream().mapToDouble(Failover.Second::second).toArray();
            Map<String, double[][]> series = new LinkedHashMap<>();
            series.put("p50 ms", new double[][] {x, seconds.stream().mapToDouble(s -> zeroIfNaN(s.p50Ms())).toArray()});
            series.put("p99 ms", new double[][] {x, seconds.stream().mapToDouble(s -> zeroIfNaN(s.p99Ms())).toArray()});
            series.put("answered requests", new double[][] {x, seconds.stream().mapToDouble(Failover.Second::ok).toArray()});
            series.put("failed requests", new double[][] {x, seconds.stream().mapToDouble(Failover.Second::errors).toArray()});
            double top = seconds.stream().mapToDouble(s -> Math.max(zeroIfNaN(s.p99Ms()), Math.max(s.ok(), s.errors()))).max().orElse(1);
            series.put("kill", new double[][] {{row.result().killedAtSecond(), row.result().killedAtSecond()}, {0, top}});
            Plots.lines(out.resolve("failover-" + row.policy() + "-" + row.topology() + PLOT),
                    row.policy() + ", " + row.topology() + " nodes: " + row.result().victim() + " killed (SIGKILL)",
                    "second of the run", "ms (p50, p99) / requests per second", series, "kill");
        }
    }

    private static double zeroIfNaN(double value) {
        return Double.isNaN(value) ? 0 : value;
    }

    private static <T> List<T> distinct(List<T> values) {
        Set<T> seen = new LinkedHashSet<>(values);
        return List.copyOf(seen);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String decimal(double value, int decimals) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
