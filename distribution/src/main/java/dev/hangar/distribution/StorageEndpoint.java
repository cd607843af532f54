package dev.hangar.distribution;

import dev.hangar.blockstore.BlockStoreStatistics;
import dev.hangar.blockstore.CompactionReport;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.MaintenanceConfig;
import dev.hangar.cluster.ScrubProgress;
import dev.hangar.cluster.StorageMaintenance;
import dev.hangar.metadata.StoreStatistics;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.convert.DurationStyle;

/**
 * Storage on the management port ({@code /actuator/storage}): what is stored, the block store's
 * statistics, the scrub's progress and the maintenance settings; and a compaction or a scrub run now.
 *
 * <p>Actuator calls blocking operations off the event loop, so a compaction (or a scrub the caller
 * waits for) holds a worker thread, not a Netty one.
 */
@Endpoint(id = "storage")
public class StorageEndpoint {
    private static final int STATUS_ACCEPTED = 202;
    private static final int STATUS_CONFLICT = 409;

    private final ClusterNode node;

    StorageEndpoint(ClusterNode node) {
        this.node = node;
    }

    /** Everything at once: the answer to a GET. */
    public record Status(StoreStatistics stored, Blocks blocks, Scrub scrub, Settings settings) {}

    /** {@link BlockStoreStatistics} with its garbage ratio, which is computed rather than stored. */
    public record Blocks(
            long segmentFiles,
            long segmentBytes,
            long packedChunks,
            long liveSegmentBytes,
            double garbageRatio,
            long fsyncs,
            long groupCommits,
            long groupCommittedWrites,
            long largestGroupCommit,
            long corruptBlocks,
            long compactedSegments,
            long compactionReclaimedBytes) {

        static Blocks of(BlockStoreStatistics s) {
            return new Blocks(s.segmentFiles(), s.segmentBytes(), s.packedChunks(), s.liveSegmentBytes(),
                    s.garbageRatio(), s.fsyncs(), s.groupCommits(), s.groupCommittedWrites(), s.largestGroupCommit(),
                    s.corruptBlocks(), s.compactedSegments(), s.compactionReclaimedBytes());
        }
    }

    /** {@link ScrubProgress} with its instants as ISO-8601 text. */
    public record Scrub(
            boolean running,
            @Nullable String started,
            @Nullable String lastCompleted,
            long completedScrubs,
            long blocksChecked,
            long bytesChecked,
            long corruptBlocks,
            long missingBlocks,
            long failedChecks,
            long orphansRemoved,
            @Nullable String error) {

        static Scrub of(ScrubProgress p) {
            return new Scrub(p.running(), text(p.started()), text(p.lastCompleted()), p.completedScrubs(),
                    p.blocksChecked(), p.bytesChecked(), p.corruptBlocks(), p.missingBlocks(), p.failedChecks(),
                    p.orphansRemoved(), p.error());
        }
    }

    /** The maintenance settings, durations in ISO-8601 ({@code PT10M}), "disabled" for a zero interval. */
    public record Settings(String compactionInterval, String scrubInterval, long scrubBytesPerSecond,
            String orphanGrace) {

        static Settings of(MaintenanceConfig config) {
            return new Settings(interval(config.compactionInterval()), interval(config.scrubInterval()),
                    config.scrubBytesPerSecond(), config.orphanGrace().toString());
        }

        private static String interval(Duration interval) {
            return interval.isZero() ? "disabled" : interval.toString();
        }
    }

    /** Why a request was refused or failed. */
    public record Failure(String error) {}

    @ReadOperation
    public Status status() {
        StorageMaintenance maintenance = node.maintenance();
        return new Status(node.metadata().statistics(), Blocks.of(node.blocks().statistics()),
                Scrub.of(maintenance.scrubProgress()), Settings.of(maintenance.config()));
    }

    /**
     * Runs maintenance now.
     *
     * @param action {@code compact}: a compaction pass, answered with its {@link CompactionReport} when done;
     *     {@code scrub}: starts a scrub, answered at once (202) with its progress, or when it is done if
     *     {@code wait} is true; 409 if one is running already
     * @param orphanGrace for a scrub, the orphan grace to use instead of the configured one ({@code PT0S},
     *     {@code 0s}, {@code 2h}, ...)
     * @param wait for a scrub, whether to answer only once it is done
     */
    @WriteOperation
    public WebEndpointResponse<Object> run(String action, @Nullable String orphanGrace, @Nullable Boolean wait) {
        return switch (action.trim()) {
            case "compact" -> compact();
            case "scrub" -> scrub(orphanGrace, Boolean.TRUE.equals(wait));
            default -> new WebEndpointResponse<>(new Failure("action must be compact or scrub: " + action),
                    WebEndpointResponse.STATUS_BAD_REQUEST);
        };
    }

    private WebEndpointResponse<Object> compact() {
        try {
            return new WebEndpointResponse<>(node.maintenance().compactNow());
        } catch (IOException | RuntimeException e) {
            return new WebEndpointResponse<>(new Failure("compaction failed: " + e),
                    WebEndpointResponse.STATUS_INTERNAL_SERVER_ERROR);
        }
    }

    private WebEndpointResponse<Object> scrub(@Nullable String orphanGrace, boolean wait) {
        StorageMaintenance maintenance = node.maintenance();
        Duration grace;
        try {
            grace = orphanGrace == null || orphanGrace.isBlank()
                    ? maintenance.config().orphanGrace()
                    : DurationStyle.detectAndParse(orphanGrace.trim());
        } catch (IllegalArgumentException e) {
            return new WebEndpointResponse<>(new Failure("orphanGrace is not a duration: " + orphanGrace),
                    WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        if (grace.isNegative()) {
            return new WebEndpointResponse<>(new Failure("orphanGrace must not be negative: " + orphanGrace),
                    WebEndpointResponse.STATUS_BAD_REQUEST);
        }
        Optional<CompletableFuture<ScrubProgress>> started;
        try {
            started = maintenance.startScrub(grace);
        } catch (UnsupportedOperationException e) {
            return new WebEndpointResponse<>(new Failure(e.getMessage()), STATUS_CONFLICT);
        }
        if (started.isEmpty()) {
            return new WebEndpointResponse<>(new Failure("a scrub is running already"), STATUS_CONFLICT);
        }
        if (!wait) {
            return new WebEndpointResponse<>(Scrub.of(maintenance.scrubProgress()), STATUS_ACCEPTED);
        }
        try {
            return new WebEndpointResponse<>(Scrub.of(started.get().get()));
        } catch (ExecutionException e) {
            return new WebEndpointResponse<>(new Failure("scrub failed: " + e.getCause()),
                    WebEndpointResponse.STATUS_INTERNAL_SERVER_ERROR);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new WebEndpointResponse<>(new Failure("interrupted while waiting for the scrub"),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        }
    }

    private static @Nullable String text(@Nullable Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
