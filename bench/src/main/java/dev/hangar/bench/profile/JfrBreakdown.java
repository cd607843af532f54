package dev.hangar.bench.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Reads a JDK Flight Recorder file of the server under load (recorded with {@code settings=profile}) and prints
 * where its CPU samples went, by {@link Component}, with the methods that ran most, the server's share of the
 * machine's CPU and its garbage-collection pauses: the breakdown docs/performance.md records.
 */
@Command(name = "jfr-breakdown", mixinStandardHelpOptions = true,
        description = "Where a recording's CPU samples went, by part of the request path (markdown).")
public final class JfrBreakdown implements Callable<Integer> {
    @Parameters(index = "0", description = "The .jfr file.")
    Path recording;

    @Option(names = "--top", defaultValue = "20", description = "How many running methods to list (default: ${DEFAULT-VALUE}).")
    int top;

    @Option(names = "--thread-prefix", defaultValue = "",
            description = "Count only samples of threads whose name starts with this (default: every thread).")
    String threadPrefix;

    public static void main(String[] args) {
        System.exit(new CommandLine(new JfrBreakdown()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        Map<String, Long> byComponent = new LinkedHashMap<>();
        Component.RULES.forEach(rule -> byComponent.put(rule.name(), 0L));
        byComponent.put(Component.OTHER, 0L);
        Map<String, Long> byMethod = new HashMap<>();
        Map<String, Long> byThread = new HashMap<>();
        long samples = 0;
        double cpuSum = 0;
        double machineSum = 0;
        long cpuEvents = 0;
        Duration pauses = Duration.ZERO;
        long collections = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                switch (event.getEventType().getName()) {
                    case "jdk.ExecutionSample" -> {
                        String thread = event.getThread("sampledThread") == null ? "?"
                                : String.valueOf(event.getThread("sampledThread").getJavaName());
                        RecordedStackTrace stack = event.getStackTrace();
                        if (stack == null || stack.getFrames().isEmpty() || !thread.startsWith(threadPrefix)) {
                            continue;
                        }
                        samples++;
                        byComponent.merge(component(stack.getFrames().stream()
                                .map(frame -> frame.getMethod().getType().getName()).toList()), 1L, Long::sum);
                        byMethod.merge(method(stack.getFrames().getFirst()), 1L, Long::sum);
                        byThread.merge(thread.replaceAll("[0-9]+", "N"), 1L, Long::sum);
                    }
                    case "jdk.CPULoad" -> {
                        cpuSum += event.getFloat("jvmUser") + event.getFloat("jvmSystem");
                        machineSum += event.getFloat("machineTotal");
                        cpuEvents++;
                    }
                    case "jdk.GarbageCollection" -> {
                        pauses = pauses.plus(event.getDuration("sumOfPauses"));
                        collections++;
                    }
                    default -> {
                        // Not part of the breakdown.
                    }
                }
            }
        }
        System.out.printf("Recording `%s`: %,d CPU samples%s.%n%n", recording.getFileName(), samples,
                threadPrefix.isEmpty() ? "" : " of threads named " + threadPrefix + "*");
        if (cpuEvents > 0) {
            System.out.printf("Server process: %.0f %% of the machine's CPU on average, the machine %.0f %% busy;"
                    + " %,d collections, %,d ms of pauses in all.%n%n", 100 * cpuSum / cpuEvents,
                    100 * machineSum / cpuEvents, collections, pauses.toMillis());
        }
        table("part of the request path", byComponent, samples, Integer.MAX_VALUE);
        table("running method", byMethod, samples, top);
        table("thread (digits as N)", byThread, samples, 12);
        return 0;
    }

    /**
     * The component of a stack, given its frames' class names from the running method down: the first that a rule
     * claims; JDK frames (a hash, a copy, a map lookup) count for their caller.
     */
    static String component(List<String> classNames) {
        for (String type : classNames) {
            for (Component rule : Component.RULES) {
                if (rule.claims(type)) {
                    return rule.name();
                }
            }
        }
        return Component.OTHER;
    }

    private static String method(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static void table(String what, Map<String, Long> counts, long samples, int rows) {
        System.out.printf("| %s | samples | share |%n|---|---|---|%n", what);
        counts.entrySet().stream().filter(entry -> entry.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(rows)
                .forEach(entry -> System.out.printf("| %s | %,d | %.1f %% |%n", entry.getKey(), entry.getValue(),
                        samples == 0 ? 0.0 : 100.0 * entry.getValue() / samples));
        System.out.println();
    }
}
