package dev.hangar.distribution;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /actuator/storage {"action": "compact"}} gives back the disk space of deleted packed chunks and
 * loses none of the live ones. A server of its own packs into 1 MB segments, so a few hundred small objects
 * fill several; 80 % of them are deleted, and after the compaction the segment files on disk take much less
 * space while every surviving object reads back byte for byte and every deleted one stays gone.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompactionIT {
    private static final int OBJECTS = 150;
    private static final String BUCKET = "compacted";
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private DedicatedServer server;
    private S3Client s3;

    @BeforeAll
    void startServer(@TempDir Path folder) {
        server = DedicatedServer.start(folder.resolve("data"),
                "storage.packing.segment-size=1MB",
                // Only the compaction this test asks for.
                "storage.compaction-interval=0",
                "storage.scrub.interval=0");
        s3 = server.s3();
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void compactionShrinksTheSegmentsAndKeepsEveryLiveObject() throws InterruptedException {
        s3.createBucket(request -> request.bucket(BUCKET));
        SplittableRandom random = new SplittableRandom(7);
        List<RandomContent> contents = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
            RandomContent content = RandomContent.of(1000 + i, random.nextInt(20 * 1024, 60 * 1024 + 1));
            contents.add(content);
            String key = key(i);
            s3.putObject(request -> request.bucket(BUCKET).key(key), content.requestBody());
        }
        long written = segmentBytesOnDisk();
        assertThat(segmentFiles()).as("segment files after %d PUTs", OBJECTS).hasSizeGreaterThanOrEqualTo(4);

        for (int i = 0; i < OBJECTS; i++) {
            if (!survives(i)) {
                String key = key(i);
                s3.deleteObject(request -> request.bucket(BUCKET).key(key));
            }
        }
        awaitPackedChunks(OBJECTS / 5);
        JsonNode before = storage().get("blocks");
        assertThat(before.get("garbageRatio").asDouble()).isGreaterThan(0.5);

        AdminApi.Response compaction = server.admin().post("/actuator/storage", Map.of("action", "compact"));

        assertThat(compaction.status()).as("compaction: %s", compaction.body()).isEqualTo(200);
        JsonNode report = compaction.json();
        assertThat(report.get("segmentsCompacted").asInt()).isPositive();
        assertThat(report.get("chunksMoved").asLong()).isPositive();
        assertThat(report.get("bytesReclaimed").asLong()).isPositive();
        long compacted = segmentBytesOnDisk();
        assertThat(compacted).as("segment bytes on disk, %d before compaction", written).isLessThan(written * 6 / 10);
        JsonNode after = storage().get("blocks");
        assertThat(after.get("segmentBytes").asLong()).isEqualTo(compacted);
        assertThat(after.get("garbageRatio").asDouble()).isLessThan(before.get("garbageRatio").asDouble());
        assertThat(after.get("compactedSegments").asLong()).isEqualTo(report.get("segmentsCompacted").asLong());
        assertThat(after.get("packedChunks").asLong()).isEqualTo(OBJECTS / 5);

        for (int i = 0; i < OBJECTS; i++) {
            String key = key(i);
            if (survives(i)) {
                byte[] read = s3.getObjectAsBytes(request -> request.bucket(BUCKET).key(key)).asByteArray();
                assertThat(Digests.sha256Hex(read)).as("SHA-256 of %s", key)
                        .isEqualTo(Digests.sha256Hex(contents.get(i).newStream()));
            } else {
                assertThat(catchThrowable(
                        () -> s3.getObjectAsBytes(request -> request.bucket(BUCKET).key(key))))
                        .as("GET of deleted %s", key)
                        .isInstanceOf(NoSuchKeyException.class);
            }
        }
        assertThat(server.metric("hangar_storage_compaction_segments_total"))
                .isEqualTo(report.get("segmentsCompacted").asDouble());
    }

    private static boolean survives(int i) {
        return i % 5 == 0;
    }

    private static String key(int i) {
        return "object-" + i;
    }

    private JsonNode storage() {
        AdminApi.Response status = server.admin().get("/actuator/storage");
        assertThat(status.status()).as("GET /actuator/storage: %s", status.body()).isEqualTo(200);
        return status.json();
    }

    /** Deletes free packed chunks in the background, right after the change: waits until they are. */
    private void awaitPackedChunks(long expected) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        long chunks = storage().get("blocks").get("packedChunks").asLong();
        while (chunks != expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
            chunks = storage().get("blocks").get("packedChunks").asLong();
        }
        assertThat(chunks).as("packed chunks once deletes are reclaimed").isEqualTo(expected);
    }

    private List<Path> segmentFiles() {
        try (Stream<Path> files = Files.list(server.dataDir().resolve("blocks").resolve("segments"))) {
            return files.filter(path -> path.getFileName().toString().endsWith(".dat")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long segmentBytesOnDisk() {
        long total = 0;
        for (Path file : segmentFiles()) {
            try {
                total += Files.size(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return total;
    }
}
