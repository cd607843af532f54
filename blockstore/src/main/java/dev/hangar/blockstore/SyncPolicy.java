package dev.hangar.blockstore;

import java.time.Duration;

/**
 * When written bytes are forced to stable storage: {@link #ALWAYS}, {@link #batch} or {@link
 * #NONE}. The same policy governs blocks and metadata, so a mode's promise holds for both.
 *
 * @param mode what a write waits for
 * @param interval with {@link Mode#BATCH}, the longest time written data stays unforced while the
 *     disk keeps up; {@link Duration#ZERO} for the other modes
 */
public record SyncPolicy(Mode mode, Duration interval) {
    /** The batch interval when none is configured. */
    public static final Duration DEFAULT_BATCH_INTERVAL = Duration.ofMillis(100);

    /** Every write is forced to disk before it returns: acknowledged writes survive power loss. */
    public static final SyncPolicy ALWAYS = new SyncPolicy(Mode.ALWAYS, Duration.ZERO);

    /** The operating system decides; a process crash loses nothing, a power loss may. */
    public static final SyncPolicy NONE = new SyncPolicy(Mode.NONE, Duration.ZERO);

    /** What a write waits for before it returns. */
    public enum Mode {
        /** Its data is on stable storage. */
        ALWAYS,
        /**
         * Its data is in the operating system's hands; a background task forces it to stable
         * storage at least every {@link SyncPolicy#interval()}.
         */
        BATCH,
        /** Its data is in the operating system's hands, which forces it when it likes. */
        NONE
    }

    public SyncPolicy {
        if (mode == null || interval == null) {
            throw new IllegalArgumentException("sync mode and interval are required");
        }
        switch (mode) {
            case BATCH -> {
                if (interval.isNegative() || interval.isZero()) {
                    throw new IllegalArgumentException("batch sync interval must be positive: " + interval);
                }
            }
            case ALWAYS, NONE -> {
                if (!interval.isZero()) {
                    throw new IllegalArgumentException("only batch sync has an interval: " + mode + " " + interval);
                }
            }
        }
    }

    /**
     * Writes return before their data is forced; a background task forces everything written at
     * least every {@code interval}. A process crash loses nothing acknowledged, a power loss at
     * most about the last interval.
     */
    public static SyncPolicy batch(Duration interval) {
        return new SyncPolicy(Mode.BATCH, interval);
    }

    /** {@code always}, {@code none} or {@code batch(100ms)}. */
    @Override
    public String toString() {
        return switch (mode) {
            case ALWAYS -> "always";
            case NONE -> "none";
            case BATCH -> "batch(" + interval.toMillis() + "ms)";
        };
    }
}
