package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.blockstore.BlockId;
import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import tools.jackson.databind.JsonNode;

/**
 * The scrub ({@code POST /actuator/storage {"action": "scrub"}}) against damage done to the files on disk of
 * a server of its own: a flipped byte in a packed chunk, a block file removed, a block file nothing references.
 * Reads of damaged objects fail rather than return wrong bytes; the scrub counts the damage, and the metrics
 * show it; orphans go once older than the grace, and every object still referenced reads back whole.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ScrubIT {
    private static final int KIB = 1024;
    private static final int MIB = 1024 * KIB;

    private DedicatedServer server;
    private S3Client s3;

    @BeforeAll
    void startServer(@TempDir Path folder) {
        server = DedicatedServer.start(folder.resolve("data"),
                // Only the scrubs the tests ask for, and no compaction moving chunks under them.
                "storage.compaction-interval=0",
                "storage.scrub.interval=0",
                "storage.scrub.rate=256MB");
        s3 = server.s3();
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aFlippedByteInAPackedChunkFailsItsReadAndTheScrubFindsIt() throws IOException {
        String bucket = "corrupted";
        s3.createBucket(request -> request.bucket(bucket));
        Map<String, RandomContent> healthy = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            RandomContent content = RandomContent.of(100 + i, 30 * KIB + i);
            healthy.put("healthy-" + i, content);
            put(bucket, "healthy-" + i, content);
        }
        RandomContent victim = RandomContent.of(200, 40 * KIB);
        put(bucket, "victim", victim);
        double corruptReadsBefore = server.metric("hangar_storage_corrupt_blocks_total");

        flipByteOfPackedChunk(bytes(victim));

        Throwable failure = catchThrowable(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("victim")));
        assertThat(failure).as("GET of the object whose chunk was damaged").isNotNull();
        // Found before the first byte is sent: S3's XML InternalError, not Spring Boot's JSON error body.
        assertThat(failure).isInstanceOfSatisfying(S3Exception.class, error -> {
            assertThat(error.statusCode()).isEqualTo(500);
            assertThat(error.awsErrorDetails().errorCode()).isEqualTo("InternalError");
        });
        for (Map.Entry<String, RandomContent> object : healthy.entrySet()) {
            assertReadsBack(bucket, object.getKey(), object.getValue());
        }

        JsonNode scrub = scrub(null);

        assertThat(scrub.get("running").asBoolean()).isFalse();
        assertThat(scrub.get("corruptBlocks").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(scrub.get("blocksChecked").asLong()).isGreaterThanOrEqualTo(6);
        assertThat(scrub.get("bytesChecked").asLong()).isGreaterThanOrEqualTo(150 * KIB + 40 * KIB);
        assertThat(scrub.get("lastCompleted").asString()).isNotBlank();
        assertThat(server.metric("hangar_storage_scrub_corrupt_blocks")).isGreaterThanOrEqualTo(1);
        // The failed GET and the scrub's check both met the damaged chunk.
        // Storage statistics are sampled at most every 100 ms, so the scrape may lag for that long.
        assertThat(metricEventually("hangar_storage_corrupt_blocks_total", corruptReadsBefore + 2))
                .isGreaterThanOrEqualTo(corruptReadsBefore + 2);
        assertThat(server.metric("hangar_storage_scrub_running")).isZero();
        assertThat(server.metric("hangar_storage_scrubs_total")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aBlockFileRemovedFromDiskIsReportedMissing() throws IOException {
        String bucket = "missing";
        s3.createBucket(request -> request.bucket(bucket));
        List<Path> before = blockFiles();
        put(bucket, "large", RandomContent.of(300, MIB + 100));
        List<Path> added = blockFiles().stream().filter(path -> !before.contains(path)).toList();
        assertThat(added).as("block files of a 1 MiB chunk").hasSize(1);
        Files.delete(added.get(0));

        assertThat(catchThrowable(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("large"))))
                .as("GET of the object whose block file is gone").isNotNull();
        JsonNode scrub = scrub(null);

        assertThat(scrub.get("missingBlocks").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(server.metric("hangar_storage_scrub_missing_blocks")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void orphansGoOnceOlderThanTheGraceAndReferencedBlocksStay() throws Exception {
        String bucket = "orphans";
        s3.createBucket(request -> request.bucket(bucket));
        RandomContent large = RandomContent.of(400, 2L * MIB + 5000);
        RandomContent small = RandomContent.of(401, 20 * KIB);
        put(bucket, "large", large);
        put(bucket, "small", small);
        // A block file that nothing references, where a crash between a block's write and its commit leaves one.
        Path referenced = blockFiles().getFirst();
        Path orphan = blockFile(BlockId.random());
        Files.createDirectories(orphan.getParent());
        Files.copy(referenced, orphan);
        // Left there ten minutes ago: no scrub removes a block younger than a minute, whatever the grace.
        Files.setLastModifiedTime(orphan, FileTime.from(Instant.now().minus(Duration.ofMinutes(10))));

        JsonNode young = scrub("1h");
        assertThat(young.get("orphansRemoved").asLong()).isZero();
        assertThat(orphan).as("an orphan younger than the grace").exists();

        JsonNode old = scrub("PT0S");

        assertThat(old.get("orphansRemoved").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(orphan).as("an orphan older than the grace").doesNotExist();
        assertThat(referenced).exists();
        assertReadsBack(bucket, "large", large);
        assertReadsBack(bucket, "small", small);
        assertThat(server.metric("hangar_storage_scrub_orphans_removed")).isGreaterThanOrEqualTo(1);
    }

    /**
     * A scrub with an orphan grace of zero while a PUT streams in: the chunks the PUT has written are not
     * referenced yet, but they belong to a write in flight, so they stay, and the object the PUT then commits
     * reads back whole. Before, the scrub removed them and the PUT still answered 200.
     */
    @Test
    void aScrubWithoutGraceDuringAPutLeavesItsChunksAlone() throws Exception {
        String bucket = "slow-put";
        s3.createBucket(request -> request.bucket(bucket));
        s3.putBucketPolicy(request -> request.bucket(bucket).policy("{\"Version\": \"2012-10-17\", \"Statement\": "
                + "[{\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:PutObject\", "
                + "\"Resource\": \"arn:aws:s3:::" + bucket + "/*\"}]}"));
        RandomContent content = RandomContent.of(500, 3L * MIB + 777);
        byte[] bytes = bytes(content);
        List<Path> before = blockFiles();

        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(("PUT /" + bucket + "/streamed HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            int first = 2 * MIB + 1000;
            out.write(bytes, 0, first);
            out.flush();
            List<Path> written = awaitNewBlockFiles(before, 2);

            scrub("PT0S");

            assertThat(written).as("the PUT's chunks after the scrub").allSatisfy(path -> assertThat(path).exists());
            out.write(bytes, first, bytes.length - first);
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 200");
        }
        assertReadsBack(bucket, "streamed", content);
    }

    @Test
    void aScrubStartedWithoutWaitingIsAcceptedAndOnlyOneRunsAtATime() throws InterruptedException {
        AdminApi.Response started = server.admin().post("/actuator/storage", Map.of("action", "scrub"));
        assertThat(started.status()).as("scrub: %s", started.body()).isEqualTo(202);
        assertThat(started.json().get("started").asString()).isNotBlank();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (server.admin().get("/actuator/storage").json().get("scrub").get("running").asBoolean()
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(server.admin().get("/actuator/storage").json().get("scrub").get("running").asBoolean()).isFalse();
        AdminApi.Response refused = server.admin().post("/actuator/storage", Map.of("action", "defragment"));
        assertThat(refused.status()).isEqualTo(400);
        AdminApi.Response badGrace = server.admin().post("/actuator/storage",
                Map.of("action", "scrub", "orphanGrace", "soon"));
        assertThat(badGrace.status()).isEqualTo(400);
    }

    /** Runs a scrub and waits for it; the orphan grace is the configured one when null. */
    private JsonNode scrub(String orphanGrace) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("action", "scrub");
        body.put("wait", true);
        if (orphanGrace != null) {
            body.put("orphanGrace", orphanGrace);
        }
        AdminApi.Response response = server.admin().post("/actuator/storage", body);
        assertThat(response.status()).as("scrub: %s", response.body()).isEqualTo(200);
        return response.json();
    }

    private void put(String bucket, String key, RandomContent content) {
        s3.putObject(request -> request.bucket(bucket).key(key), content.requestBody());
    }

    private void assertReadsBack(String bucket, String key, RandomContent content) {
        ResponseBytes<GetObjectResponse> read = s3.getObjectAsBytes(request -> request.bucket(bucket).key(key));
        assertThat(Digests.sha256Hex(read.asByteArray())).as("SHA-256 of %s", key)
                .isEqualTo(Digests.sha256Hex(content.newStream()));
    }

    /**
     * Flips one byte of a chunk's data inside the newest segment file, found by its content (the record's
     * header and CRC32C stay as written, so only the data check can notice).
     */
    private void flipByteOfPackedChunk(byte[] content) throws IOException {
        Path segment;
        try (Stream<Path> files = Files.list(server.dataDir().resolve("blocks").resolve("segments"))) {
            segment = files.filter(path -> path.getFileName().toString().endsWith(".dat"))
                    .max(Comparator.comparing(path -> path.getFileName().toString()))
                    .orElseThrow();
        }
        byte[] segmentBytes = Files.readAllBytes(segment);
        byte[] tail = Arrays.copyOfRange(content, content.length - 256, content.length);
        int at = lastIndexOf(segmentBytes, tail);
        assertThat(at).as("the chunk's data in %s", segment).isNotNegative();
        long position = at + 100;
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(new byte[] {(byte) (segmentBytes[(int) position] ^ 0x5a)}), position);
            channel.force(false);
        }
    }

    private static int lastIndexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = haystack.length - needle.length; i >= 0; i--) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] bytes(RandomContent content) throws IOException {
        try (InputStream stream = content.newStream()) {
            return stream.readAllBytes();
        }
    }

    /** The block files written since {@code before}, once there are {@code count} of them (10 s at most). */
    private List<Path> awaitNewBlockFiles(List<Path> before, int count) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<Path> added = List.of();
        while (System.nanoTime() < deadline) {
            added = blockFiles().stream().filter(path -> !before.contains(path)).toList();
            if (added.size() >= count) {
                return added;
            }
            Thread.sleep(20);
        }
        assertThat(added).as("block files of the PUT's first chunks").hasSizeGreaterThanOrEqualTo(count);
        return added;
    }

    /** Block files kept one per chunk: {@code blocks/ab/cd/<id>}. */
    private List<Path> blockFiles() throws IOException {
        Path blocks = server.dataDir().resolve("blocks");
        try (Stream<Path> files = Files.walk(blocks, 3)) {
            return files.filter(Files::isRegularFile)
                    .filter(path -> path.getFileName().toString().matches("[0-9a-f]{32}"))
                    .sorted()
                    .toList();
        }
    }

    private Path blockFile(BlockId id) {
        String hex = id.value();
        return server.dataDir().resolve("blocks").resolve(hex.substring(0, 2)).resolve(hex.substring(2, 4)).resolve(hex);
    }

    /** The metric once it reaches {@code atLeast}, or its value after two seconds of waiting. */
    private double metricEventually(String series, double atLeast) {
        long deadline = System.nanoTime() + 2_000_000_000L;
        double value = server.metric(series);
        while (value < atLeast && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            value = server.metric(series);
        }
        return value;
    }
}
