package dev.hangar.bench.aot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import java.util.SplittableRandom;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * What a training run asks of the server: the requests users make most (PUT, GET, ranged GET, HEAD,
 * DELETE, ListObjectsV2, CopyObject, a missing key, a multipart upload, bucket reads), of sizes from
 * inline to several chunks, from several clients at once, so that the classes of every one of those
 * paths are loaded and their hot methods profiled when the JVM writes its cache. Every answer is
 * checked: a training run that fails requests would train the error paths instead.
 */
final class TrainingWorkload {

    private static final int[] SIZES = {16, 1024, 4096, 64 * 1024, 300 * 1024, 2 * 1024 * 1024 + 17};
    private static final int PART = 5 * 1024 * 1024;
    private static final int KEYS_PER_CLIENT = 40;

    private final S3AsyncClient client;
    private final String bucket;
    private final AtomicLong requests = new AtomicLong();

    TrainingWorkload(S3AsyncClient client, String bucket) {
        this.client = client;
        this.bucket = bucket;
    }

    /** Runs {@code clients} loops until {@code end}; returns the requests made. Throws on the first failure. */
    long run(int clients, Instant end) {
        client.createBucket(request -> request.bucket(bucket)).join();
        List<CompletableFuture<Void>> loops = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int id = c;
            loops.add(CompletableFuture.runAsync(() -> loop(id, end)));
        }
        CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).join();
        return requests.get();
    }

    private void loop(int id, Instant end) {
        RandomGenerator random = new SplittableRandom(id);
        count(client.listBuckets());
        count(client.getBucketLocation(request -> request.bucket(bucket)));
        count(client.headBucket(request -> request.bucket(bucket)));
        for (int i = 0; Instant.now().isBefore(end); i++) {
            String key = String.format(Locale.ROOT, "client-%d/object-%03d", id, i % KEYS_PER_CLIENT);
            byte[] payload = new byte[SIZES[i % SIZES.length]];
            random.nextBytes(payload);
            count(client.putObject(request -> request.bucket(bucket).key(key), AsyncRequestBody.fromBytes(payload)));
            byte[] read = count(client.getObject(request -> request.bucket(bucket).key(key), AsyncResponseTransformer.toBytes()))
                .asByteArray();
            check(read.length == payload.length, "GET " + key + " returned " + read.length + " bytes of " + payload.length);
            count(client.getObject(request -> request.bucket(bucket).key(key).range("bytes=0-9"), AsyncResponseTransformer.toBytes()));
            count(client.headObject(request -> request.bucket(bucket).key(key)));
            count(client.listObjectsV2(request -> request.bucket(bucket).prefix("client-" + id + "/").maxKeys(10)));
            if (i % 5 == 0) {
                String copy = key + ".copy";
                count(client.copyObject(request -> request.sourceBucket(bucket).sourceKey(key).destinationBucket(bucket)
                    .destinationKey(copy)));
                count(client.deleteObject(request -> request.bucket(bucket).key(copy)));
            }
            if (i % 7 == 0) {
                missing(key + ".missing");
            }
            if (i % 30 == 29) {
                multipart(id, random);
            }
        }
    }

    private void multipart(int id, RandomGenerator random) {
        String key = "client-" + id + "/multipart";
        String upload = count(client.createMultipartUpload(request -> request.bucket(bucket).key(key))).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        for (int number = 1; number <= 2; number++) {
            byte[] part = new byte[number == 1 ? PART : 1024];
            random.nextBytes(part);
            int partNumber = number;
            String etag = count(client.uploadPart(request -> request.bucket(bucket).key(key).uploadId(upload).partNumber(partNumber),
                AsyncRequestBody.fromBytes(part))).eTag();
            parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        }
        count(client.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(upload)
            .multipartUpload(upload1 -> upload1.parts(parts))));
        count(client.deleteObject(request -> request.bucket(bucket).key(key)));
    }

    private void missing(String key) {
        try {
            count(client.getObject(request -> request.bucket(bucket).key(key), AsyncResponseTransformer.toBytes()));
            throw new IllegalStateException("GET of the missing key " + key + " answered 200");
        } catch (CompletionException e) {
            if (!(e.getCause() instanceof NoSuchKeyException)) {
                throw e;
            }
        }
    }

    private <T> T count(CompletableFuture<T> request) {
        requests.incrementAndGet();
        return request.join();
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }
}
