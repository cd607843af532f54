package dev.hangar.cluster.table;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one replicated table.
 *
 * @param name the table's name; part of its RPC method names, so that several tables share one
 *     RPC server ({@code [a-z0-9_-]}, e.g. {@code "object"}, {@code "bucket"})
 * @param writeQuorum replicas that must store a write before it is acknowledged
 * @param readQuorum replicas a read merges; {@code writeQuorum + readQuorum > replication factor}
 *     makes every read see every acknowledged write
 * @param timeout how long a replica may take to answer before it counts as failed
 * @param tombstoneGcDelay how long a tombstone is kept before it is purged; must exceed the longest
 *     outage after which a replica rejoins with its old data, or that data may come back
 * @param mergeRule how entries of one key merge, wherever they meet; the table's local replica must
 *     merge by the same rule
 */
public record TableConfig(String name, int writeQuorum, int readQuorum, Duration timeout, Duration tombstoneGcDelay,
        MergeRule mergeRule) {
    public TableConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mergeRule, "mergeRule");
        if (!name.matches("[a-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("table name must be 1 to 64 of [a-z0-9_-]: " + name);
        }
        if (writeQuorum < 1 || readQuorum < 1) {
            throw new IllegalArgumentException("quorums must be at least 1");
        }
        if (timeout.isNegative() || timeout.isZero() || tombstoneGcDelay.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive and the GC delay not negative");
        }
    }

    /** A table whose entries merge by {@link MergeRule#LAST_WRITER_WINS}. */
    public TableConfig(String name, int writeQuorum, int readQuorum, Duration timeout, Duration tombstoneGcDelay) {
        this(name, writeQuorum, readQuorum, timeout, tombstoneGcDelay, MergeRule.LAST_WRITER_WINS);
    }

    /** This table with its entries merged by {@code rule}. */
    public TableConfig withMergeRule(MergeRule rule) {
        return new TableConfig(name, writeQuorum, readQuorum, timeout, tombstoneGcDelay, rule);
    }

    /** Quorums of 2 of 3 (consistent mode), 5 s timeout, tombstones kept for a day. */
    public static TableConfig consistent(String name) {
        return new TableConfig(name, 2, 2, Duration.ofSeconds(5), Duration.ofDays(1));
    }

    String method(String operation) {
        return "table." + name + "." + operation;
    }
}
