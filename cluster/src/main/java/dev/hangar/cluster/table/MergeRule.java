package dev.hangar.cluster.table;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * How a table merges two entries of one key. Every place where entries meet applies the table's
 * rule: a write merged into a replica, a swap, the answers of a read or of a range, read repair and
 * anti-entropy. So what a replica holds depends only on the set of entries it received.
 *
 * <p><b>Laws.</b> {@link #merge} is commutative ({@code merge(a, b) = merge(b, a)}), associative
 * ({@code merge(merge(a, b), c) = merge(a, merge(b, c))}) and idempotent ({@code merge(a, a) =
 * a}): replicas that received the same entries in any order, any number of times, hold the same
 * entry. Most rules are a total order ({@link #compare} antisymmetric and transitive, 0 only for
 * equal entries) and merge keeps the greater of the two, which gives those laws. A rule may also
 * override {@link #merge} to build a new entry out of both (a join: the metadata table merges the
 * fields of two copies of one version field by field), as long as the laws hold. The property
 * tests check them over random entries for every rule.
 *
 * <p>{@link #LAST_WRITER_WINS} is the default: the greater {@link Timestamp} wins. A table whose
 * values carry an order of their own (the versions of the metadata table) brings its own rule.
 */
public interface MergeRule {
    /**
     * The greater hybrid timestamp wins; at equal timestamps (one node's clock only gives that
     * when a caller reused a timestamp) a tombstone beats a value, and otherwise the larger value
     * bytes win, so that even that case stays deterministic.
     */
    MergeRule LAST_WRITER_WINS = MergeRule::lastWriterWins;

    /**
     * Compares two entries of one key: positive if {@code first} wins over {@code second},
     * negative if {@code second} wins, zero only if they are equal.
     */
    int compare(Entry first, Entry second);

    /** The merge of two entries of one key: the winner under {@link #compare}, unless the rule joins them. */
    default Entry merge(Entry first, Entry second) {
        if (!first.sameKey(second)) {
            throw new IllegalArgumentException("cannot merge entries of different keys: " + first + " and " + second);
        }
        return compare(second, first) > 0 ? second : first;
    }

    /**
     * Whether {@code challenger} beats {@code current} under {@link #compare} (a joining rule's
     * merge may keep parts of both).
     */
    default boolean wins(Entry current, Entry challenger) {
        return compare(challenger, current) > 0;
    }

    /** The winner of two possibly absent entries: the winner, or whichever is present. */
    default @Nullable Entry winner(@Nullable Entry first, @Nullable Entry second) {
        if (first == null) {
            return second;
        }
        return second == null ? first : merge(first, second);
    }

    /**
     * Whether an entry records only that something is gone, so that a replica may purge it once it
     * is older than the table's tombstone delay: tombstones, and whatever else the rule treats as
     * a deletion. Purging one has the tombstone's risk: a replica away longer than the delay may
     * bring back what it deleted.
     */
    default boolean isDeletion(Entry entry) {
        return entry.isTombstone();
    }

    /** {@link #LAST_WRITER_WINS}'s order, for rules that fall back on it. */
    static int lastWriterWins(Entry first, Entry second) {
        int byTime = first.timestamp().compareTo(second.timestamp());
        if (byTime != 0) {
            return byTime;
        }
        byte[] a = first.value();
        byte[] b = second.value();
        if (a == null || b == null) {
            // A tombstone beats a value; two tombstones of one timestamp are equal.
            return Boolean.compare(a == null, b == null);
        }
        return Arrays.compareUnsigned(a, b);
    }
}
