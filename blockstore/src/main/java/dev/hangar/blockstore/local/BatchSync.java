package dev.hangar.blockstore.local;

import static java.nio.file.StandardOpenOption.READ;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The {@link dev.hangar.blockstore.SyncPolicy.Mode#BATCH} half of {@link LocalDiskBlockStore}:
 * remembers block files written but not forced, and the folders whose entries changed, and forces
 * them all at least every interval, files first, then folders: from a scheduled daemon thread of its own, or,
 * when it is built without one, whenever its owner calls {@link #sync} (a node that must force the
 * blocks before it syncs the metadata that points to them runs one round for both).
 *
 * <p>The files are forced by reopening them: on Linux (and POSIX generally) {@code fsync} of any
 * descriptor flushes the file's dirty pages, whoever wrote them. A file deleted in the meantime is
 * skipped: nothing is left to keep.
 *
 * <p>The list is bounded: a writer that finds {@code pendingLimit} files waiting runs a round
 * itself, so writers slow down to the disk's pace instead of running ahead of it without limit.
 *
 * <p>If forcing fails, what failed stays queued for the next round, and every later {@link
 * #register} and {@link #close} throws: data the store acknowledged may not be on disk, which the
 * store's user must learn about rather than find out after a power loss.
 */
final class BatchSync implements AutoCloseable {
    /** Files that may wait for a round before writers must help. */
    static final int DEFAULT_PENDING_LIMIT = 4096;

    private final int pendingLimit;
    /** Runs a round every interval; null when the owner runs them through {@link #sync}. */
    private final @Nullable ScheduledExecutorService schedule;
    /** Guards the pending sets, {@link #stopped} and {@link #failure}. */
    private final Object monitor = new Object();
    /** Held while a round forces files, so rounds never overlap. */
    private final Object roundLock = new Object();

    private Set<Path> pendingFiles = new LinkedHashSet<>();
    private Set<Path> pendingFolders = new LinkedHashSet<>();
    private boolean stopped;
    private @Nullable IOException failure;

    private final AtomicLong syncedFiles = new AtomicLong();
    private final AtomicLong rounds = new AtomicLong();

    /**
     * @param background whether a daemon thread of its own runs a round every {@code interval};
     *     if not, the owner must call {@link #sync} at least that often
     */
    BatchSync(String name, Duration interval, int pendingLimit, boolean background) {
        if (pendingLimit <= 0) {
            throw new IllegalArgumentException("pending limit must be positive: " + pendingLimit);
        }
        this.pendingLimit = pendingLimit;
        if (background) {
            this.schedule = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(name).daemon().factory());
            long nanos = interval.toNanos();
            schedule.scheduleWithFixedDelay(this::backgroundRound, nanos, nanos, TimeUnit.NANOSECONDS);
        } else {
            this.schedule = null;
        }
    }

    /**
     * Queues a block file and its folder for the next round; runs a round first if the queue is
     * full. After {@link #close}, forces them at once instead, since no round will come.
     *
     * @throws IOException if forcing failed, now or in an earlier round
     */
    void register(Path file, Path folder) throws IOException {
        boolean mustForce;
        synchronized (monitor) {
            throwIfFailed();
            pendingFiles.add(file);
            pendingFolders.add(folder);
            // Once stopped, no round will come: whoever adds must force.
            mustForce = stopped || pendingFiles.size() >= pendingLimit;
        }
        if (mustForce) {
            runRound();
        }
    }

    /** Queues folders whose entries changed (a new folder's parent), for the next round. */
    void registerFolders(Path... folders) throws IOException {
        synchronized (monitor) {
            throwIfFailed();
            pendingFolders.addAll(Arrays.asList(folders));
            if (!stopped) {
                return;
            }
        }
        runRound();
    }

    /**
     * Runs a round now, on the caller's thread: when this returns, every file and folder registered
     * before the call is on stable storage (rounds never overlap, so one that was already running
     * is waited for, then this one forces what it did not).
     *
     * @throws IOException if forcing failed, now or in an earlier round
     */
    void sync() throws IOException {
        runRound();
    }

    /** Files registered but not yet forced: for tests. */
    int pendingFiles() {
        synchronized (monitor) {
            return pendingFiles.size();
        }
    }

    /** Files forced so far, deleted ones included: for tests. */
    long syncedFiles() {
        return syncedFiles.get();
    }

    /** Rounds that had something to force: for tests. */
    long rounds() {
        return rounds.get();
    }

    /** Stops the schedule, if any, waits for a running round, and forces everything still queued. */
    @Override
    public void close() throws IOException {
        synchronized (monitor) {
            stopped = true;
        }
        boolean interrupted = false;
        if (schedule != null) {
            schedule.shutdown();
            while (true) {
                try {
                    if (schedule.awaitTermination(1, TimeUnit.MINUTES)) {
                        break;
                    }
                } catch (InterruptedException e) {
                    // Not passed on to the round: an interrupt closes the channel being forced.
                    interrupted = true;
                }
            }
        }
        try {
            runRound();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void backgroundRound() {
        try {
            runRound();
        } catch (IOException e) {
            // Kept in failure by runRound: the next write or close reports it.
        } catch (RuntimeException | Error e) {
            synchronized (monitor) {
                if (failure == null) {
                    failure = new IOException("background sync failed", e);
                }
            }
        }
    }

    /** Forces every queued file, then every queued folder; re-queues what it could not force. */
    private void runRound() throws IOException {
        synchronized (roundLock) {
            Set<Path> files;
            Set<Path> folders;
            synchronized (monitor) {
                throwIfFailed();
                if (pendingFiles.isEmpty() && pendingFolders.isEmpty()) {
                    return;
                }
                files = pendingFiles;
                folders = pendingFolders;
                pendingFiles = new LinkedHashSet<>();
                pendingFolders = new LinkedHashSet<>();
            }
            rounds.incrementAndGet();
            var fileIterator = files.iterator();
            var folderIterator = folders.iterator();
            try {
                while (fileIterator.hasNext()) {
                    force(fileIterator.next(), false);
                    fileIterator.remove();
                    syncedFiles.incrementAndGet();
                }
                while (folderIterator.hasNext()) {
                    force(folderIterator.next(), true);
                    folderIterator.remove();
                }
            } catch (IOException | RuntimeException e) {
                IOException failed = e instanceof IOException io ? io : new IOException(e);
                synchronized (monitor) {
                    pendingFiles.addAll(files);
                    pendingFolders.addAll(folders);
                    if (failure == null) {
                        failure = new IOException("background sync failed", failed);
                    }
                }
                throw failed;
            }
        }
    }

    private static void force(Path path, boolean folder) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(path, READ);
        } catch (NoSuchFileException deleted) {
            return;
        } catch (AccessDeniedException refused) {
            if (folder) {
                // Windows cannot open a folder; its file systems order metadata updates themselves.
                return;
            }
            throw refused;
        }
        try (channel) {
            channel.force(true);
        }
    }

    private void throwIfFailed() throws IOException {
        if (failure != null) {
            throw new IOException("an earlier background sync of the block store failed", failure);
        }
    }
}
