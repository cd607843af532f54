package dev.hangar.metadata.rocksdb;

import dev.hangar.metadata.MetadataStorageException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Batch durability for RocksDB: mutations are written to the write-ahead log unsynced (so a process
 * crash loses none), and the log is synced at least every interval, and once more on {@link
 * #close}: by a daemon thread of its own, or, when built without one, by its owner's calls to
 * {@link #sync} (a node that forces its blocks first, so the log never gets ahead of them). If a
 * sync fails, every later {@link #checkHealthy}, {@link #sync} and {@link #close} throws: mutations
 * already acknowledged may not be on disk.
 */
final class WalSync implements AutoCloseable {
    private final RocksDB db;
    private final Duration interval;
    /** The daemon that syncs every interval; null when the owner calls {@link #sync}. */
    private final @Nullable Thread thread;
    private final Object monitor = new Object();
    private final AtomicLong syncs = new AtomicLong();
    private boolean stopped;
    private volatile @Nullable RocksDBException failure;

    WalSync(RocksDB db, Duration interval, String name, boolean background) {
        this.db = db;
        this.interval = interval;
        this.thread = background ? Thread.ofPlatform().name(name).daemon().unstarted(this::run) : null;
        if (thread != null) {
            thread.start();
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
            if (failure == null) {
                failure = e;
            }
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

    /** Stops the thread and syncs the log a last time; the database must still be open. */
    @Override
    public void close() {
        synchronized (monitor) {
            stopped = true;
            monitor.notifyAll();
        }
        boolean interrupted = false;
        while (thread != null && thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        checkHealthy();
        try {
            syncOnce();
        } catch (RocksDBException e) {
            throw new MetadataStorageException("final sync of the write-ahead log failed", e);
        }
    }

    private void run() {
        long intervalNanos = interval.toNanos();
        long next = System.nanoTime() + intervalNanos;
        while (true) {
            synchronized (monitor) {
                long remaining;
                while (!stopped && (remaining = next - System.nanoTime()) > 0) {
                    try {
                        monitor.wait(Math.max(1, remaining / 1_000_000), 0);
                    } catch (InterruptedException e) {
                        // Only close() stops this thread, by setting stopped.
                    }
                }
                if (stopped) {
                    return;
                }
            }
            next = System.nanoTime() + intervalNanos;
            try {
                syncOnce();
            } catch (RocksDBException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    private void syncOnce() throws RocksDBException {
        db.syncWal();
        syncs.incrementAndGet();
    }
}
