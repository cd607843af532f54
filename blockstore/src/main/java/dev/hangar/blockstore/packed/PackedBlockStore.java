package dev.hangar.blockstore.packed;

import static java.nio.file.StandardOpenOption.READ;

import dev.hangar.blockstore.BlockHealth;
import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStoreStatistics;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.CompactionReport;
import dev.hangar.blockstore.CorruptBlockException;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.blockstore.StoredBlock;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.blockstore.VerifiedRange;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * Packs small chunks into large segment files, and hands bigger ones to a store that keeps one file
 * per chunk: millions of 4 KiB–64 KiB objects then cost a few hundred files, not millions.
 *
 * <p>A chunk of at most {@link PackingOptions#packThreshold} bytes is appended, with a {@link
 * RecordHeader}, to the one active segment, and its {@link Location} goes into a {@link
 * SegmentIndex}. Appends are serialised by one lock; with {@link SyncPolicy#ALWAYS} the writers then
 * share fsyncs through a {@link GroupCommit}. A segment that reaches {@link
 * PackingOptions#segmentSize} is forced, sealed (its locations synced into the index) and replaced.
 *
 * <p>Deleting a packed chunk only removes its location; {@link #compact} gives the space back by
 * copying the live chunks of mostly-dead segments into the active one, forcing them, pointing the
 * index at the copies (one synced batch), and only then removing the old file. A crash at any point
 * leaves every live chunk reachable: before the index moves, it points at the old file; after, at a
 * forced copy; a half-compacted segment is simply compacted again.
 *
 * <p>On open, segments not sealed are walked: a torn last record is cut off, and records the index
 * lost (an unsynced addition) are indexed again. A chunk deleted shortly before a crash may come
 * back that way, unreferenced; the scrub removes such orphans.
 *
 * <p>Every packed read reads the whole record and checks its CRC32C before returning a byte.
 */
public final class PackedBlockStore implements BlockStore {
    private static final Logger LOG = Logger.getLogger(PackedBlockStore.class.getName());
    private static final String SEGMENTS = "segments";
    private static final String INDEX = "index";
    private static final int READ_ATTEMPTS = 3;

    private final Path root;
    private final SyncPolicy sync;
    private final PackingOptions options;
    private final BlockStore files;
    private final SegmentIndex index;
    private final Path segmentFolder;
    private final ConcurrentSkipListMap<Long, Segment> segments;
    private final Object appendLock = new Object();
    private final Object compactionLock = new Object();
    /** Striped locks that keep a delete and a compaction's move of the same chunk apart. */
    private final ReentrantLock[] chunkLocks = new ReentrantLock[64];
    private final GroupCommit groupCommit;

    /** Guarded by appendLock. */
    private Segment active;
    /** Bytes ever appended, across segments: the group commit's tickets. Guarded by appendLock. */
    private long appended;
    /** Records ever appended, and how many of them a sync has forced; guarded by appendLock. */
    private long appendedRecords;
    private long forcedRecords;

    private final AtomicLong fsyncs = new AtomicLong();
    private final AtomicLong corruptBlocks = new AtomicLong();
    private final AtomicLong compactedSegments = new AtomicLong();
    private final AtomicLong reclaimedBytes = new AtomicLong();
    private volatile boolean closed;
    /** Called between the steps of a compaction, with the step's name: tests make it throw there. */
    volatile Consumer<String> compactionStep = step -> {};

    private PackedBlockStore(
            Path root,
            SyncPolicy sync,
            PackingOptions options,
            BlockStore files,
            SegmentIndex index,
            Path segmentFolder,
            ConcurrentSkipListMap<Long, Segment> segments,
            Segment active) {
        this.root = root;
        this.sync = sync;
        this.options = options;
        this.files = files;
        this.index = index;
        this.segmentFolder = segmentFolder;
        this.segments = segments;
        this.active = active;
        for (int i = 0; i < chunkLocks.length; i++) {
            chunkLocks[i] = new ReentrantLock();
        }
        this.groupCommit = new GroupCommit(this::forceActive);
    }

    /**
     * Opens the store under {@code root}: {@code files} keeps the chunks too big to pack (and owns
     * the root's lock, so it must be open already); segments live in {@code root/segments}, the
     * index in {@code root/index}.
     */
    public static PackedBlockStore open(Path root, SyncPolicy sync, PackingOptions options, BlockStore files)
            throws IOException {
        Objects.requireNonNull(options, "packing options");
        Path absoluteRoot = root.toAbsolutePath().normalize();
        Path segmentFolder = Files.createDirectories(absoluteRoot.resolve(SEGMENTS));
        SegmentIndex index = SegmentIndex.open(absoluteRoot.resolve(INDEX), sync.mode() == SyncPolicy.Mode.ALWAYS);
        ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();
        try {
            Set<Long> sealed = index.sealedSegments();
            for (Path file : listSegmentFiles(segmentFolder)) {
                long number = Segment.numberOf(file.getFileName().toString());
                Segment segment = Segment.open(file, number);
                segments.put(number, segment);
                if (!sealed.contains(number) && !recover(segment, index)) {
                    // Nothing was ever appended (a start without writes): no file to keep.
                    segments.remove(number);
                    segment.close();
                    Files.delete(file);
                }
            }
            for (long number : sealed) {
                if (!segments.containsKey(number)) {
                    // Removed by a compaction that crashed before it forgot the seal.
                    index.forgetSegment(number);
                }
            }
            countLiveChunks(index, segments);
            long next = segments.isEmpty() ? 1 : segments.lastKey() + 1;
            Segment active = Segment.create(segmentFolder, next);
            segments.put(next, active);
            forceFolder(segmentFolder);
            return new PackedBlockStore(absoluteRoot, sync, options, files, index, segmentFolder, segments, active);
        } catch (Throwable failure) {
            for (Segment segment : segments.values()) {
                closeQuietly(segment, failure);
            }
            index.close();
            throw failure;
        }
    }

    /**
     * Walks a segment a crash or a shutdown left unsealed, cuts a torn tail, indexes what the index
     * lost and seals it; returns false, sealing nothing, if it holds no record at all.
     */
    private static boolean recover(Segment segment, SegmentIndex index) throws IOException {
        long[] recovered = {0};
        segment.scan((offset, header) -> {
            if (index.get(header.id()) == null) {
                index.put(header.id(), locationOf(segment.number(), offset, header));
                recovered[0]++;
            }
        });
        segment.truncateToEnd();
        if (segment.size() == Segment.FILE_HEADER.length) {
            return false;
        }
        segment.force();
        index.seal(segment.number());
        if (recovered[0] > 0) {
            LOG.info(() -> "indexed " + recovered[0] + " chunks again from unsealed " + segment);
        }
        return true;
    }

    private static void countLiveChunks(SegmentIndex index, Map<Long, Segment> segments) throws IOException {
        index.forEach((id, location) -> {
            Segment segment = segments.get(location.segment());
            if (segment != null) {
                segment.liveBytes().addAndGet(location.recordSize());
                segment.liveChunks().incrementAndGet();
            }
        });
    }

    @Override
    public BlockRef write(BlockId id, InputStream content) throws IOException {
        ensureOpen();
        byte[] head = content.readNBytes(options.packThreshold() + 1);
        if (head.length > options.packThreshold()) {
            return files.write(id, new SequenceInputStream(new ByteArrayInputStream(head), content));
        }
        CRC32C checksum = new CRC32C();
        checksum.update(head);
        int crc = (int) checksum.getValue();
        RecordHeader header = new RecordHeader(id, head.length, crc, System.currentTimeMillis());
        long ticket = append(header, head);
        if (sync.mode() == SyncPolicy.Mode.ALWAYS) {
            groupCommit.awaitDurable(ticket);
        }
        return new BlockRef(id, head.length, crc);
    }

    /** Appends a record to the active segment and indexes it; returns its group-commit ticket. */
    private long append(RecordHeader header, byte[] data) throws IOException {
        Location location;
        long ticket;
        synchronized (appendLock) {
            location = appendRecord(header, data);
            ticket = appended;
            active.liveBytes().addAndGet(header.recordSize());
            active.liveChunks().incrementAndGet();
        }
        index.put(header.id(), location);
        return ticket;
    }

    /**
     * Appends a record to the active segment, rotating first if it would not fit; the caller holds
     * appendLock. Returns where the record went; the index is the caller's to update.
     */
    private Location appendRecord(RecordHeader header, byte[] data) throws IOException {
        if (active.size() + header.recordSize() > options.segmentSize()
                && active.size() > Segment.FILE_HEADER.length) {
            rotate();
        }
        long offset = active.append(header, data);
        appended += header.recordSize();
        appendedRecords++;
        return locationOf(active.number(), offset, header);
    }

    /** Forces and seals the active segment and starts the next; the caller holds appendLock. */
    private void rotate() throws IOException {
        Segment full = active;
        full.force();
        fsyncs.incrementAndGet();
        groupCommit.markDurable(appended);
        forcedRecords = appendedRecords;
        index.seal(full.number());
        Segment next = Segment.create(segmentFolder, full.number() + 1);
        segments.put(next.number(), next);
        forceFolder(segmentFolder);
        active = next;
    }

    /** The group commit's sync: forces the active segment as far as it is written now. */
    private long forceActive() throws IOException {
        Segment segment;
        long covered;
        long records;
        synchronized (appendLock) {
            segment = active;
            covered = appended;
            records = appendedRecords;
        }
        // Outside the lock, so writers keep appending while the disk syncs: they form the next group.
        segment.force();
        fsyncs.incrementAndGet();
        synchronized (appendLock) {
            forcedRecords = Math.max(forcedRecords, records);
        }
        return covered;
    }

    @Override
    public InputStream read(BlockId id, long offset, long length) throws IOException {
        ensureOpen();
        PackedChunk chunk = readPacked(id);
        if (chunk == null) {
            return files.read(id, offset, length);
        }
        byte[] data = chunk.data();
        Objects.checkFromIndexSize(offset, length, data.length);
        return new ByteArrayInputStream(data, (int) offset, (int) length);
    }

    @Override
    public InputStream read(BlockRef block, long offset, long length) throws IOException {
        ensureOpen();
        PackedChunk chunk = readPacked(block.id());
        if (chunk == null) {
            return VerifiedRange.open(files, block, offset, length, corruptBlocks::incrementAndGet);
        }
        byte[] data = chunk.data();
        if (data.length != block.size() || chunk.crc32c() != block.crc32c()) {
            corruptBlocks.incrementAndGet();
            throw new CorruptBlockException(block.id(), String.format(
                    "%d bytes with CRC32C %08x stored, %d with %08x expected",
                    data.length, chunk.crc32c(), block.size(), block.crc32c()));
        }
        Objects.checkFromIndexSize(offset, length, data.length);
        return new ByteArrayInputStream(data, (int) offset, (int) length);
    }

    @Override
    public BlockHealth check(BlockRef block) throws IOException {
        ensureOpen();
        try {
            PackedChunk chunk = readPacked(block.id());
            if (chunk == null) {
                return VerifiedRange.check(files, block, corruptBlocks::incrementAndGet);
            }
            if (chunk.data().length == block.size() && chunk.crc32c() == block.crc32c()) {
                return BlockHealth.INTACT;
            }
            corruptBlocks.incrementAndGet();
            return BlockHealth.CORRUPT;
        } catch (CorruptBlockException corrupt) {
            return BlockHealth.CORRUPT;
        }
    }

    /**
     * A packed chunk's data, checked against its header's CRC32C; null if the chunk is not packed.
     * A compaction may move the chunk and remove its segment between the index lookup and the
     * read, so the lookup is retried when the segment has gone.
     */
    private @org.jspecify.annotations.Nullable PackedChunk readPacked(BlockId id) throws IOException {
        for (int attempt = 1; ; attempt++) {
            Location location = index.get(id);
            if (location == null) {
                return null;
            }
            Segment segment = segments.get(location.segment());
            try {
                if (segment != null) {
                    return readRecord(id, segment, location);
                }
            } catch (ClosedChannelException removedMeanwhile) {
                if (attempt >= READ_ATTEMPTS) {
                    throw removedMeanwhile;
                }
                continue;
            }
            if (attempt >= READ_ATTEMPTS) {
                throw new NoSuchBlockException(id);
            }
        }
    }

    /** A packed chunk's bytes, and the CRC32C they were checked against. */
    private record PackedChunk(byte[] data, int crc32c) {}

    private PackedChunk readRecord(BlockId id, Segment segment, Location location) throws IOException {
        ByteBuffer record = segment.readRecord(location.offset(), location.length());
        RecordHeader header = RecordHeader.decode(record);
        if (header == null || !header.id().equals(id) || header.length() != location.length()) {
            corruptBlocks.incrementAndGet();
            throw new CorruptBlockException(id, "its record header in " + segment + " at " + location.offset()
                    + " is damaged or names another chunk");
        }
        if (record.remaining() != header.length()) {
            corruptBlocks.incrementAndGet();
            throw new CorruptBlockException(id, segment + " ends inside its record");
        }
        byte[] data = new byte[header.length()];
        record.get(data);
        CRC32C checksum = new CRC32C();
        checksum.update(data);
        if ((int) checksum.getValue() != header.crc32c()) {
            corruptBlocks.incrementAndGet();
            throw new CorruptBlockException(id, String.format(
                    "CRC32C %08x in %s at %d, expected %08x",
                    (int) checksum.getValue(), segment, location.offset(), header.crc32c()));
        }
        return new PackedChunk(data, header.crc32c());
    }

    @Override
    public boolean exists(BlockId id) throws IOException {
        ensureOpen();
        return index.get(id) != null || files.exists(id);
    }

    @Override
    public void delete(BlockId id) throws IOException {
        ensureOpen();
        ReentrantLock lock = chunkLocks[stripeOf(id)];
        lock.lock();
        try {
            Location location = index.get(id);
            if (location == null) {
                files.delete(id);
                return;
            }
            index.remove(id);
            Segment segment = segments.get(location.segment());
            if (segment != null) {
                segment.liveBytes().addAndGet(-location.recordSize());
                segment.liveChunks().decrementAndGet();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void forEachBlock(Consumer<StoredBlock> visitor) throws IOException {
        ensureOpen();
        index.forEach((id, location) -> visitor.accept(
                new StoredBlock(id, location.length(), Instant.ofEpochMilli(location.writtenAtMillis()))));
        files.forEachBlock(visitor);
    }

    /**
     * Compacts every sealed segment whose dead share is at least {@link
     * PackingOptions#compactionThreshold}: copies its live chunks into the active segment, forces
     * them, moves their locations (synced), then removes the file.
     */
    @Override
    public CompactionReport compact() throws IOException {
        ensureOpen();
        synchronized (compactionLock) {
            int compacted = 0;
            long moved = 0;
            long reclaimed = 0;
            for (Segment segment : List.copyOf(segments.values())) {
                if (isActive(segment) || !worthCompacting(segment)) {
                    continue;
                }
                long copied = 0;
                Map<BlockId, Location> copies = copyLiveChunks(segment);
                compactionStep.accept("copied");
                if (!copies.isEmpty()) {
                    // The copies must be durable before anything points at them.
                    forceAppended();
                    copied = moveLocations(segment, copies);
                }
                compactionStep.accept("moved");
                long size = segment.size();
                if (segment.liveChunks().get() > 0) {
                    // A chunk was written into it meanwhile? Impossible for a sealed segment; keep it.
                    LOG.warning(() -> segment + " still has live chunks after compaction; kept");
                    continue;
                }
                segments.remove(segment.number());
                segment.close();
                Files.deleteIfExists(segment.path());
                forceFolder(segmentFolder);
                index.forgetSegment(segment.number());
                compacted++;
                moved += copies.size();
                reclaimed += size - copied;
            }
            compactedSegments.addAndGet(compacted);
            reclaimedBytes.addAndGet(Math.max(0, reclaimed));
            return new CompactionReport(compacted, moved, Math.max(0, reclaimed));
        }
    }

    private boolean isActive(Segment segment) {
        synchronized (appendLock) {
            return segment == active;
        }
    }

    private boolean worthCompacting(Segment segment) {
        long used = segment.size() - Segment.FILE_HEADER.length;
        if (used <= 0) {
            // An empty segment left by a restart: nothing to copy, one file to remove.
            return true;
        }
        double dead = 1.0 - segment.liveBytes().get() / (double) used;
        return dead >= options.compactionThreshold();
    }

    /** Appends a copy of every chunk the index still places in {@code segment}. */
    private Map<BlockId, Location> copyLiveChunks(Segment segment) throws IOException {
        Map<BlockId, Location> copies = new LinkedHashMap<>();
        segment.scan((offset, header) -> {
            Location current = index.get(header.id());
            if (current == null || current.segment() != segment.number() || current.offset() != offset) {
                return;
            }
            byte[] data = readRecord(header.id(), segment, current).data();
            Location copy;
            synchronized (appendLock) {
                copy = appendRecord(header, data);
            }
            copies.put(header.id(), copy);
        });
        return copies;
    }

    /**
     * Points the index at the copies of chunks still in {@code from} (a chunk deleted meanwhile
     * stays deleted: its copy is garbage), in one synced batch; returns the bytes that moved.
     */
    private long moveLocations(Segment from, Map<BlockId, Location> copies) throws IOException {
        // The chunk locks are taken in stripe order, so two passes could not deadlock (and only
        // one runs at a time anyway); each delete takes one lock, so it waits or goes first.
        SortedSet<Integer> stripes = new TreeSet<>();
        for (BlockId id : copies.keySet()) {
            stripes.add(stripeOf(id));
        }
        List<ReentrantLock> held = new ArrayList<>();
        try {
            for (int stripe : stripes) {
                chunkLocks[stripe].lock();
                held.add(chunkLocks[stripe]);
            }
            Map<BlockId, Location> stillHere = new LinkedHashMap<>();
            for (Map.Entry<BlockId, Location> copy : copies.entrySet()) {
                Location current = index.get(copy.getKey());
                if (current != null && current.segment() == from.number()) {
                    stillHere.put(copy.getKey(), copy.getValue());
                }
            }
            index.move(stillHere);
            long bytes = 0;
            for (Location copy : stillHere.values()) {
                Segment target = segments.get(copy.segment());
                if (target != null) {
                    target.liveBytes().addAndGet(copy.recordSize());
                    target.liveChunks().incrementAndGet();
                }
                from.liveBytes().addAndGet(-copy.recordSize());
                from.liveChunks().decrementAndGet();
                bytes += copy.recordSize();
            }
            return bytes;
        } finally {
            for (ReentrantLock lock : held.reversed()) {
                lock.unlock();
            }
        }
    }

    /** Forces the active segment up to everything appended so far. */
    private void forceAppended() throws IOException {
        long ticket;
        synchronized (appendLock) {
            ticket = appended;
        }
        groupCommit.awaitDurable(ticket);
    }

    /**
     * With BATCH, forces the active segment, the index's log and the chunk files; with the other
     * policies, what the chunk-file store does.
     */
    @Override
    public void sync() throws IOException {
        ensureOpen();
        if (sync.mode() == SyncPolicy.Mode.BATCH) {
            forceAppended();
            index.syncLog();
        }
        files.sync();
    }

    /**
     * Writes acknowledged but not yet forced: packed records appended since the last sync, plus the
     * chunk files the file store still has queued. Always 0 with ALWAYS. For a node that runs the
     * sync rounds itself, and its tests.
     */
    public long pendingSyncs() {
        long packed;
        synchronized (appendLock) {
            packed = appendedRecords - forcedRecords;
        }
        return packed + (files instanceof dev.hangar.blockstore.local.LocalDiskBlockStore local ? local.pendingSyncs() : 0);
    }

    @Override
    public BlockStoreStatistics statistics() {
        long segmentBytes = 0;
        long live = 0;
        long chunks = 0;
        for (Segment segment : segments.values()) {
            segmentBytes += segment.size();
            live += segment.liveBytes().get() + Segment.FILE_HEADER.length;
            chunks += segment.liveChunks().get();
        }
        BlockStoreStatistics fileStats = files.statistics();
        return new BlockStoreStatistics(
                segments.size(),
                segmentBytes,
                chunks,
                Math.min(live, segmentBytes),
                fsyncs.get() + fileStats.fsyncs(),
                groupCommit.commits(),
                groupCommit.committedWrites(),
                groupCommit.largestGroup(),
                corruptBlocks.get() + fileStats.corruptBlocks(),
                compactedSegments.get(),
                reclaimedBytes.get());
    }

    /** Forces what is appended, seals nothing (the next open walks the active segment), closes. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        synchronized (compactionLock) {
            closed = true;
            try {
                if (sync.mode() != SyncPolicy.Mode.NONE) {
                    forceAppended();
                }
            } finally {
                try {
                    for (Segment segment : segments.values()) {
                        segment.close();
                    }
                } finally {
                    try {
                        index.close();
                    } finally {
                        files.close();
                    }
                }
            }
        }
    }

    @Override
    public String toString() {
        return "PackedBlockStore[" + root + ", sync=" + sync + ", " + options + "]";
    }

    private int stripeOf(BlockId id) {
        return Math.floorMod(id.hashCode(), chunkLocks.length);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("block store is closed: " + root);
        }
    }

    private static Location locationOf(long segment, long offset, RecordHeader header) {
        return new Location(segment, offset, header.length(), header.crc32c(), header.writtenAtMillis());
    }

    private static List<Path> listSegmentFiles(Path folder) throws IOException {
        List<Path> files = new ArrayList<>();
        try (var stream = Files.list(folder)) {
            stream.filter(path -> Segment.numberOf(path.getFileName().toString()) >= 0).forEach(files::add);
        }
        files.sort(Comparator.naturalOrder());
        return files;
    }

    private static void forceFolder(Path folder) throws IOException {
        try (FileChannel channel = FileChannel.open(folder, READ)) {
            channel.force(true);
        } catch (java.nio.file.AccessDeniedException windows) {
            // Windows cannot open a folder; its file systems order metadata updates themselves.
        }
    }

    private static void closeQuietly(AutoCloseable closeable, Throwable failure) {
        try {
            closeable.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
