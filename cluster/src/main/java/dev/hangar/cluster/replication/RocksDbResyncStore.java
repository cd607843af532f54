package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.replication.ResyncQueue.Task;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * A {@link ResyncStore} in a RocksDB of its own, written by one background thread.
 *
 * <p>The queue is fed from the callbacks of replica acknowledgements, which run on network I/O
 * threads; a RocksDB write can stall (memtable flush, write slowdown), so writes are handed to a
 * single thread and applied in submission order. The price: a crash loses the writes still waiting
 * on that thread, the last few milliseconds of queued repairs. Writes go to the write-ahead log
 * without fsync, like the replicated table's: they survive a process crash, not a power loss. Both
 * losses leave a replica short of a copy the write quorum still holds, as before this store existed.
 * {@link #close} applies every write submitted before it.
 */
final class RocksDbResyncStore implements ResyncStore {
    static {
        RocksDB.loadLibrary();
    }

    private static final Logger LOG = Logger.getLogger(RocksDbResyncStore.class.getName());
    private static final long CLOSE_WAIT_SECONDS = 10;

    private final Path folder;
    private final RocksDB db;
    private final Options options;
    private final WriteOptions writeOptions = new WriteOptions();
    private final ExecutorService writer;
    private boolean closed;

    private RocksDbResyncStore(Path folder, RocksDB db, Options options) {
        this.folder = folder;
        this.db = db;
        this.options = options;
        this.writer = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hangar-resync-store");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Opens (creating if needed) the store in {@code folder}. */
    static RocksDbResyncStore open(Path folder) throws IOException {
        Options options = new Options().setCreateIfMissing(true);
        try {
            Files.createDirectories(folder);
            return new RocksDbResyncStore(folder, RocksDB.open(options, folder.toString()), options);
        } catch (RocksDBException | IOException e) {
            options.close();
            throw new IOException("cannot open the resync queue at " + folder + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads every entry. A malformed one (written by a future version, or damaged) is skipped with a
     * warning rather than failing the node's start: losing one repair is the in-memory behaviour.
     */
    @Override
    public synchronized Contents load() {
        List<Task> tasks = new ArrayList<>();
        Set<BlockId> releases = new HashSet<>();
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] key = it.key();
                try {
                    if (key.length > 0 && key[0] == ResyncCodec.RELEASE) {
                        releases.add(ResyncCodec.release(key));
                    } else {
                        tasks.add(ResyncCodec.task(key, it.value()));
                    }
                } catch (RuntimeException malformed) {
                    LOG.log(Level.WARNING, malformed, () -> "skipping a malformed resync entry in " + folder);
                }
            }
        }
        return new Contents(tasks, releases);
    }

    @Override
    public void put(Task task) {
        byte[] key = ResyncCodec.taskKey(task);
        byte[] value = ResyncCodec.taskValue(task);
        submit(() -> db.put(writeOptions, key, value), task);
    }

    @Override
    public void remove(Task task) {
        byte[] key = ResyncCodec.taskKey(task);
        submit(() -> db.delete(writeOptions, key), task);
    }

    @Override
    public void putRelease(BlockId block) {
        byte[] key = ResyncCodec.releaseKey(block);
        submit(() -> db.put(writeOptions, key, ResyncCodec.releaseValue()), block);
    }

    @Override
    public void removeRelease(BlockId block) {
        byte[] key = ResyncCodec.releaseKey(block);
        submit(() -> db.delete(writeOptions, key), block);
    }

    private interface Write {
        void apply() throws RocksDBException;
    }

    private void submit(Write write, Object subject) {
        try {
            writer.execute(() -> apply(write, subject));
        } catch (RejectedExecutionException closing) {
            // A replica's acknowledgement failed after the node began closing: the task stays in
            // memory only, like one lost to a crash.
            LOG.fine(() -> "resync store closed; not persisting " + subject);
        }
    }

    // Synchronized with close so that no write reaches a closed database handle.
    private synchronized void apply(Write write, Object subject) {
        if (closed) {
            return;
        }
        try {
            write.apply();
        } catch (RocksDBException e) {
            LOG.log(Level.WARNING, e, () -> "cannot persist resync entry for " + subject + " in " + folder);
        }
    }

    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warning(() -> "resync store " + folder + " closed with writes still pending");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            db.close();
            writeOptions.close();
            options.close();
        }
    }
}
