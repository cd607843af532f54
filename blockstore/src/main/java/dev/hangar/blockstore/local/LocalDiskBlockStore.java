package dev.hangar.blockstore.local;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.blockstore.SyncPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.io.UncheckedIOException;
import java.nio.file.attribute.BasicFileAttributes;
import dev.hangar.blockstore.BlockStoreStatistics;
import dev.hangar.blockstore.StoredBlock;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;

/**
 * Keeps each block as a file {@code root/ab/cd/<id>}, where {@code ab} and {@code cd} are the id's
 * first four hex digits: two levels of 256 folders keep every folder small up to billions of
 * blocks.
 *
 * <p>A write goes to {@code <id>.tmp-<random>} in the block's folder and is renamed into place, so
 * a reader sees a whole block or none, and a crash leaves only temporaries, which {@link #open}
 * removes. With {@link SyncPolicy#ALWAYS} the file and then its folder are forced to disk before
 * the write returns. With {@link SyncPolicy#batch} the write returns at once and a {@link
 * BatchSync} forces the file and its folder within the interval, or the writer does when too many
 * wait: from a thread of its own, or, if the store was opened without one, from the owner's calls
 * to {@link #sync}. A lock file keeps a second store from opening the same root while this one is
 * open, since it would delete this one's temporaries as crash leftovers.
 *
 * <p>Build it through {@link BlockStores#localDisk}; it is public only so that the factory, in
 * another package, can reach it.
 */
public final class LocalDiskBlockStore implements BlockStore {
    private static final String TEMPORARY_MARKER = ".tmp-";
    private static final String LOCK_FILE = ".lock";
    private static final int BUFFER_SIZE = 64 * 1024;

    private final Path root;
    private final SyncPolicy sync;
    private final FileChannel lockChannel;
    private final FileLock lock;
    /** With BATCH, what forces written blocks later; otherwise null. */
    private final @Nullable BatchSync batchSync;
    /**
     * Block folders known to exist, and with ALWAYS to be durable (with BATCH, queued to be), so
     * each is set up only once.
     */
    private final Set<Path> readyFolders = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private final AtomicLong fsyncs = new AtomicLong();

    private LocalDiskBlockStore(
            Path root, SyncPolicy sync, FileChannel lockChannel, FileLock lock, @Nullable BatchSync batchSync) {
        this.root = root;
        this.sync = sync;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.batchSync = batchSync;
    }

    /**
     * Opens the store under {@code root}, creating the folder if needed, and removes the temporary
     * files that an interrupted write left behind.
     *
     * @throws IOException if the folder cannot be used, or another store has it open
     */
    public static LocalDiskBlockStore open(Path root, SyncPolicy sync) throws IOException {
        return open(root, sync, true);
    }

    /**
     * Opens the store; with BATCH and {@code syncInBackground} false, no thread of the store forces
     * written blocks: the caller must call {@link #sync} at least every interval (the writer that
     * finds the queue full still forces it, and {@link #close} still forces what is left).
     */
    public static LocalDiskBlockStore open(Path root, SyncPolicy sync, boolean syncInBackground) throws IOException {
        return open(root, sync, BatchSync.DEFAULT_PENDING_LIMIT, syncInBackground);
    }

    /** Opens the store; with BATCH, at most about {@code pendingLimit} files wait to be forced. */
    static LocalDiskBlockStore open(Path root, SyncPolicy sync, int pendingLimit) throws IOException {
        return open(root, sync, pendingLimit, true);
    }

    static LocalDiskBlockStore open(Path root, SyncPolicy sync, int pendingLimit, boolean syncInBackground)
            throws IOException {
        Objects.requireNonNull(sync, "sync policy");
        Path absoluteRoot = Files.createDirectories(root.toAbsolutePath().normalize());
        FileChannel lockChannel = FileChannel.open(absoluteRoot.resolve(LOCK_FILE), CREATE, WRITE);
        try {
            FileLock lock = tryLock(lockChannel, absoluteRoot);
            deleteTemporaries(absoluteRoot);
            // The thread starts only once nothing else can fail.
            BatchSync batchSync = switch (sync.mode()) {
                case ALWAYS, NONE -> null;
                case BATCH ->
                    new BatchSync(
                            "hangar-block-sync " + absoluteRoot, sync.interval(), pendingLimit, syncInBackground);
            };
            return new LocalDiskBlockStore(absoluteRoot, sync, lockChannel, lock, batchSync);
        } catch (Throwable failure) {
            closeQuietly(lockChannel, failure);
            throw failure;
        }
    }

    private static FileLock tryLock(FileChannel lockChannel, Path root) throws IOException {
        FileLock lock;
        try {
            lock = lockChannel.tryLock();
        } catch (OverlappingFileLockException heldInThisProcess) {
            lock = null;
        }
        if (lock == null) {
            throw new IOException("block store folder is already open: " + root);
        }
        return lock;
    }

    @Override
    public BlockRef write(BlockId id, InputStream content) throws IOException {
        ensureOpen();
        Path folder = folderOf(id);
        prepareFolder(folder);
        Path temporary = folder.resolve(id.value() + TEMPORARY_MARKER + randomSuffix());
        BlockRef ref;
        try {
            ref = copyToFile(id, content, temporary);
        } catch (Throwable failure) {
            deleteQuietly(temporary, failure);
            throw failure;
        }
        Path target = folder.resolve(id.value());
        try {
            Files.move(temporary, target, ATOMIC_MOVE);
            switch (sync.mode()) {
                case ALWAYS -> forceFolder(folder);
                case BATCH -> requireBatchSync().register(target, folder);
                case NONE -> {}
            }
        } catch (Throwable failure) {
            // The block may already be in place, but it was not acknowledged as durable.
            deleteQuietly(temporary, failure);
            deleteQuietly(target, failure);
            throw failure;
        }
        return ref;
    }

    private BlockRef copyToFile(BlockId id, InputStream content, Path file) throws IOException {
        CRC32C checksum = new CRC32C();
        byte[] buffer = new byte[BUFFER_SIZE];
        ByteBuffer wrapper = ByteBuffer.wrap(buffer);
        long size = 0;
        try (FileChannel channel = FileChannel.open(file, CREATE_NEW, WRITE)) {
            for (int count = content.read(buffer); count != -1; count = content.read(buffer)) {
                checksum.update(buffer, 0, count);
                wrapper.clear().limit(count);
                while (wrapper.hasRemaining()) {
                    channel.write(wrapper);
                }
                size += count;
            }
            if (sync.mode() == SyncPolicy.Mode.ALWAYS) {
                channel.force(true);
                fsyncs.incrementAndGet();
            }
        }
        return new BlockRef(id, size, (int) checksum.getValue());
    }

    @Override
    public InputStream read(BlockId id, long offset, long length) throws IOException {
        ensureOpen();
        FileChannel channel;
        try {
            channel = FileChannel.open(fileOf(id), READ);
        } catch (NoSuchFileException missing) {
            throw new NoSuchBlockException(id);
        }
        try {
            Objects.checkFromIndexSize(offset, length, channel.size());
            return new FileRangeInputStream(channel, offset, length);
        } catch (Throwable failure) {
            closeQuietly(channel, failure);
            throw failure;
        }
    }

    /** Walks the two levels of block folders; temporaries and anything else are not blocks. */
    @Override
    public void forEachBlock(Consumer<StoredBlock> visitor) throws IOException {
        ensureOpen();
        try (Stream<Path> paths = Files.walk(root, 3)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                BlockId id = blockIdOf(path);
                if (id == null) {
                    continue;
                }
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(path, BasicFileAttributes.class);
                } catch (NoSuchFileException deletedMeanwhile) {
                    continue;
                }
                visitor.accept(new StoredBlock(id, attributes.size(), attributes.lastModifiedTime().toInstant()));
            }
        } catch (UncheckedIOException e) {
            // A folder removed under the walk: the walk reports it this way.
            throw e.getCause();
        }
    }

    /** The id of a block file at {@code root/ab/cd/<id>}, or null for anything else. */
    private @Nullable BlockId blockIdOf(Path path) {
        String name = path.getFileName().toString();
        if (name.length() != 32 || path.getNameCount() != root.getNameCount() + 3) {
            return null;
        }
        try {
            BlockId id = new BlockId(name);
            return path.getParent().equals(folderOf(id)) ? id : null;
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    @Override
    public BlockStoreStatistics statistics() {
        return new BlockStoreStatistics(0, 0, 0, 0, fsyncs.get(), 0, 0, 0, 0, 0, 0);
    }

    @Override
    public boolean exists(BlockId id) {
        ensureOpen();
        return Files.isRegularFile(fileOf(id));
    }

    /**
     * Removes the block's file. Its folder stays: removing it would race with a write into the same
     * folder. Under {@link SyncPolicy#ALWAYS} the folder is not forced: a delete that a power loss
     * undoes leaves an unreferenced block, which garbage collection finds like any other.
     */
    @Override
    public void delete(BlockId id) throws IOException {
        ensureOpen();
        Files.deleteIfExists(fileOf(id));
    }

    /**
     * With BATCH, forces every block written before this call and not forced yet, then the folders
     * whose entries changed; otherwise does nothing, as writes are forced as they happen (ALWAYS)
     * or left to the operating system (NONE).
     *
     * @throws IOException if forcing failed, now or in an earlier round; every later write throws
     */
    @Override
    public void sync() throws IOException {
        ensureOpen();
        if (batchSync != null) {
            batchSync.sync();
        }
    }

    /**
     * With BATCH, forces every block still waiting; then releases the root. Streams returned by
     * {@link #read} own their files and stay readable.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (batchSync != null) {
                // Before the lock goes: another store may open the root as soon as it is free.
                batchSync.close();
            }
        } finally {
            try (lockChannel) {
                lock.release();
            }
        }
    }

    /**
     * Block files written but not yet forced by the batch sync; 0 unless BATCH. Public so that an
     * owner that calls {@link #sync} itself (and its tests) can see what the next call would force.
     */
    public int pendingSyncs() {
        return batchSync == null ? 0 : batchSync.pendingFiles();
    }

    /** Block files the batch sync has forced; 0 unless BATCH. For tests. */
    long backgroundSyncedFiles() {
        return batchSync == null ? 0 : batchSync.syncedFiles();
    }

    @Override
    public String toString() {
        return "LocalDiskBlockStore[" + root + ", sync=" + sync + "]";
    }

    private BatchSync requireBatchSync() {
        return Objects.requireNonNull(batchSync, "batch sync");
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("block store is closed: " + root);
        }
    }

    private Path folderOf(BlockId id) {
        String value = id.value();
        return root.resolve(value.substring(0, 2)).resolve(value.substring(2, 4));
    }

    private Path fileOf(BlockId id) {
        return folderOf(id).resolve(id.value());
    }

    /**
     * Creates a block folder if needed. With ALWAYS, the new folders' entries in their parents are
     * forced too, or a power loss could lose a folder together with the acknowledged blocks inside;
     * with BATCH, they are queued to be forced with the blocks.
     */
    private void prepareFolder(Path folder) throws IOException {
        if (readyFolders.contains(folder)) {
            return;
        }
        Files.createDirectories(folder);
        switch (sync.mode()) {
            case ALWAYS -> {
                forceFolder(folder.getParent());
                forceFolder(root);
            }
            case BATCH -> requireBatchSync().registerFolders(folder.getParent(), root);
            case NONE -> {}
        }
        // Added only once durable: a concurrent writer that finds it here may rely on it.
        readyFolders.add(folder);
    }

    /** Forces a folder's entries to disk, where the platform lets a folder be opened at all. */
    private static void forceFolder(Path folder) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(folder, READ);
        } catch (AccessDeniedException refused) {
            // Windows cannot open a folder; its file systems order metadata updates themselves.
            return;
        }
        try (channel) {
            channel.force(true);
        }
    }

    private static void deleteTemporaries(Path root) throws IOException {
        List<Path> temporaries = new ArrayList<>();
        try (Stream<Path> paths = Files.walk(root, 3)) {
            paths.filter(path -> path.getFileName().toString().contains(TEMPORARY_MARKER))
                    .filter(Files::isRegularFile)
                    .forEach(temporaries::add);
        }
        for (Path temporary : temporaries) {
            Files.deleteIfExists(temporary);
        }
    }

    private static String randomSuffix() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    private static void deleteQuietly(Path file, Throwable failure) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException | RuntimeException cleanupFailure) {
            failure.addSuppressed(cleanupFailure);
        }
    }

    private static void closeQuietly(FileChannel channel, Throwable failure) {
        try {
            channel.close();
        } catch (IOException | RuntimeException closeFailure) {
            failure.addSuppressed(closeFailure);
        }
    }
}
