package dev.hangar.cluster;

import dev.hangar.metadata.command.MetadataCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Counts of the metadata commands and reads a node coordinated and the sequential inter-node rounds
 * they cost, by kind: a command's record name ({@code PutVersion}, {@code DeleteBucket}, ...) or a
 * read's method name ({@code getObject}, {@code listObjects}, ...). Thread-safe.
 */
public final class ReplicationStats {
    /** The kinds of read a {@link Replication}'s state counts. */
    public static final List<String> READS = List.of("getBucket", "listBuckets", "getObject", "getVersion",
            "listObjects", "listVersions", "getUpload", "getPart", "listParts", "listUploads", "getBucketConfig",
            "getAccessKey", "listAccessKeys", "getServiceConfig", "listServiceConfigs");

    private final Map<String, Counts> commands = new ConcurrentHashMap<>();
    private final Map<String, Counts> reads = new ConcurrentHashMap<>();
    private final LongSupplier repairs;

    public ReplicationStats(LongSupplier repairs) {
        this.repairs = repairs;
    }

    /** The kinds of command: the simple names of {@link MetadataCommand}'s records. */
    public static List<String> commandKinds() {
        List<String> kinds = new ArrayList<>();
        for (Class<?> kind : MetadataCommand.class.getPermittedSubclasses()) {
            kinds.add(kind.getSimpleName());
        }
        return kinds;
    }

    /**
     * Records this node sent to replicas it found behind while serving reads (leaderless read
     * repair); 0 in modes that do not repair on read.
     */
    public long repairs() {
        return repairs.getAsLong();
    }

    private record Counts(LongAdder operations, LongAdder rounds) {
        Counts() {
            this(new LongAdder(), new LongAdder());
        }
    }

    /** What the counters hold for one kind. */
    public record Totals(long operations, long rounds) {}

    public void recordCommand(String kind, int rounds) {
        record(commands, kind, rounds);
    }

    public void recordRead(String kind, int rounds) {
        record(reads, kind, rounds);
    }

    /** Commands by kind, sorted. */
    public Map<String, Totals> commands() {
        return snapshot(commands);
    }

    /** Reads by kind, sorted. */
    public Map<String, Totals> reads() {
        return snapshot(reads);
    }

    private static void record(Map<String, Counts> counts, String kind, int rounds) {
        Counts counted = counts.computeIfAbsent(kind, ignored -> new Counts());
        counted.operations().increment();
        counted.rounds().add(rounds);
    }

    private static Map<String, Totals> snapshot(Map<String, Counts> counts) {
        Map<String, Totals> totals = new TreeMap<>();
        counts.forEach((kind, counted) -> totals.put(kind,
                new Totals(counted.operations().sum(), counted.rounds().sum())));
        return totals;
    }
}
