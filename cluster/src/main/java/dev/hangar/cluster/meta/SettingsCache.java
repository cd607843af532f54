package dev.hangar.cluster.meta;

import dev.hangar.cluster.RoundTrips;
import dev.hangar.cluster.table.Entry;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Recent quorum reads of the small records every S3 request consults — bucket records, bucket
 * configurations (policy, ACL, versioning, object lock, ...) and access keys — kept for a short
 * time, so that a request pays its inter-node round for the object it is about, not for four
 * settings of its bucket first.
 *
 * <p>This node's own writes of those records replace the cached copy at once; another node's are
 * seen once the copy expires. So a change of bucket settings or access keys made through one node
 * takes up to the time to live to apply on the others — as S3 itself documents bucket
 * configuration changes to propagate, not to apply at once: at most twice the time to live, as
 * copies are refreshed in the background once they are older than it. An absent record is cached
 * too: a bucket created through another node may answer NoSuchBucket here for that long.
 */
final class SettingsCache {
    private record Cached(Optional<Entry> entry, long expiresAtNanos) {}

    private final EntrySource source;
    private final long ttlNanos;
    private final LongSupplier nanoTime;
    private final ConcurrentHashMap<ByteBuffer, Cached> entries = new ConcurrentHashMap<>();

    SettingsCache(EntrySource source, Duration ttl) {
        this(source, ttl, System::nanoTime);
    }

    SettingsCache(EntrySource source, Duration ttl, LongSupplier nanoTime) {
        this.source = source;
        this.ttlNanos = ttl.toNanos();
        this.nanoTime = nanoTime;
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
        return source.get(partitionKey, sortKey).thenApply(entry -> {
            if (ttlNanos > 0) {
                entries.put(key, new Cached(entry, now + ttlNanos));
            }
            return entry;
        });
    }

    /** Forgets the cached copy of a record this node is about to change; the next read asks the quorum. */
    void forget(byte[] partitionKey, byte[] sortKey) {
        entries.remove(key(partitionKey, sortKey));
    }

    /** Forgets every cached record, e.g. all the configurations of a deleted bucket. */
    void forgetAll() {
        entries.clear();
    }

    private static ByteBuffer key(byte[] partitionKey, byte[] sortKey) {
        ByteBuffer key = ByteBuffer.allocate(4 + partitionKey.length + sortKey.length);
        key.putInt(partitionKey.length).put(partitionKey).put(sortKey).flip();
        return key;
    }
}
