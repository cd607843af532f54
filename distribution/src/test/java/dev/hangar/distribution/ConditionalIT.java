package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RandomContent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Conditional requests: If-Match, If-None-Match, If-Modified-Since and If-Unmodified-Since on GET and
 * HEAD (304 and 412), the {@code x-amz-copy-source-if-*} conditions of CopyObject and UploadPartCopy,
 * and conditional writes ({@code If-None-Match: *} and {@code If-Match}) on PutObject and
 * CompleteMultipartUpload.
 */
class ConditionalIT extends AbstractS3IT {

    private static final Instant LONG_AGO = Instant.parse("2000-01-01T00:00:00Z");
    private static final Instant FAR_AHEAD = Instant.parse("2100-01-01T00:00:00Z");
    private static final String OTHER_ETAG = "\"0123456789abcdef0123456789abcdef\"";

    private String bucket;
    private String etag;

    @BeforeAll
    void createConditionalBucket() {
        bucket = createBucket("conditional");
        etag = s3.putObject(request -> request.bucket(bucket).key("source"), RequestBody.fromString("conditional"))
            .eTag();
    }

    @Test
    void getWithIfMatch() {
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("source").ifMatch(etag)).asUtf8String())
            .isEqualTo("conditional");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("source").ifMatch("*")).asUtf8String())
            .isEqualTo("conditional");
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("source").ifMatch(OTHER_ETAG)),
            412, "PreconditionFailed");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("source").ifMatch(OTHER_ETAG)), 412);
    }

    @Test
    void getWithIfNoneMatchAnswersNotModifiedWithTheEtag() {
        S3Exception notModified = assertS3Status(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("source")
            .ifNoneMatch(etag)), 304);
        assertThat(VersioningIT.header(notModified, "ETag")).isEqualTo(etag);
        assertThat(VersioningIT.header(notModified, "Last-Modified")).isNotBlank();
        S3Exception headNotModified = assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("source")
            .ifNoneMatch(etag)), 304);
        assertThat(VersioningIT.header(headNotModified, "ETag")).isEqualTo(etag);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("source").ifNoneMatch(OTHER_ETAG))
            .asUtf8String()).isEqualTo("conditional");
        // If-None-Match present, S3 ignores If-Modified-Since.
        assertThat(s3.headObject(request -> request.bucket(bucket).key("source").ifNoneMatch(OTHER_ETAG)
            .ifModifiedSince(FAR_AHEAD)).eTag()).isEqualTo(etag);
    }

    @Test
    void getWithDates() {
        assertS3Status(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("source")
            .ifModifiedSince(FAR_AHEAD)), 304);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("source").ifModifiedSince(LONG_AGO))
            .asUtf8String()).isEqualTo("conditional");
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("source")
            .ifUnmodifiedSince(LONG_AGO)), 412, "PreconditionFailed");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("source").ifUnmodifiedSince(LONG_AGO)),
            412);
        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key("source")
            .ifUnmodifiedSince(FAR_AHEAD).ifModifiedSince(LONG_AGO));
        assertThat(head.eTag()).isEqualTo(etag);
        // If-Match holding makes S3 ignore a failing If-Unmodified-Since: 200, not 412.
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("source").ifMatch(etag)
            .ifUnmodifiedSince(LONG_AGO)).asUtf8String()).isEqualTo("conditional");
        assertThat(s3.headObject(request -> request.bucket(bucket).key("source").ifMatch(etag)
            .ifUnmodifiedSince(LONG_AGO)).eTag()).isEqualTo(etag);
        // If-Match failing wins over If-None-Match: 412, not 304.
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("source").ifMatch(OTHER_ETAG)
            .ifNoneMatch(etag)), 412, "PreconditionFailed");
    }

    @Test
    void copySourceConditions() {
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source").destinationBucket(bucket)
            .destinationKey("copy/if-match").copySourceIfMatch(etag));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source").destinationBucket(bucket)
            .destinationKey("copy/if-none-match").copySourceIfNoneMatch(OTHER_ETAG));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source").destinationBucket(bucket)
            .destinationKey("copy/dates").copySourceIfModifiedSince(LONG_AGO).copySourceIfUnmodifiedSince(FAR_AHEAD));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("copy/dates")).asUtf8String())
            .isEqualTo("conditional");

        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source")
            .destinationBucket(bucket).destinationKey("copy/refused").copySourceIfMatch(OTHER_ETAG)),
            412, "PreconditionFailed");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source")
            .destinationBucket(bucket).destinationKey("copy/refused").copySourceIfNoneMatch(etag)),
            412, "PreconditionFailed");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source")
            .destinationBucket(bucket).destinationKey("copy/refused").copySourceIfModifiedSince(FAR_AHEAD)),
            412, "PreconditionFailed");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source")
            .destinationBucket(bucket).destinationKey("copy/refused").copySourceIfUnmodifiedSince(LONG_AGO)),
            412, "PreconditionFailed");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("copy/refused")), 404);

        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key("copy/part")).uploadId();
        assertS3Error(() -> s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("source")
            .destinationBucket(bucket).destinationKey("copy/part").uploadId(uploadId).partNumber(1)
            .copySourceIfMatch(OTHER_ETAG)), 412, "PreconditionFailed");
        String partEtag = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("source")
            .destinationBucket(bucket).destinationKey("copy/part").uploadId(uploadId).partNumber(1)
            .copySourceIfMatch(etag)).copyPartResult().eTag();
        assertThat(partEtag).isEqualTo(etag);
        s3.abortMultipartUpload(request -> request.bucket(bucket).key("copy/part").uploadId(uploadId));
    }

    @Test
    void putIfNoneMatchWritesOnlyANewKey() {
        String key = "write/if-none-match";
        PutObjectResponse created = s3.putObject(request -> request.bucket(bucket).key(key).ifNoneMatch("*"),
            RequestBody.fromString("first"));
        assertThat(created.eTag()).isNotBlank();
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key(key).ifNoneMatch("*"),
            RequestBody.fromString("second")), 412, "PreconditionFailed");
        // Over the inline threshold the refused bytes went to blocks; they never become visible.
        RandomContent large = RandomContent.of(77, 2L * MIB);
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key(key).ifNoneMatch("*"),
            large.requestBody()), 412, "PreconditionFailed");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo("first");

        s3.deleteObject(request -> request.bucket(bucket).key(key));
        s3.putObject(request -> request.bucket(bucket).key(key).ifNoneMatch("*"), RequestBody.fromString("again"));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo("again");

        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key(key).ifNoneMatch(etag),
            RequestBody.fromString("unsupported")), 501, "NotImplemented");
    }

    @Test
    void putIfNoneMatchInAVersionedBucketTreatsADeleteMarkerAsAbsent() {
        String versioned = createBucket("conditional-versioned");
        s3.putBucketVersioning(request -> request.bucket(versioned)
            .versioningConfiguration(config -> config.status(BucketVersioningStatus.ENABLED)));
        s3.putObject(request -> request.bucket(versioned).key("k").ifNoneMatch("*"), RequestBody.fromString("1"));
        assertS3Error(() -> s3.putObject(request -> request.bucket(versioned).key("k").ifNoneMatch("*"),
            RequestBody.fromString("2")), 412, "PreconditionFailed");
        s3.deleteObject(request -> request.bucket(versioned).key("k"));
        PutObjectResponse afterMarker = s3.putObject(request -> request.bucket(versioned).key("k").ifNoneMatch("*"),
            RequestBody.fromString("3"));
        assertThat(afterMarker.versionId()).hasSize(32);
    }

    @Test
    void concurrentCreatesWithIfNoneMatchHaveOneWinner() throws Exception {
        String key = "write/race";
        int writers = 8;
        // All through one node: a leaderless cluster checks a condition against its coordinator's
        // quorum read, atomically only with the writes that coordinator makes, so two creates through
        // different nodes can both succeed (docs/cluster.md). On one coordinator it is exact.
        S3Client oneNode = s3OnOneNode();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<CompletableFuture<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String body = "writer " + i;
                results.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        oneNode.putObject(request -> request.bucket(bucket).key(key).ifNoneMatch("*"),
                            RequestBody.fromString(body));
                        return true;
                    } catch (S3Exception e) {
                        if (e.statusCode() == 412) {
                            return false;
                        }
                        throw new CompletionException(e);
                    }
                }, pool));
            }
            long winners = 0;
            for (CompletableFuture<Boolean> result : results) {
                if (result.get()) {
                    winners++;
                }
            }
            assertThat(winners).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void putIfMatchReplacesOnlyTheExpectedObject() {
        String key = "write/if-match";
        String first = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("one")).eTag();
        String second = s3.putObject(request -> request.bucket(bucket).key(key).ifMatch(first),
            RequestBody.fromString("two")).eTag();
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key(key).ifMatch(first),
            RequestBody.fromString("stale")), 412, "PreconditionFailed");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo("two");
        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).eTag()).isEqualTo(second);

        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("write/if-match-missing").ifMatch(first),
            RequestBody.fromString("nothing to replace")), 404, "NoSuchKey");
    }

    @Test
    void completeMultipartUploadConditions() {
        String key = "write/multipart";
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("existing"));
        String existingEtag = s3.headObject(request -> request.bucket(bucket).key(key)).eTag();

        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String partEtag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RequestBody.fromString("assembled")).eTag();
        CompletedPart part = CompletedPart.builder().partNumber(1).eTag(partEtag).build();

        assertS3Error(() -> s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .ifNoneMatch("*").multipartUpload(upload -> upload.parts(part))), 412, "PreconditionFailed");
        assertS3Error(() -> s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .ifMatch(OTHER_ETAG).multipartUpload(upload -> upload.parts(part))), 412, "PreconditionFailed");
        // The upload survives a failed condition and completes when it holds.
        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .ifMatch(existingEtag).multipartUpload(upload -> upload.parts(part)));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo("assembled");

        String fresh = "write/multipart-fresh";
        String freshUpload = s3.createMultipartUpload(request -> request.bucket(bucket).key(fresh)).uploadId();
        String freshEtag = s3.uploadPart(request -> request.bucket(bucket).key(fresh).uploadId(freshUpload)
            .partNumber(1), RequestBody.fromString("fresh")).eTag();
        CompletedPart freshPart = CompletedPart.builder().partNumber(1).eTag(freshEtag).build();
        assertS3Error(() -> s3.completeMultipartUpload(request -> request.bucket(bucket).key(fresh).uploadId(freshUpload)
            .ifMatch(existingEtag).multipartUpload(upload -> upload.parts(freshPart))), 404, "NoSuchKey");
        s3.completeMultipartUpload(request -> request.bucket(bucket).key(fresh).uploadId(freshUpload).ifNoneMatch("*")
            .multipartUpload(upload -> upload.parts(freshPart)));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(fresh)).asUtf8String()).isEqualTo("fresh");
    }
}
