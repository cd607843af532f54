package dev.hangar.cluster.meta;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.table.Entry;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;

/**
 * Recent quorum reads of the small records every S3 request consults — bucket records, bucket
 * configurations (policy, ACL, versioning, object lock, ...), access keys and the service's own
 * configuration documents (KMS keys, ...) — kept for a short
 * time, so that a request pays its inter-node round for the object it is about, not for four
 * settings of its bucket first.
 *
 * <p>A node that writes one of those records drops its own copy and tells every other node of the
 * layout to drop theirs before the write returns ({@link SettingsInvalidation}), so the change
 * applies at once on every node that answered. A node that did not answer keeps serving its copy
 * until it expires: at most twice the time to live, as copies are refreshed in the background once
 * they are older than it. An absent record is cached too, and dropped the same way.
 *
 * <p>A quorum read that was under way when a copy was dropped may have read the records as they
 * were before the write; it must not put them back. Each read therefore notes the invalidation
 * epochs of its key before it starts and caches its answer only if they have not moved since. The
 * check and the store hold {@code epochs}' read lock, and a forget moves the epoch and removes the
 * copies under its write lock, so either the read sees the new epoch or the forget removes what it
 * stored.
 */
final class SettingsCache {
    private record Cached(Optional<Entry> entry, long expiresAtNanos) {}

    /** Keys share epochs by hash: a forget of one key only costs the reads of its stripe their caching. */
    private static final int STRIPES = 64;

    private final EntrySource source;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<ByteBuffer, Cached> entries = new ConcurrentHashMap<>();
    private final AtomicLongArray keyEpochs = new AtomicLongArray(STRIPES);
    // Moved by the forgets of whole partitions.
    private final AtomicLong sharedEpoch = new AtomicLong();
    private final ReentrantReadWriteLock epochs = new ReentrantReadWriteLock();

    SettingsCache(EntrySource source, Duration ttl) {
        this(source, ttl, System::nanoTime);
    }

    SettingsCache(EntrySource source, Duration ttl, LongSupplier nanoTime) {
        this.source = source;
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * Whether records of {@code partitionKey} may be cached here: bucket records, bucket
     * configurations, access keys and service configurations. Objects, uploads and parts never are, so their writes need
     * neither a forget nor an invalidation round.
     */
    static boolean holds(byte[] partitionKey) {
        if (partitionKey.length == 0) {
            return false;
        }
        byte tag = partitionKey[0];
        return tag == MetaKeys.BUCKET_TAG || tag == MetaKeys.CONFIG_TAG || tag == MetaKeys.ACCESS_KEY_TAG
                || tag == MetaKeys.SERVICE_CONFIG_TAG;
    }

    /**
     * The entry: from the cache while it is fresh; from the cache while it is less than twice the
     * time to live old, with a quorum read started in the background to refresh it (so a steady
     * stream of requests never waits for one); else from a quorum read, which is then cached.
     */
    CompletableFuture<Optional<Entry>> get(byte[] partitionKey, byte[] sortKey) {
        ByteBuffer key = key(partitionKey, sortKey);
        long now = nanoTime.getAsLong();
        Cached cached = entries.get(key);
        if (cached != null && now - cached.expiresAtNanos() < 0) {
            return CompletableFuture.completedFuture(cached.entry());
        }
        if (cached != null && now - cached.expiresAtNanos() < ttlNanos) {
            // One refresh per expiry: the first caller moves the deadline for the others.
            if (entries.replace(key, cached, new Cached(cached.entry(), now + ttlNanos))) {
                // Nobody waits for it: its round is no request's.
                try (RoundTrips.Binding unattributed = RoundTrips.bind(new RoundTrips.Tally())) {
                    read(key, partitionKey, sortKey, now);
                }
            }
            return CompletableFuture.completedFuture(cached.entry());
        }
        return read(key, partitionKey, sortKey, now);
    }

    private CompletableFuture<Optional<Entry>> read(ByteBuffer key, byte[] partitionKey, byte[] sortKey, long now) {
        int stripe = stripe(key);
        // Noted before the read is sent: an invalidation that arrives while it is under way moves one of them.
        long keyEpoch = keyEpochs.get(stripe);
        long shared = sharedEpoch.get();
        return source.get(partitionKey, sortKey).thenApply(entry -> {
            if (ttlNanos > 0) {
                Lock lock = epochs.readLock();
                lock.lock();
                try {
                    if (keyEpochs.get(stripe) == keyEpoch && sharedEpoch.get() == shared) {
                        entries.put(key, new Cached(entry, now + ttlNanos));
                    }
                } finally {
                    lock.unlock();
                }
            }
            return entry;
        });
    }

    /** Forgets the cached copy of a record that changed; the next read asks the quorum. */
    void forget(byte[] partitionKey, byte[] sortKey) {
        if (!holds(partitionKey)) {
            return;
        }
        ByteBuffer key = key(partitionKey, sortKey);
        Lock lock = epochs.writeLock();
        lock.lock();
        try {
            keyEpochs.incrementAndGet(stripe(key));
            entries.remove(key);
        } finally {
            lock.unlock();
        }
    }

    /** Forgets every cached record of one partition key, e.g. all the configurations of a deleted bucket. */
    void forgetPartition(byte[] partitionKey) {
        if (!holds(partitionKey)) {
            return;
        }
        Lock lock = epochs.writeLock();
        lock.lock();
        try {
            sharedEpoch.incrementAndGet();
            entries.keySet().removeIf(key -> isOf(key, partitionKey));
        } finally {
            lock.unlock();
        }
    }

    private static int stripe(ByteBuffer key) {
        return Math.floorMod(key.hashCode(), STRIPES);
    }

    private static ByteBuffer key(byte[] partitionKey, byte[] sortKey) {
        ByteBuffer key = ByteBuffer.allocate(4 + partitionKey.length + sortKey.length);
        key.putInt(partitionKey.length).put(partitionKey).put(sortKey).flip();
        return key;
    }

    private static boolean isOf(ByteBuffer key, byte[] partitionKey) {
        if (key.getInt(0) != partitionKey.length) {
            return false;
        }
        return key.slice(4, partitionKey.length).equals(ByteBuffer.wrap(partitionKey));
    }
}
