package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Readers keep what they read (issue 12): one key is overwritten with distinct random content and
 * now and then deleted, in a loop, while 8 readers GET it (whole, a range across chunks, and as part
 * 1), and a copier copies it with CopyObject and UploadPartCopy. Every GET must be a whole version
 * that was written (its SHA-256 among those of every version written), or 404 after a delete: never a
 * short body, never a 500. Every copy must be a whole version, or a clean S3 error that is not a 500.
 * Three sizes: inline, one packed chunk, and six full chunks.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReaderLeaseIT extends AbstractS3IT {
    private static final int READERS = 8;
    /** Each size races at least this long, and until it reaches the GETs below or twice this long. */
    private static final Duration RACE = Duration.ofSeconds(15);
    private static final int WANTED_GETS = 600;

    private enum Mode { WHOLE, RANGE, PART }

    /** What was written: the SHA-256 of each version's whole content and of its range, its MD5. */
    private final Set<String> wholeDigests = ConcurrentHashMap.newKeySet();
    private final Set<String> rangeDigests = ConcurrentHashMap.newKeySet();
    private final Set<String> md5s = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {2 * 1024, 100 * 1024, 6 * MIB})
    void everyGetAndCopyIsAWholeVersionOrACleanError(int size) throws Exception {
        // One instance serves every size (the suite's classes are PER_CLASS): start each from nothing.
        wholeDigests.clear();
        rangeDigests.clear();
        md5s.clear();
        failures.clear();
        outcomes.clear();
        String bucket = createBucket("it-leases");
        String key = "raced";
        long rangeFirst = size / 3;
        long rangeLength = size / 2;
        AtomicLong seeds = new AtomicLong(size * 1_000L);
        put(bucket, key, RandomContent.of(seeds.incrementAndGet(), size), rangeFirst, rangeLength);

        AtomicBoolean racing = new AtomicBoolean(true);
        AtomicLong gets = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
            Mode mode = Mode.values()[r % Mode.values().length];
            threads.add(Thread.ofPlatform().name("reader-" + r).start(() -> {
                while (racing.get()) {
                    read(bucket, key, mode, rangeFirst, rangeLength);
                    gets.incrementAndGet();
                }
            }));
        }
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key("parts")).uploadId();
        threads.add(Thread.ofPlatform().name("copier").start(() -> {
            while (racing.get()) {
                copy(bucket, key, uploadId);
            }
        }));

        long started = System.nanoTime();
        int writes = 0;
        try {
            while (System.nanoTime() - started < RACE.toNanos()
                    || (gets.get() < WANTED_GETS && System.nanoTime() - started < 2 * RACE.toNanos())) {
                if (++writes % 5 == 0) {
                    s3.deleteObject(request -> request.bucket(bucket).key(key));
                } else {
                    put(bucket, key, RandomContent.of(seeds.incrementAndGet(), size), rangeFirst, rangeLength);
                }
            }
        } finally {
            racing.set(false);
            for (Thread thread : threads) {
                thread.join(Duration.ofSeconds(60));
            }
        }
        s3.abortMultipartUpload(request -> request.bucket(bucket).key("parts").uploadId(uploadId));

        System.out.printf("ReaderLeaseIT %d bytes: %d writes, %d GETs, outcomes %s%n", size, writes, gets.get(),
                new TreeMap<>(outcomes));
        assertThat(failures).as("GETs or copies that were neither a whole version nor a clean error").isEmpty();
        assertThat(gets.get()).as("GETs that raced %d writes", writes).isGreaterThanOrEqualTo(READERS);
        assertThat(writes).isGreaterThan(5);
    }

    private void put(String bucket, String key, RandomContent content, long rangeFirst, long rangeLength) {
        // Known before the PUT starts: a reader may see the version as soon as it commits.
        wholeDigests.add(content.sha256Hex());
        rangeDigests.add(Digests.sha256Hex(content.newStream(rangeFirst, rangeLength)));
        md5s.add(content.md5Hex());
        s3.putObject(request -> request.bucket(bucket).key(key), content.requestBody());
    }

    private void read(String bucket, String key, Mode mode, long rangeFirst, long rangeLength) {
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(request -> {
            request.bucket(bucket).key(key);
            switch (mode) {
                case WHOLE -> { }
                case RANGE -> request.range("bytes=" + rangeFirst + "-" + (rangeFirst + rangeLength - 1));
                case PART -> request.partNumber(1);
            }
        })) {
            long declared = in.response().contentLength();
            Digests.Summary summary = Digests.summarize(in);
            Set<String> expected = mode == Mode.RANGE ? rangeDigests : wholeDigests;
            if (summary.length() != declared) {
                failures.add(mode + ": " + summary.length() + " bytes of a declared " + declared);
            } else if (!expected.contains(summary.sha256Hex())) {
                failures.add(mode + ": " + declared + " bytes that are no version written");
            } else {
                count(mode + " whole version");
            }
        } catch (S3Exception e) {
            if (e.statusCode() == 404 && "NoSuchKey".equals(e.awsErrorDetails().errorCode())) {
                count(mode + " 404 after a delete");
            } else {
                failures.add(mode + ": " + e.statusCode() + " " + e.awsErrorDetails().errorCode());
            }
        } catch (RuntimeException | IOException e) {
            failures.add(mode + ": " + e);
        }
    }

    private void copy(String bucket, String key, String uploadId) {
        try {
            s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(key).destinationBucket(bucket)
                    .destinationKey("copy"));
            try (InputStream in = s3.getObject(request -> request.bucket(bucket).key("copy"))) {
                if (!wholeDigests.contains(Digests.sha256Hex(in))) {
                    failures.add("CopyObject: a copy that is no version written");
                } else {
                    count("CopyObject whole version");
                }
            }
        } catch (S3Exception e) {
            cleanCopyError("CopyObject", e);
        } catch (RuntimeException | IOException e) {
            failures.add("CopyObject: " + e);
        }
        try {
            String etag = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey(key)
                    .destinationBucket(bucket).destinationKey("parts").uploadId(uploadId).partNumber(1))
                    .copyPartResult().eTag();
            if (!md5s.contains(etag.replace("\"", ""))) {
                failures.add("UploadPartCopy: a part whose ETag is the MD5 of no version written");
            } else {
                count("UploadPartCopy whole version");
            }
        } catch (S3Exception e) {
            cleanCopyError("UploadPartCopy", e);
        }
    }

    private void cleanCopyError(String operation, S3Exception e) {
        if (e.statusCode() >= 500 && e.statusCode() != 503) {
            failures.add(operation + ": " + e.statusCode() + " " + e.awsErrorDetails().errorCode());
        } else {
            count(operation + " " + e.statusCode() + " " + e.awsErrorDetails().errorCode());
        }
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, ignored -> new AtomicLong()).incrementAndGet();
    }
}
