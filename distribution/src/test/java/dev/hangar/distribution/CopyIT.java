package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;

/** CopyObject: inline and chunked sources, across buckets, metadata directives COPY and REPLACE, errors. */
class CopyIT extends AbstractS3IT {

    private final RandomContent small = RandomContent.of(401, 1000);
    private final RandomContent large = RandomContent.of(402, 3L * MIB);
    private String bucket;

    @BeforeAll
    void uploadSources() {
        bucket = createBucket("copy");
        s3.putObject(request -> request.bucket(bucket).key("source/small")
            .contentType("text/csv")
            .cacheControl("no-store")
            .metadata(Map.of("origin", "small-source", "shade", "red")), small.requestBody());
        s3.putObject(request -> request.bucket(bucket).key("source/large")
            .contentType("application/x-large")
            .metadata(Map.of("origin", "large-source")), large.requestBody());
    }

    @Test
    void copySmallObjectKeepsContentAndMetadata() {
        CopyObjectResponse copy = s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source/small")
            .destinationBucket(bucket).destinationKey("copies/small"));
        assertThat(copy.copyObjectResult().eTag()).isEqualTo(small.etag());
        assertThat(copy.copyObjectResult().lastModified()).isBetween(Instant.now().minusSeconds(600), Instant.now().plusSeconds(60));

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key("copies/small"));
        assertThat(head.contentLength()).isEqualTo(small.size());
        assertThat(head.eTag()).isEqualTo(small.etag());
        assertThat(head.contentType()).isEqualTo("text/csv");
        assertThat(head.cacheControl()).isEqualTo("no-store");
        assertThat(head.metadata()).isEqualTo(Map.of("origin", "small-source", "shade", "red"));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("copies/small")).asByteArray()).isEqualTo(small.bytes());
    }

    @Test
    void copyLargeObject() {
        CopyObjectResponse copy = s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source/large")
            .destinationBucket(bucket).destinationKey("copies/large"));
        assertThat(copy.copyObjectResult().eTag()).isEqualTo(large.etag());

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key("copies/large"));
        assertThat(head.contentLength()).isEqualTo(large.size());
        assertThat(head.contentType()).isEqualTo("application/x-large");
        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key("copies/large")))).isEqualTo(large.sha256Hex());

        // The copy is independent of its source.
        s3.putObject(request -> request.bucket(bucket).key("copies/large-source"), large.requestBody());
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copies/large-source")
            .destinationBucket(bucket).destinationKey("copies/large-independent"));
        s3.deleteObject(request -> request.bucket(bucket).key("copies/large-source"));
        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key("copies/large-independent"))))
            .isEqualTo(large.sha256Hex());
    }

    @Test
    void copyAcrossBucketsAndOntoAnExistingKey() {
        String other = createBucket("copy-target");
        s3.putObject(request -> request.bucket(other).key("target"), RequestBody.fromString("to be replaced"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source/large")
            .destinationBucket(other).destinationKey("target"));
        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(other).key("target")))).isEqualTo(large.sha256Hex());
    }

    @Test
    void copyKeysThatNeedEncoding() {
        String sourceKey = "source/ünï cödé+plus%percent?";
        String targetKey = "copies/ключ with space#hash";
        s3.putObject(request -> request.bucket(bucket).key(sourceKey), RequestBody.fromString("encoded"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(sourceKey).destinationBucket(bucket).destinationKey(targetKey));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(targetKey)).asUtf8String()).isEqualTo("encoded");
    }

    @Test
    void metadataDirectiveReplace() {
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source/small")
            .destinationBucket(bucket).destinationKey("copies/replaced")
            .metadataDirective(MetadataDirective.REPLACE)
            .contentType("application/json")
            .metadata(Map.of("fresh", "yes")));

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key("copies/replaced"));
        assertThat(head.metadata()).isEqualTo(Map.of("fresh", "yes"));
        assertThat(head.contentType()).isEqualTo("application/json");
        assertThat(head.cacheControl()).isNull();
        assertThat(head.eTag()).isEqualTo(small.etag());
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("copies/replaced")).asByteArray()).isEqualTo(small.bytes());
    }

    @Test
    void metadataDirectiveCopyIgnoresNewMetadata() {
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source/small")
            .destinationBucket(bucket).destinationKey("copies/copied")
            .metadataDirective(MetadataDirective.COPY)
            .metadata(Map.of("ignored", "yes")));

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key("copies/copied"));
        assertThat(head.metadata()).isEqualTo(Map.of("origin", "small-source", "shade", "red"));
        assertThat(head.contentType()).isEqualTo("text/csv");
    }

    @Test
    void copyOntoItselfWithReplaceUpdatesMetadata() {
        s3.putObject(request -> request.bucket(bucket).key("self").metadata(Map.of("version", "1")), small.requestBody());
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("self").destinationBucket(bucket).destinationKey("self")
            .metadataDirective(MetadataDirective.REPLACE)
            .metadata(Map.of("version", "2")));

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key("self"));
        assertThat(head.metadata()).isEqualTo(Map.of("version", "2"));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("self")).asByteArray()).isEqualTo(small.bytes());
    }

    @Test
    void copyOntoItselfWithoutChangesIsInvalid() {
        s3.putObject(request -> request.bucket(bucket).key("self-unchanged"), small.requestBody());
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("self-unchanged")
            .destinationBucket(bucket).destinationKey("self-unchanged")), 400, "InvalidRequest");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("self-unchanged")).asByteArray()).isEqualTo(small.bytes());
    }

    @Test
    void missingSource() {
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source/missing")
            .destinationBucket(bucket).destinationKey("copies/never")), 404, "NoSuchKey");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("copies/never")), 404);

        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(newBucketName("nobucket")).sourceKey("key")
            .destinationBucket(bucket).destinationKey("copies/never")), 404, "NoSuchBucket");
    }

    @Test
    void missingDestinationBucket() {
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("source/small")
            .destinationBucket(newBucketName("nobucket")).destinationKey("key")), 404, "NoSuchBucket");
    }
}
