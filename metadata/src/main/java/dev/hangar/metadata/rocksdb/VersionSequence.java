package dev.hangar.metadata.rocksdb;

import java.time.Instant;
import java.time.InstantSource;
import org.jspecify.annotations.Nullable;

/**
 * Assigns the sequence numbers that order versions: strictly increasing for the life of the
 * store, across restarts, even if the clock steps back. A number is the current time in
 * microseconds, or one more than the previous number if that is greater; so it also tells roughly
 * when the version was written.
 *
 * <p>Strictness across restarts comes from a lease persisted in the meta family: every number
 * handed out is below the persisted lease, and the lease is moved ahead (by {@link #LEASE_MICROS},
 * in its own synced-as-configured write, before a number beyond it is used) about once a minute.
 * After a restart counting starts at the lease, so no number is ever handed out twice, whatever
 * the clock says.
 */
final class VersionSequence {
    /** How far ahead of the last number the lease is moved: one minute of microseconds. */
    static final long LEASE_MICROS = 60_000_000L;

    private final Database database;
    private final InstantSource clock;
    // Guarded by this.
    private long last;
    private long leasedUntil;

    private VersionSequence(Database database, InstantSource clock, long leasedUntil) {
        this.database = database;
        this.clock = clock;
        this.leasedUntil = leasedUntil;
        this.last = leasedUntil - 1;
    }

    /** Resumes after the lease the database holds (0 in a new store). */
    static VersionSequence open(Database database, InstantSource clock) {
        byte @Nullable [] lease = database.get(Family.META, Keys.META_SEQUENCE);
        return new VersionSequence(database, clock, lease == null ? 0 : Keys.decodeLong(lease));
    }

    /** The next number: greater than every number handed out before, and at least {@code atLeast}. */
    synchronized long next(long atLeast) {
        long next = Math.max(Math.max(last + 1, atLeast), micros(clock.instant()));
        if (next >= leasedUntil) {
            long lease = next + LEASE_MICROS;
            try (Database.Batch batch = database.newBatch()) {
                batch.put(Family.META, Keys.META_SEQUENCE, Keys.encodeLong(lease));
                database.commit(batch);
            }
            leasedUntil = lease;
        }
        last = next;
        return next;
    }

    private static long micros(Instant instant) {
        return Math.max(0, instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000);
    }
}
