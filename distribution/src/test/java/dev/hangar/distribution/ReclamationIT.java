package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import dev.hangar.cluster.ClusterNode;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Deleting or overwriting an object, replacing a part, completing an upload without some of its
 * parts and aborting an upload free the blocks on disk; the blocks an object still uses stay. Blocks
 * are counted relative to the count before each test (failsafe runs test classes one after the
 * other, so nothing else writes meanwhile): full chunks as files in the server's data folder, the
 * smaller ones, packed into segment files, as the block store's count of live packed chunks.
 */
class ReclamationIT extends AbstractS3IT {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @Autowired private ClusterNode node;

    private String bucket;
    private long baseline;

    @BeforeEach
    void settle() throws InterruptedException {
        bucket = createBucket("it-reclaim");
        baseline = stableBlockCount();
    }

    @Test
    void overwritingAndDeletingFreeTheBlocksOfTheReplacedVersion() throws InterruptedException {
        s3.putObject(request -> request.bucket(bucket).key("big"), RandomContent.of(1, 3L * MIB).requestBody());
        assertBlocksEventually(baseline + 3);

        RandomContent smaller = RandomContent.of(2, MIB + 1);
        s3.putObject(request -> request.bucket(bucket).key("big"), smaller.requestBody());
        assertBlocksEventually(baseline + 2);
        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key("big"))))
            .isEqualTo(Digests.sha256Hex(smaller.newStream()));

        s3.putObject(request -> request.bucket(bucket).key("big"), RequestBody.fromString("now inline"));
        assertBlocksEventually(baseline);

        s3.putObject(request -> request.bucket(bucket).key("other"), RandomContent.of(3, 2L * MIB).requestBody());
        assertBlocksEventually(baseline + 2);
        s3.deleteObject(request -> request.bucket(bucket).key("other"));
        assertBlocksEventually(baseline);
    }

    @Test
    void multipartUploadsKeepOnlyTheBlocksOfTheCompletedObject() throws InterruptedException {
        String key = "assembled";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String first = uploadPart(key, uploadId, 1, RandomContent.of(11, 5L * MIB));
        uploadPart(key, uploadId, 2, RandomContent.of(12, 5L * MIB));
        RandomContent last = RandomContent.of(13, MIB);
        String third = uploadPart(key, uploadId, 3, last);
        assertBlocksEventually(baseline + 11);

        // Replacing part 3 frees the replaced part's block.
        third = uploadPart(key, uploadId, 3, last);
        assertBlocksEventually(baseline + 11);

        // Completing with parts 1 and 3 frees part 2.
        String firstTag = first;
        String thirdTag = third;
        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(
                part -> part.partNumber(1).eTag(firstTag), part -> part.partNumber(3).eTag(thirdTag))));
        assertBlocksEventually(baseline + 6);
        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).contentLength()).isEqualTo(6L * MIB);

        // An aborted upload leaves nothing behind.
        String abandoned = s3.createMultipartUpload(request -> request.bucket(bucket).key("abandoned")).uploadId();
        uploadPart("abandoned", abandoned, 1, RandomContent.of(14, 2L * MIB));
        assertBlocksEventually(baseline + 8);
        s3.abortMultipartUpload(request -> request.bucket(bucket).key("abandoned").uploadId(abandoned));
        assertBlocksEventually(baseline + 6);

        s3.deleteObject(request -> request.bucket(bucket).key(key));
        assertBlocksEventually(baseline);
    }

    private String uploadPart(String key, String uploadId, int number, RandomContent content) {
        return s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
            content.requestBody()).eTag();
    }

    private void assertBlocksEventually(long expected) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        long count = blockCount();
        while (count != expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
            count = blockCount();
        }
        assertThat(count).as("block files in %s", dataDir()).isEqualTo(expected);
    }

    /** The block count once it stopped changing: reclamation of earlier tests has finished. */
    private long stableBlockCount() throws InterruptedException {
        long previous = -1;
        long current = blockCount();
        while (current != previous) {
            Thread.sleep(300);
            previous = current;
            current = blockCount();
        }
        return current;
    }

    private long blockCount() {
        Path blocks = dataDir().resolve("blocks");
        try (Stream<Path> files = Files.walk(blocks)) {
            long blockFiles = files.filter(Files::isRegularFile)
                .filter(path -> path.getFileName().toString().matches("[0-9a-f]{32}"))
                .count();
            return blockFiles + node.blocks().statistics().packedChunks();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
