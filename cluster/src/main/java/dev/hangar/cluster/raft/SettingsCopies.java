package dev.hangar.cluster.raft;

import dev.hangar.metadata.query.ReadQuery;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Copies of the settings (a bucket, its configuration, an access key) that this node read from the leader of a group
 * it is not a member of: a gateway's, or a storage node's for the groups of other nodes. Every S3 request reads several
 * (five for a PutObject), and without copies each would be a forwarded read, one round after the other; a member reads
 * them from its own replica instead ({@link Settings}). A copy is used for {@link #TTL}; from then until twice that, it
 * is still used while a read in the background refreshes it (so steady traffic never waits for one); after that it is
 * read again. This is the bargain of the leaderless mode's settings cache, and it ends the same way: a node that
 * changes a setting tells every node to drop its copies before the change is acknowledged ({@link SettingsChanges}),
 * and a node that did not hear it serves its copies until they expire.
 *
 * <p>A read that was under way when the copies were dropped may carry the settings as they were before the change; it
 * must not keep them. Each read notes the epoch before it starts and keeps its answer only if no drop moved it since,
 * checked and stored under the lock a drop holds.
 */
final class SettingsCopies {
    static final Duration TTL = Duration.ofSeconds(1);
    private static final Logger LOG = Logger.getLogger(SettingsCopies.class.getName());

    /** A settings read and the route of the group it is read from. */
    record Key(ReadQuery<?> query, String route) {}

    private record Copy(Object value, long expiresAtNanos) {}

    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final Function<Key, Object> reader;
    private final Executor background;
    private final ConcurrentHashMap<Key, Copy> copies = new ConcurrentHashMap<>();
    private final Object drops = new Object();
    private volatile long epoch;

    /**
     * @param reader reads a key from its group's leader; used for the refreshes in the background
     * @param background where those refreshes run
     */
    SettingsCopies(Duration ttl, LongSupplier nanoTime, Function<Key, Object> reader, Executor background) {
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
        this.reader = reader;
        this.background = background;
    }

    /** The copy of {@code key}'s answer, if there is one young enough; a copy past its time is refreshed meanwhile. */
    <T> Optional<T> get(Key key) {
        long now = nanoTime.getAsLong();
        Copy copy = copies.get(key);
        if (copy == null || now - copy.expiresAtNanos() >= ttlNanos) {
            return Optional.empty();
        }
        // One refresh per expiry: the first caller moves the deadline for the others.
        if (now - copy.expiresAtNanos() >= 0 && copies.replace(key, copy, new Copy(copy.value(), now + ttlNanos))) {
            long before = epoch;
            background.execute(() -> {
                try {
                    keep(key, reader.apply(key), before, nanoTime.getAsLong());
                } catch (RuntimeException e) {
                    // The copy then expires, and the next request reads for itself and sees the failure.
                    LOG.log(Level.FINE, () -> "refreshing the copy of " + key + " failed: " + e);
                }
            });
        }
        @SuppressWarnings("unchecked") // A key's copy holds its query's answer, kept by keep().
        T value = (T) detached(copy.value());
        return Optional.of(value);
    }

    /** The epoch to pass to {@link #keep}: noted before a read is sent. */
    long epoch() {
        return epoch;
    }

    /** Keeps {@code value}, read by a read sent at {@code epoch}, unless the copies were dropped since. */
    void keep(Key key, Object value, long epochBefore) {
        keep(key, value, epochBefore, nanoTime.getAsLong());
    }

    private void keep(Key key, Object value, long epochBefore, long now) {
        synchronized (drops) {
            if (epoch == epochBefore) {
                copies.put(key, new Copy(detached(value), now + ttlNanos));
            }
        }
    }

    // A configuration document is a byte array, which its reader could change: the copy keeps its own, and each
    // reader of the copy gets its own.
    private static Object detached(Object value) {
        if (value instanceof Optional<?> optional && optional.orElse(null) instanceof byte[] bytes) {
            return Optional.of(bytes.clone());
        }
        return value;
    }

    /** Drops every copy: a setting changed somewhere (which one is not said: changes are rare, copies cheap). */
    void dropAll() {
        synchronized (drops) {
            epoch++;
            copies.clear();
        }
    }
}
