package dev.hangar.distribution;

import dev.hangar.blockstore.BlockStoreStatistics;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.ScrubProgress;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.WriteLogStatistics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Instant;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * {@code hangar.storage.*}: what is stored (from the metadata's totals), how the packed block store
 * is doing (segments, garbage, fsyncs and group commits, corruption, compaction) and the scrub's
 * progress, as Micrometer gauges and function counters read at each scrape.
 *
 * <p>A scrape reads some twenty values; the statistics behind them are taken once and reused for
 * {@link #FRESH_NANOS}, so a scrape costs one metadata counter read and one pass over the segment
 * list, not twenty.
 */
final class StorageMetrics implements MeterBinder {
    /** Long enough to cover one scrape, short enough that the next one sees what changed. */
    private static final long FRESH_NANOS = 100_000_000L;
    /** How often a cluster node counts what is stored: a read of every entry of the metadata. */
    private static final long CLUSTER_COUNT_NANOS = 30_000_000_000L;

    private final StatisticsSnapshot<StoreStatistics> stored;
    private final StatisticsSnapshot<BlockStoreStatistics> blocks;
    private final StatisticsSnapshot<ScrubProgress> scrub;
    private final StatisticsSnapshot<WriteLogStatistics> writeLog;

    StorageMetrics(ClusterNode node) {
        // A cluster node counts what is stored from quorum reads of every entry: in the background, and
        // seldom. A single node reads its counters.
        this.stored = node.replicas().isPresent()
                ? StatisticsSnapshot.inBackground(() -> node.metadata().statistics(), StoreStatistics.EMPTY,
                        CLUSTER_COUNT_NANOS)
                : StatisticsSnapshot.taken(() -> node.metadata().statistics(), StoreStatistics.EMPTY, FRESH_NANOS);
        this.blocks = StatisticsSnapshot.taken(() -> node.blocks().statistics(), BlockStoreStatistics.NONE, FRESH_NANOS);
        // A field read: nothing to save by caching, and a scrape right after a scrub sees its end.
        this.scrub = StatisticsSnapshot.taken(() -> node.maintenance().scrubProgress(), ScrubProgress.NONE, 0);
        this.writeLog = StatisticsSnapshot.taken(() -> node.metadata().writeLog(), WriteLogStatistics.NONE, FRESH_NANOS);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, stored, "hangar.storage.objects", null,
                "Stored object versions, current and noncurrent, delete markers not included", StoreStatistics::objects);
        gauge(registry, stored, "hangar.storage.bytes", BaseUnits.BYTES,
                "Sum of the sizes of the stored object versions, as clients see them", StoreStatistics::bytes);
        gauge(registry, stored, "hangar.storage.delete.markers", null, "Stored delete markers",
                StoreStatistics::deleteMarkers);
        gauge(registry, stored, "hangar.storage.buckets", null, "Buckets", StoreStatistics::buckets);
        gauge(registry, stored, "hangar.storage.uploads", null, "Multipart uploads in progress",
                StoreStatistics::uploads);

        gauge(registry, blocks, "hangar.storage.segment.files", null, "Segment files holding packed chunks",
                BlockStoreStatistics::segmentFiles);
        gauge(registry, blocks, "hangar.storage.segment.bytes", BaseUnits.BYTES, "Size of the segment files on disk",
                BlockStoreStatistics::segmentBytes);
        gauge(registry, blocks, "hangar.storage.segment.live.bytes", BaseUnits.BYTES,
                "Bytes of segment files that live chunks occupy", BlockStoreStatistics::liveSegmentBytes);
        gauge(registry, blocks, "hangar.storage.packed.chunks", null, "Packed chunks still referenced",
                BlockStoreStatistics::packedChunks);
        gauge(registry, blocks, "hangar.storage.garbage.ratio", null,
                "Share of segment bytes that belong to deleted chunks: what compaction can give back",
                BlockStoreStatistics::garbageRatio);
        gauge(registry, blocks, "hangar.storage.group.commit.largest", null, "Most writers that shared one fsync",
                BlockStoreStatistics::largestGroupCommit);
        counter(registry, blocks, "hangar.storage.fsyncs", null, "Data file fsyncs (segments and block files)",
                BlockStoreStatistics::fsyncs);
        counter(registry, blocks, "hangar.storage.group.commits", null, "Fsyncs that acknowledged packed writes",
                BlockStoreStatistics::groupCommits);
        counter(registry, blocks, "hangar.storage.group.commit.writes", null,
                "Packed writes acknowledged by group commits; divided by the group commits, the mean group size",
                BlockStoreStatistics::groupCommittedWrites);
        counter(registry, writeLog, "hangar.storage.metadata.log.syncs", null,
                "Syncs of the metadata's write-ahead log", WriteLogStatistics::syncs);
        counter(registry, writeLog, "hangar.storage.metadata.write.groups", null,
                "Metadata write groups: writes whose log write (and sync) a leader made for itself and its followers",
                WriteLogStatistics::groups);
        counter(registry, writeLog, "hangar.storage.metadata.writes", null,
                "Metadata writes through the log; divided by the write groups, the mean group size",
                WriteLogStatistics::groupedWrites);
        counter(registry, blocks, "hangar.storage.corrupt.blocks", null,
                "Reads and checks that found a block not matching its CRC32C", BlockStoreStatistics::corruptBlocks);
        counter(registry, blocks, "hangar.storage.compaction.segments", null, "Segment files removed by compaction",
                BlockStoreStatistics::compactedSegments);
        counter(registry, blocks, "hangar.storage.compaction.reclaimed", BaseUnits.BYTES,
                "Disk space given back by compaction", BlockStoreStatistics::compactionReclaimedBytes);

        gauge(registry, scrub, "hangar.storage.scrub.running", null, "1 while a scrub runs, else 0",
                progress -> progress.running() ? 1 : 0);
        gauge(registry, scrub, "hangar.storage.scrub.checked.blocks", null,
                "Blocks the running (or latest) scrub has checked", ScrubProgress::blocksChecked);
        gauge(registry, scrub, "hangar.storage.scrub.checked", BaseUnits.BYTES,
                "Bytes the running (or latest) scrub has checked", ScrubProgress::bytesChecked);
        gauge(registry, scrub, "hangar.storage.scrub.corrupt.blocks", null,
                "Corrupt blocks the running (or latest) scrub found", ScrubProgress::corruptBlocks);
        gauge(registry, scrub, "hangar.storage.scrub.missing.blocks", null,
                "Referenced blocks the running (or latest) scrub found missing", ScrubProgress::missingBlocks);
        gauge(registry, scrub, "hangar.storage.scrub.failed.checks", null,
                "Blocks the running (or latest) scrub could not read (I/O errors)", ScrubProgress::failedChecks);
        gauge(registry, scrub, "hangar.storage.scrub.orphans.removed", null,
                "Unreferenced blocks the running (or latest) scrub removed", ScrubProgress::orphansRemoved);
        gauge(registry, scrub, "hangar.storage.scrub.last.completed", "seconds",
                "When the latest complete scrub ended, in seconds since the epoch; 0 if none did",
                progress -> epochSeconds(progress.lastCompleted()));
        counter(registry, scrub, "hangar.storage.scrubs", null, "Scrubs run to their end since start",
                ScrubProgress::completedScrubs);
    }

    private static <T> void gauge(MeterRegistry registry, StatisticsSnapshot<T> source, String name, @Nullable String unit,
            String description, ToDoubleFunction<T> value) {
        Gauge.builder(name, source, snapshot -> value.applyAsDouble(snapshot.get()))
                .baseUnit(unit)
                .description(description)
                .register(registry);
    }

    private static <T> void counter(MeterRegistry registry, StatisticsSnapshot<T> source, String name, @Nullable String unit,
            String description, ToDoubleFunction<T> value) {
        FunctionCounter.builder(name, source, snapshot -> value.applyAsDouble(snapshot.get()))
                .baseUnit(unit)
                .description(description)
                .register(registry);
    }

    private static double epochSeconds(@Nullable Instant instant) {
        return instant == null ? 0 : instant.toEpochMilli() / 1000.0;
    }
}
