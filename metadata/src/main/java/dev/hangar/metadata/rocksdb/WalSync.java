package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.MetadataStorageException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Batch durability for RocksDB: mutations are written to the write-ahead log unsynced (so a process
 * crash loses none), and the log is synced at least every interval, and once more on {@link
 * #close}: by a scheduled daemon thread of its own, or, when built without one, by its owner's calls to
 * {@link #sync} (a node that forces its blocks first, so the log never gets ahead of them). If a
 * sync fails, every later {@link #checkHealthy}, {@link #sync} and {@link #close} throws: mutations
 * already acknowledged may not be on disk.
 */
final class WalSync implements AutoCloseable {
    private final RocksDB db;
    /** Syncs every interval; null when the owner calls {@link #sync}. */
    private final @Nullable ScheduledExecutorService schedule;
    private final AtomicLong syncs = new AtomicLong();
    private volatile @Nullable RocksDBException failure;

    WalSync(RocksDB db, Duration interval, String name, boolean background) {
        this.db = db;
        if (background) {
            this.schedule = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(name).daemon().factory());
            long nanos = interval.toNanos();
            schedule.scheduleWithFixedDelay(this::backgroundSync, nanos, nanos, TimeUnit.NANOSECONDS);
        } else {
            this.schedule = null;
        }
    }

    /**
     * Syncs the log now, on the caller's thread: every mutation written before the call is then on
     * stable storage. The database must still be open.
     *
     * @throws MetadataStorageException if the sync fails, now or earlier; later mutations then fail
     */
    void sync() {
        checkHealthy();
        try {
            syncOnce();
        } catch (RocksDBException e) {
            remember(e);
            throw new MetadataStorageException("sync of the write-ahead log failed", e);
        }
    }

    /** Throws if an earlier sync failed. */
    void checkHealthy() {
        RocksDBException failed = failure;
        if (failed != null) {
            throw new MetadataStorageException("an earlier background sync of the write-ahead log failed", failed);
        }
    }

    /** Syncs of the write-ahead log so far: for tests. */
    long syncs() {
        return syncs.get();
    }

    /** Stops the schedule, waits for a running sync, and syncs the log a last time; the database must still be open. */
    @Override
    public void close() {
        if (schedule != null) {
            schedule.shutdown();
            boolean interrupted = false;
            while (true) {
                try {
                    if (schedule.awaitTermination(1, TimeUnit.MINUTES)) {
                        break;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        checkHealthy();
        try {
            syncOnce();
        } catch (RocksDBException e) {
            throw new MetadataStorageException("final sync of the write-ahead log failed", e);
        }
    }

    private void backgroundSync() {
        if (failure != null) {
            return;
        }
        try {
            syncOnce();
        } catch (RocksDBException e) {
            remember(e);
        }
    }

    private synchronized void remember(RocksDBException e) {
        if (failure == null) {
            failure = e;
        }
    }

    private void syncOnce() throws RocksDBException {
        db.syncWal();
        syncs.incrementAndGet();
    }
}
