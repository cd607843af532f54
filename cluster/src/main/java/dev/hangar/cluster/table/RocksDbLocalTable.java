package dev.hangar.cluster.table;

import dev.hangar.cluster.layout.Partitioning;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteOptions;

/**
 * A {@link LocalTable} in a RocksDB of its own.
 *
 * <p>Key: partition (2 bytes, big-endian) + partition key length (4 bytes, big-endian) + partition
 * key + sort key. The partition comes first so that anti-entropy reads one partition as one
 * contiguous range; the length prefix keeps ("ab", "c") apart from ("a", "bc") and makes all entries
 * of one partition key a contiguous range ordered by sort key, which is a listing. Value: the
 * {@link EntryCodec} encoding of the entry.
 *
 * <p>Writes go to the write-ahead log without fsync: a merged entry survives a process crash but
 * not a power loss, like the metadata store's default; durability across machines comes from the
 * write quorum.
 */
public final class RocksDbLocalTable implements LocalTable {
    static {
        RocksDB.loadLibrary();
    }

    // Merge is read-compare-write: entries of one key must not interleave. Striped so that unrelated
    // keys do not wait for each other.
    private static final int LOCK_STRIPES = 64;

    private final RocksDB db;
    private final Options options;
    private final WriteOptions writeOptions;
    private final Partitioning partitioning;
    private final MergeRule rule;
    private final Object[] locks = new Object[LOCK_STRIPES];
    /**
     * Readers and writers hold its read lock while they use the database, {@link #close} its write lock: a
     * request still being handled when a node stops (an RPC handler on its own thread) must not write into a
     * database being freed, which crashed the JVM in RocksDB's native code.
     */
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private boolean closed;
    private final List<BiConsumer<Entry, Entry>> loserWatchers = new CopyOnWriteArrayList<>();

    private RocksDbLocalTable(RocksDB db, Options options, Partitioning partitioning, MergeRule rule) {
        this.db = db;
        this.rule = rule;
        this.options = options;
        this.writeOptions = new WriteOptions();
        this.partitioning = partitioning;
        for (int i = 0; i < LOCK_STRIPES; i++) {
            locks[i] = new Object();
        }
    }

    /**
     * Opens (creating if needed) the table in {@code folder}, for a layout of {@code partitions}
     * partitions, merging by {@link MergeRule#LAST_WRITER_WINS}.
     */
    public static RocksDbLocalTable open(Path folder, int partitions) {
        return open(folder, partitions, MergeRule.LAST_WRITER_WINS);
    }

    /** Opens (creating if needed) the table in {@code folder}, merging entries by {@code rule}. */
    public static RocksDbLocalTable open(Path folder, int partitions, MergeRule rule) {
        if (partitions < 1 || partitions > 1 << 16) {
            throw new IllegalArgumentException("partitions must be between 1 and 65536: " + partitions);
        }
        Options options = new Options().setCreateIfMissing(true);
        try {
            Files.createDirectories(folder);
            return new RocksDbLocalTable(
                    RocksDB.open(options, folder.toString()), options, new Partitioning(partitions), rule);
        } catch (RocksDBException | java.io.IOException e) {
            options.close();
            throw new TableStorageException("cannot open table at " + folder + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int partitions() {
        return partitioning.partitions();
    }

    @Override
    public int partitionOf(byte[] partitionKey) {
        return partitioning.partitionOfBytes(partitionKey);
    }

    @Override
    public MergeRule mergeRule() {
        return rule;
    }

    @Override
    public Entry merge(Entry entry) {
        Optional<Entry> before = swap(entry);
        return before.isPresent() ? rule.merge(before.get(), entry) : entry;
    }

    @Override
    public Optional<Entry> swap(Entry entry) {
        byte[] key = key(entry.partitionKey(), entry.sortKey());
        Lock open = useOpen();
        Entry current;
        Entry merged;
        try {
            synchronized (locks[Math.floorMod(Arrays.hashCode(key), LOCK_STRIPES)]) {
                byte[] stored = db.get(key);
                current = stored == null ? null : EntryCodec.decode(stored);
                // The rule may build a new entry from both (a join), not only pick one: store what it gives.
                merged = current == null ? entry : rule.merge(current, entry);
                if (!merged.equals(current)) {
                    db.put(writeOptions, key, EntryCodec.encode(merged));
                }
            }
        } catch (RocksDBException e) {
            throw new TableStorageException("cannot merge " + entry + ": " + e.getMessage(), e);
        } finally {
            open.unlock();
        }
        if (current != null && !loserWatchers.isEmpty()) {
            // Whichever of the two is not what the merge kept lost to it: both, when the rule joined them.
            if (!merged.equals(current)) {
                tellLoser(current, merged);
            }
            if (!merged.equals(entry)) {
                tellLoser(entry, merged);
            }
        }
        return Optional.ofNullable(current);
    }

    @Override
    public Runnable watchLosers(BiConsumer<Entry, Entry> watcher) {
        loserWatchers.add(watcher);
        return () -> loserWatchers.remove(watcher);
    }

    private void tellLoser(Entry loser, Entry winner) {
        for (BiConsumer<Entry, Entry> watcher : loserWatchers) {
            try {
                watcher.accept(loser, winner);
            } catch (RuntimeException e) {
                // The watcher's business (its own storage closed or failing): the merge stands.
            }
        }
    }

    @Override
    public Optional<Entry> get(byte[] partitionKey, byte[] sortKey) {
        Lock open = useOpen();
        try {
            byte[] stored = db.get(key(partitionKey, sortKey));
            return stored == null ? Optional.empty() : Optional.of(EntryCodec.decode(stored));
        } catch (RocksDBException e) {
            throw new TableStorageException("cannot read: " + e.getMessage(), e);
        } finally {
            open.unlock();
        }
    }

    @Override
    public List<Entry> range(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey,
            int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }
        return page(partitionKey, fromSortKey, untilSortKey, limit, entry -> true, limit);
    }

    @Override
    public List<Entry> rangeCountingLive(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey,
            int limit, int cap) {
        if (limit < 0 || cap < limit) {
            throw new IllegalArgumentException("need 0 <= limit <= cap: limit " + limit + ", cap " + cap);
        }
        return page(partitionKey, fromSortKey, untilSortKey, limit, entry -> !rule.isDeletion(entry), cap);
    }

    // Stops after limit entries that count, or cap entries in all, or at untilSortKey.
    private List<Entry> page(byte[] partitionKey, byte[] fromSortKey, byte @Nullable [] untilSortKey, int limit,
            Predicate<Entry> counts, int cap) {
        byte[] prefix = key(partitionKey, new byte[0]);
        List<Entry> entries = new ArrayList<>(Math.min(cap, 1024));
        int[] counted = {0};
        scan(prefix, key(partitionKey, fromSortKey), entry -> counted[0] < limit && entries.size() < cap
                && (untilSortKey == null || Arrays.compareUnsigned(entry.sortKey(), untilSortKey) < 0), entry -> {
                    entries.add(entry);
                    if (counts.test(entry)) {
                        counted[0]++;
                    }
                });
        return entries;
    }

    @Override
    public void forEachInPartition(int partition, Consumer<Entry> visitor) {
        byte[] prefix = partitionPrefix(partition);
        scan(prefix, prefix, entry -> true, visitor);
    }

    @Override
    public int purgeTombstonesBefore(long wallMillis) {
        int purged = 0;
        for (int p = 0; p < partitions(); p++) {
            List<Entry> expired = new ArrayList<>();
            forEachInPartition(p, entry -> {
                if (rule.isDeletion(entry) && entry.timestamp().wall() < wallMillis) {
                    expired.add(entry);
                }
            });
            for (Entry deletion : expired) {
                if (deleteIfUnchanged(deletion)) {
                    purged++;
                }
            }
        }
        return purged;
    }

    // A write may have replaced the deletion since the scan: delete only what was seen.
    private boolean deleteIfUnchanged(Entry deletion) {
        byte[] key = key(deletion.partitionKey(), deletion.sortKey());
        Lock open = useOpen();
        try {
            synchronized (locks[Math.floorMod(Arrays.hashCode(key), LOCK_STRIPES)]) {
                byte[] stored = db.get(key);
                if (stored == null || !EntryCodec.decode(stored).equals(deletion)) {
                    return false;
                }
                db.delete(writeOptions, key);
                return true;
            }
        } catch (RocksDBException e) {
            throw new TableStorageException("cannot purge " + deletion + ": " + e.getMessage(), e);
        } finally {
            open.unlock();
        }
    }

    private interface Continue {
        boolean test(Entry next);
    }

    private void scan(byte[] prefix, byte[] start, Continue more, Consumer<Entry> visitor) {
        byte[] upper = successor(prefix);
        Lock open = useOpen();
        try (Slice bound = upper == null ? null : new Slice(upper);
                ReadOptions read = new ReadOptions()) {
            if (bound != null) {
                read.setIterateUpperBound(bound);
            }
            try (RocksIterator it = db.newIterator(read)) {
                for (it.seek(start); it.isValid(); it.next()) {
                    Entry entry = EntryCodec.decode(it.value());
                    if (!more.test(entry)) {
                        return;
                    }
                    visitor.accept(entry);
                }
                it.status();
            } catch (RocksDBException e) {
                throw new TableStorageException("cannot scan: " + e.getMessage(), e);
            }
        } finally {
            open.unlock();
        }
    }

    /** The read lock of an open table, held while the caller uses the database; refused once closed. */
    private Lock useOpen() {
        Lock open = lifecycle.readLock();
        open.lock();
        if (closed) {
            open.unlock();
            throw new TableStorageException("the table is closed", null);
        }
        return open;
    }

    private byte[] key(byte[] partitionKey, byte[] sortKey) {
        ByteBuffer key = ByteBuffer.allocate(2 + 4 + partitionKey.length + sortKey.length);
        key.putShort((short) partitionOf(partitionKey));
        key.putInt(partitionKey.length);
        key.put(partitionKey).put(sortKey);
        return key.array();
    }

    private static byte[] partitionPrefix(int partition) {
        return ByteBuffer.allocate(2).putShort((short) partition).array();
    }

    // The smallest key greater than every key starting with prefix, or null if there is none (all 0xff).
    private static byte @Nullable [] successor(byte[] prefix) {
        byte[] next = prefix.clone();
        for (int i = next.length - 1; i >= 0; i--) {
            if (next[i] != (byte) 0xff) {
                next[i]++;
                return Arrays.copyOf(next, i + 1);
            }
        }
        return null;
    }

    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            writeOptions.close();
            db.close();
            options.close();
        } finally {
            lifecycle.writeLock().unlock();
        }
    }
}
