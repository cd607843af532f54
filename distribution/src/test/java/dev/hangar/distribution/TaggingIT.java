package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteObjectTaggingResponse;
import software.amazon.awssdk.services.s3.model.GetObjectTaggingResponse;
import software.amazon.awssdk.services.s3.model.PutObjectTaggingResponse;
import software.amazon.awssdk.services.s3.model.Tag;
import software.amazon.awssdk.services.s3.model.TaggingDirective;

/**
 * Object tagging: the {@code x-amz-tagging} header of PutObject, CreateMultipartUpload and CopyObject
 * (with the tagging directive), Put/Get/DeleteObjectTagging of current and older versions, the
 * {@code x-amz-tagging-count} of GET and HEAD, and the limits S3 enforces.
 */
class TaggingIT extends AbstractS3IT {

    private String bucket;

    @BeforeAll
    void createTaggingBucket() {
        bucket = createBucket("tagging");
    }

    @Test
    void taggingHeaderOnPut() {
        s3.putObject(request -> request.bucket(bucket).key("header").tagging("project=hangar&team=storage%20core&empty="),
            RequestBody.fromString("tagged"));
        assertThat(tags(s3.getObjectTagging(request -> request.bucket(bucket).key("header"))))
            .isEqualTo(Map.of("project", "hangar", "team", "storage core", "empty", ""));
        assertThat(s3.headObject(request -> request.bucket(bucket).key("header")).tagCount()).isEqualTo(3);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("header")).response().tagCount())
            .isEqualTo(3);

        s3.putObject(request -> request.bucket(bucket).key("untagged"), RequestBody.fromString("plain"));
        assertThat(s3.headObject(request -> request.bucket(bucket).key("untagged")).tagCount()).isNull();
        assertThat(s3.getObjectTagging(request -> request.bucket(bucket).key("untagged")).tagSet()).isEmpty();
    }

    @Test
    void putGetAndDeleteTagging() {
        String key = "sub-resource";
        s3.putObject(request -> request.bucket(bucket).key(key).tagging("old=1"), RequestBody.fromString("x"));
        PutObjectTaggingResponse put = s3.putObjectTagging(request -> request.bucket(bucket).key(key)
            .tagging(tagging -> tagging.tagSet(tag("color", "blue"), tag("size", "L"))));
        assertThat(put.sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(put.versionId()).isNull();
        assertThat(tags(s3.getObjectTagging(request -> request.bucket(bucket).key(key))))
            .isEqualTo(Map.of("color", "blue", "size", "L"));
        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).tagCount()).isEqualTo(2);
        // The object itself is unchanged.
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo("x");

        DeleteObjectTaggingResponse deleted = s3.deleteObjectTagging(request -> request.bucket(bucket).key(key));
        assertThat(deleted.sdkHttpResponse().statusCode()).isEqualTo(204);
        assertThat(s3.getObjectTagging(request -> request.bucket(bucket).key(key)).tagSet()).isEmpty();
        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).tagCount()).isNull();

        // An empty tag set removes the tags too.
        s3.putObjectTagging(request -> request.bucket(bucket).key(key).tagging(tagging -> tagging.tagSet(tag("a", "b"))));
        s3.putObjectTagging(request -> request.bucket(bucket).key(key).tagging(tagging -> tagging.tagSet(List.of())));
        assertThat(s3.getObjectTagging(request -> request.bucket(bucket).key(key)).tagSet()).isEmpty();
    }

    @Test
    void taggingOfVersions() {
        String versioned = createBucket("tagging-versioned");
        s3.putBucketVersioning(request -> request.bucket(versioned)
            .versioningConfiguration(config -> config.status(BucketVersioningStatus.ENABLED)));
        String v1 = s3.putObject(request -> request.bucket(versioned).key("k").tagging("version=1"),
            RequestBody.fromString("1")).versionId();
        String v2 = s3.putObject(request -> request.bucket(versioned).key("k").tagging("version=2"),
            RequestBody.fromString("2")).versionId();

        GetObjectTaggingResponse current = s3.getObjectTagging(request -> request.bucket(versioned).key("k"));
        assertThat(current.versionId()).isEqualTo(v2);
        assertThat(tags(current)).isEqualTo(Map.of("version", "2"));
        GetObjectTaggingResponse old = s3.getObjectTagging(request -> request.bucket(versioned).key("k").versionId(v1));
        assertThat(old.versionId()).isEqualTo(v1);
        assertThat(tags(old)).isEqualTo(Map.of("version", "1"));

        PutObjectTaggingResponse put = s3.putObjectTagging(request -> request.bucket(versioned).key("k").versionId(v1)
            .tagging(tagging -> tagging.tagSet(tag("changed", "yes"))));
        assertThat(put.versionId()).isEqualTo(v1);
        assertThat(tags(s3.getObjectTagging(request -> request.bucket(versioned).key("k").versionId(v1))))
            .isEqualTo(Map.of("changed", "yes"));
        assertThat(tags(s3.getObjectTagging(request -> request.bucket(versioned).key("k"))))
            .isEqualTo(Map.of("version", "2"));
        assertThat(s3.headObject(request -> request.bucket(versioned).key("k").versionId(v1)).tagCount()).isEqualTo(1);

        DeleteObjectTaggingResponse deleted = s3.deleteObjectTagging(request -> request.bucket(versioned).key("k")
            .versionId(v1));
        assertThat(deleted.versionId()).isEqualTo(v1);
        assertThat(s3.getObjectTagging(request -> request.bucket(versioned).key("k").versionId(v1)).tagSet()).isEmpty();

        String marker = s3.deleteObject(request -> request.bucket(versioned).key("k")).versionId();
        assertS3Error(() -> s3.getObjectTagging(request -> request.bucket(versioned).key("k")), 404, "NoSuchKey");
        assertS3Error(() -> s3.getObjectTagging(request -> request.bucket(versioned).key("k").versionId(marker)),
            405, "MethodNotAllowed");
        assertS3Error(() -> s3.getObjectTagging(request -> request.bucket(versioned).key("k")
            .versionId("0123456789abcdefghijABCDEFGHIJ_-")), 404, "NoSuchVersion");
    }

    @Test
    void tagLimitsAreEnforced() {
        String key = "limits";
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("x"));
        List<Tag> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(tag("k" + i, "v"));
        }
        assertS3Error(() -> s3.putObjectTagging(request -> request.bucket(bucket).key(key)
            .tagging(tagging -> tagging.tagSet(eleven))), 400, "InvalidTag");
        assertS3Error(() -> s3.putObjectTagging(request -> request.bucket(bucket).key(key)
            .tagging(tagging -> tagging.tagSet(tag("k".repeat(129), "v")))), 400, "InvalidTag");
        assertS3Error(() -> s3.putObjectTagging(request -> request.bucket(bucket).key(key)
            .tagging(tagging -> tagging.tagSet(tag("k", "v".repeat(257))))), 400, "InvalidTag");
        assertS3Error(() -> s3.putObjectTagging(request -> request.bucket(bucket).key(key)
            .tagging(tagging -> tagging.tagSet(tag("same", "1"), tag("same", "2")))), 400, "InvalidTag");
        assertS3Error(() -> s3.putObjectTagging(request -> request.bucket(bucket).key(key)
            .tagging(tagging -> tagging.tagSet(tag("bad<key>", "v")))), 400, "InvalidTag");
        // The ten-tag maximum and the longest key and value are fine.
        List<Tag> ten = new ArrayList<>(eleven.subList(0, 9));
        ten.add(tag("k".repeat(128), "v".repeat(256)));
        s3.putObjectTagging(request -> request.bucket(bucket).key(key).tagging(tagging -> tagging.tagSet(ten)));
        assertThat(s3.getObjectTagging(request -> request.bucket(bucket).key(key)).tagSet()).hasSize(10);

        StringBuilder header = new StringBuilder();
        for (int i = 0; i < 11; i++) {
            header.append(i == 0 ? "" : "&").append("k").append(i).append("=v");
        }
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("limits-header")
            .tagging(header.toString()), RequestBody.fromString("x")), 400, "InvalidTag");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("limits-header").tagging("a=1&a=2"),
            RequestBody.fromString("x")), 400, "InvalidArgument");
        assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key("limits-header")
            .tagging("k=" + "v".repeat(257)), RequestBody.fromString("x")), 400, "InvalidTag");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("limits-header")), 404);

        assertS3Error(() -> s3.getObjectTagging(request -> request.bucket(bucket).key("missing")), 404, "NoSuchKey");
        assertS3Error(() -> s3.putObjectTagging(request -> request.bucket(bucket).key("missing")
            .tagging(tagging -> tagging.tagSet(tag("a", "b")))), 404, "NoSuchKey");
    }

    @Test
    void copyTaggingDirective() {
        s3.putObject(request -> request.bucket(bucket).key("copy/source").tagging("origin=source&keep=me"),
            RequestBody.fromString("source"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy/source").destinationBucket(bucket)
            .destinationKey("copy/default"));
        assertThat(tags(s3.getObjectTagging(request -> request.bucket(bucket).key("copy/default"))))
            .isEqualTo(Map.of("origin", "source", "keep", "me"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy/source").destinationBucket(bucket)
            .destinationKey("copy/copied").taggingDirective(TaggingDirective.COPY).tagging("ignored=yes"));
        assertThat(tags(s3.getObjectTagging(request -> request.bucket(bucket).key("copy/copied"))))
            .isEqualTo(Map.of("origin", "source", "keep", "me"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy/source").destinationBucket(bucket)
            .destinationKey("copy/replaced").taggingDirective(TaggingDirective.REPLACE).tagging("origin=copy"));
        assertThat(tags(s3.getObjectTagging(request -> request.bucket(bucket).key("copy/replaced"))))
            .isEqualTo(Map.of("origin", "copy"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy/source").destinationBucket(bucket)
            .destinationKey("copy/cleared").taggingDirective(TaggingDirective.REPLACE));
        assertThat(s3.getObjectTagging(request -> request.bucket(bucket).key("copy/cleared")).tagSet()).isEmpty();
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy/source")
            .destinationBucket(bucket).destinationKey("copy/bad").taggingDirective("MERGE")), 400, "InvalidArgument");
    }

    @Test
    void taggingHeaderOnMultipartUpload() {
        String key = "multipart";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)
            .tagging("stage=uploaded").contentType("text/plain")).uploadId();
        String etag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RequestBody.fromString("parts")).eTag();
        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
        assertThat(tags(s3.getObjectTagging(request -> request.bucket(bucket).key(key))))
            .isEqualTo(Map.of("stage", "uploaded"));
        var head = s3.headObject(request -> request.bucket(bucket).key(key));
        assertThat(head.tagCount()).isEqualTo(1);
        assertThat(head.contentType()).isEqualTo("text/plain");
        assertThat(head.sdkHttpResponse().firstMatchingHeader("x-amz-tagging")).isEmpty();

        assertS3Error(() -> s3.createMultipartUpload(request -> request.bucket(bucket).key(key).tagging("a=1&a=2")),
            400, "InvalidArgument");
    }

    private static Tag tag(String key, String value) {
        return Tag.builder().key(key).value(value).build();
    }

    private static Map<String, String> tags(GetObjectTaggingResponse response) {
        Map<String, String> tags = new TreeMap<>();
        response.tagSet().forEach(tag -> tags.put(tag.key(), tag.value()));
        return tags;
    }
}
