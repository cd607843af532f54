package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RandomContent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.DeletedObject;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;

/**
 * Object versioning through the SDK: version ids on PUT, COPY and CompleteMultipartUpload; GET, HEAD
 * and DELETE by {@code versionId}; delete markers and their 404 and 405 answers; ListObjectVersions
 * with pagination, prefix and delimiter; the {@code null} version of suspended and never-versioned
 * buckets; DeleteObjects with versions; copies from a version.
 */
class VersioningIT extends AbstractS3IT {

    private String bucket;

    @BeforeAll
    void createVersionedBucket() {
        bucket = createBucket("versioning");
        setVersioning(bucket, BucketVersioningStatus.ENABLED);
    }

    @Test
    void everyPutMakesAVersionThatCanBeReadBack() {
        String key = "three-versions";
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            String body = "version " + i;
            PutObjectResponse put = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString(body));
            assertThat(put.versionId()).hasSize(32).matches("[A-Za-z0-9_-]+").isNotEqualTo("null");
            ids.add(put.versionId());
        }
        assertThat(new HashSet<>(ids)).hasSize(3);

        for (int i = 0; i < 3; i++) {
            String versionId = ids.get(i);
            ResponseBytes<GetObjectResponse> get = s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)
                .versionId(versionId));
            assertThat(get.asUtf8String()).isEqualTo("version " + (i + 1));
            assertThat(get.response().versionId()).isEqualTo(versionId);
            HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key).versionId(versionId));
            assertThat(head.versionId()).isEqualTo(versionId);
            assertThat(head.contentLength()).isEqualTo(("version " + (i + 1)).length());
        }
        ResponseBytes<GetObjectResponse> current = s3.getObjectAsBytes(request -> request.bucket(bucket).key(key));
        assertThat(current.asUtf8String()).isEqualTo("version 3");
        assertThat(current.response().versionId()).isEqualTo(ids.get(2));

        ListObjectVersionsResponse listed = s3.listObjectVersions(request -> request.bucket(bucket).prefix(key));
        assertThat(listed.versions()).extracting(ObjectVersion::versionId)
            .containsExactly(ids.get(2), ids.get(1), ids.get(0));
        assertThat(listed.versions()).extracting(ObjectVersion::isLatest).containsExactly(true, false, false);
        assertThat(listed.versions()).extracting(ObjectVersion::size).containsExactly(9L, 9L, 9L);
        assertThat(listed.versions().getFirst().owner().id()).isNotBlank();
        assertThat(listed.versions().getFirst().eTag()).isEqualTo(current.response().eTag());
    }

    @Test
    void listObjectVersionsPaginatesWithKeyAndVersionIdMarkers() {
        String prefix = "paged/";
        List<String> expected = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ids.addFirst(s3.putObject(request -> request.bucket(bucket).key(prefix + name),
                    RequestBody.fromString(name + i)).versionId());
            }
            ids.forEach(id -> expected.add(prefix + name + "@" + id));
        }

        List<String> seen = new ArrayList<>();
        String keyMarker = null;
        String versionIdMarker = null;
        int pages = 0;
        while (true) {
            String key = keyMarker;
            String version = versionIdMarker;
            ListObjectVersionsResponse page = s3.listObjectVersions(request -> request.bucket(bucket).prefix(prefix)
                .maxKeys(2).keyMarker(key).versionIdMarker(version));
            pages++;
            assertThat(page.maxKeys()).isEqualTo(2);
            assertThat(page.versions().size() + page.deleteMarkers().size()).isLessThanOrEqualTo(2);
            page.versions().forEach(entry -> seen.add(entry.key() + "@" + entry.versionId()));
            if (!page.isTruncated()) {
                assertThat(page.nextKeyMarker()).isNull();
                break;
            }
            assertThat(page.nextKeyMarker()).isEqualTo(page.versions().getLast().key());
            assertThat(page.nextVersionIdMarker()).isEqualTo(page.versions().getLast().versionId());
            keyMarker = page.nextKeyMarker();
            versionIdMarker = page.nextVersionIdMarker();
        }
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(pages).isEqualTo(5);

        // The SDK's paginator walks the same pages.
        List<String> paginated = new ArrayList<>();
        s3.listObjectVersionsPaginator(request -> request.bucket(bucket).prefix(prefix).maxKeys(4)).versions()
            .forEach(entry -> paginated.add(entry.key() + "@" + entry.versionId()));
        assertThat(paginated).containsExactlyElementsOf(expected);

        // A key marker alone starts after every version of that key.
        ListObjectVersionsResponse afterB = s3.listObjectVersions(request -> request.bucket(bucket).prefix(prefix)
            .keyMarker(prefix + "b"));
        assertThat(afterB.keyMarker()).isEqualTo(prefix + "b");
        assertThat(afterB.versions()).extracting(ObjectVersion::key).containsOnly(prefix + "c").hasSize(3);
    }

    @Test
    void listObjectVersionsRollsUpCommonPrefixes() {
        String prefix = "tree/";
        s3.putObject(request -> request.bucket(bucket).key(prefix + "dir/one"), RequestBody.fromString("1"));
        s3.putObject(request -> request.bucket(bucket).key(prefix + "dir/two"), RequestBody.fromString("2"));
        s3.putObject(request -> request.bucket(bucket).key(prefix + "other/three"), RequestBody.fromString("3"));
        s3.putObject(request -> request.bucket(bucket).key(prefix + "top"), RequestBody.fromString("4"));
        s3.putObject(request -> request.bucket(bucket).key(prefix + "top"), RequestBody.fromString("5"));
        s3.deleteObject(request -> request.bucket(bucket).key(prefix + "zz-deleted"));

        ListObjectVersionsResponse listed = s3.listObjectVersions(request -> request.bucket(bucket).prefix(prefix)
            .delimiter("/"));
        assertThat(listed.delimiter()).isEqualTo("/");
        assertThat(listed.commonPrefixes()).extracting(CommonPrefix::prefix)
            .containsExactly(prefix + "dir/", prefix + "other/");
        assertThat(listed.versions()).extracting(ObjectVersion::key).containsExactly(prefix + "top", prefix + "top");
        assertThat(listed.deleteMarkers()).extracting(DeleteMarkerEntry::key).containsExactly(prefix + "zz-deleted");

        // Common prefixes count toward max-keys and can be a key marker.
        ListObjectVersionsResponse first = s3.listObjectVersions(request -> request.bucket(bucket).prefix(prefix)
            .delimiter("/").maxKeys(1));
        assertThat(first.isTruncated()).isTrue();
        assertThat(first.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly(prefix + "dir/");
        assertThat(first.nextKeyMarker()).isEqualTo(prefix + "dir/");
        assertThat(first.nextVersionIdMarker()).isNull();
        ListObjectVersionsResponse second = s3.listObjectVersions(request -> request.bucket(bucket).prefix(prefix)
            .delimiter("/").maxKeys(1).keyMarker(first.nextKeyMarker()));
        assertThat(second.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly(prefix + "other/");

        ListObjectVersionsResponse encoded = s3.listObjectVersions(request -> request.bucket(bucket)
            .prefix(prefix + "dir/").encodingType("url"));
        assertThat(encoded.versions()).extracting(ObjectVersion::key)
            .containsExactly(prefix + "dir/one", prefix + "dir/two");
    }

    @Test
    void deleteWithoutVersionIdAddsADeleteMarker() {
        String key = "marked";
        String v1 = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("kept")).versionId();

        DeleteObjectResponse deleted = s3.deleteObject(request -> request.bucket(bucket).key(key));
        assertThat(deleted.deleteMarker()).isTrue();
        String markerId = deleted.versionId();
        assertThat(markerId).hasSize(32).isNotEqualTo(v1);

        S3Exception get = assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)),
            404, "NoSuchKey");
        assertThat(header(get, "x-amz-delete-marker")).isEqualTo("true");
        assertThat(header(get, "x-amz-version-id")).isEqualTo(markerId);
        S3Exception head = assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        assertThat(header(head, "x-amz-delete-marker")).isEqualTo("true");
        assertThat(header(head, "x-amz-version-id")).isEqualTo(markerId);

        S3Exception byId = assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)
            .versionId(markerId)), 405, "MethodNotAllowed");
        assertThat(header(byId, "x-amz-delete-marker")).isEqualTo("true");
        assertThat(header(byId, "allow")).isEqualTo("DELETE");
        assertThat(header(byId, "last-modified")).isNotBlank();
        S3Exception headById = assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)
            .versionId(markerId)), 405);
        assertThat(header(headById, "x-amz-delete-marker")).isEqualTo("true");

        // The older version is still there, and the key has left the listing of current objects.
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key).versionId(v1)).asUtf8String())
            .isEqualTo("kept");
        assertThat(s3.listObjectsV2(request -> request.bucket(bucket).prefix(key)).contents()).isEmpty();
        ListObjectVersionsResponse listed = s3.listObjectVersions(request -> request.bucket(bucket).prefix(key));
        assertThat(listed.deleteMarkers()).singleElement().satisfies(marker -> {
            assertThat(marker.versionId()).isEqualTo(markerId);
            assertThat(marker.isLatest()).isTrue();
        });
        assertThat(listed.versions()).singleElement().satisfies(version -> assertThat(version.isLatest()).isFalse());

        // Deleting the marker itself brings the object back.
        DeleteObjectResponse unmarked = s3.deleteObject(request -> request.bucket(bucket).key(key).versionId(markerId));
        assertThat(unmarked.deleteMarker()).isTrue();
        assertThat(unmarked.versionId()).isEqualTo(markerId);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo("kept");
    }

    @Test
    void deletingSpecificVersionsPromotesThePreviousOne() {
        String key = "promoted";
        String v1 = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("one")).versionId();
        String v2 = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("two")).versionId();
        String v3 = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("three")).versionId();

        DeleteObjectResponse current = s3.deleteObject(request -> request.bucket(bucket).key(key).versionId(v3));
        assertThat(current.versionId()).isEqualTo(v3);
        assertThat(current.deleteMarker()).isNull();
        ResponseBytes<GetObjectResponse> promoted = s3.getObjectAsBytes(request -> request.bucket(bucket).key(key));
        assertThat(promoted.asUtf8String()).isEqualTo("two");
        assertThat(promoted.response().versionId()).isEqualTo(v2);

        s3.deleteObject(request -> request.bucket(bucket).key(key).versionId(v1));
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key).versionId(v1)),
            404, "NoSuchVersion");
        assertThat(s3.listObjectVersions(request -> request.bucket(bucket).prefix(key)).versions())
            .extracting(ObjectVersion::versionId).containsExactly(v2);

        // A version that is gone is no error to delete again.
        DeleteObjectResponse again = s3.deleteObject(request -> request.bucket(bucket).key(key).versionId(v1));
        assertThat(again.sdkHttpResponse().statusCode()).isEqualTo(204);

        s3.deleteObject(request -> request.bucket(bucket).key(key).versionId(v2));
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)), 404, "NoSuchKey");
        assertThat(s3.listObjectVersions(request -> request.bucket(bucket).prefix(key)).versions()).isEmpty();
    }

    @Test
    void versionIdsThatAreMalformedOrUnknownAreRefused() {
        String key = "version-errors";
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("x"));
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key).versionId("not-a-version")),
            400, "InvalidArgument");
        assertS3Error(() -> s3.deleteObject(request -> request.bucket(bucket).key(key).versionId("not-a-version")),
            400, "InvalidArgument");
        String unknown = "0123456789abcdefghijABCDEFGHIJ_-";
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key).versionId(unknown)),
            404, "NoSuchVersion");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key).versionId(unknown)), 404);
        assertS3Error(() -> s3.listObjectVersions(request -> request.bucket(bucket).versionIdMarker(unknown)),
            400, "InvalidArgument");
        assertS3Error(() -> s3.listObjectVersions(request -> request.bucket(newBucketName("missing"))),
            404, "NoSuchBucket");
    }

    @Test
    void suspendedBucketWritesTheNullVersion() {
        String suspended = createBucket("suspended");
        setVersioning(suspended, BucketVersioningStatus.ENABLED);
        String key = "object";
        String v1 = s3.putObject(request -> request.bucket(suspended).key(key), RequestBody.fromString("versioned"))
            .versionId();
        setVersioning(suspended, BucketVersioningStatus.SUSPENDED);

        PutObjectResponse first = s3.putObject(request -> request.bucket(suspended).key(key), RequestBody.fromString("n1"));
        assertThat(first.versionId()).isEqualTo("null");
        PutObjectResponse second = s3.putObject(request -> request.bucket(suspended).key(key), RequestBody.fromString("n2"));
        assertThat(second.versionId()).isEqualTo("null");
        GetObjectResponse current = s3.getObjectAsBytes(request -> request.bucket(suspended).key(key)).response();
        assertThat(current.versionId()).isEqualTo("null");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(suspended).key(key).versionId("null")).asUtf8String())
            .isEqualTo("n2");
        ListObjectVersionsResponse listed = s3.listObjectVersions(request -> request.bucket(suspended));
        assertThat(listed.versions()).extracting(ObjectVersion::versionId).containsExactly("null", v1);

        // A delete puts the null delete marker in place of the null version.
        DeleteObjectResponse deleted = s3.deleteObject(request -> request.bucket(suspended).key(key));
        assertThat(deleted.deleteMarker()).isTrue();
        assertThat(deleted.versionId()).isEqualTo("null");
        ListObjectVersionsResponse afterDelete = s3.listObjectVersions(request -> request.bucket(suspended));
        assertThat(afterDelete.versions()).extracting(ObjectVersion::versionId).containsExactly(v1);
        assertThat(afterDelete.deleteMarkers()).extracting(DeleteMarkerEntry::versionId).containsExactly("null");
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(suspended).key(key)), 404, "NoSuchKey");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(suspended).key(key).versionId(v1)).asUtf8String())
            .isEqualTo("versioned");
    }

    @Test
    void neverVersionedBucketHasOnlyTheNullVersion() {
        String plain = createBucket("unversioned");
        PutObjectResponse put = s3.putObject(request -> request.bucket(plain).key("k"), RequestBody.fromString("plain"));
        assertThat(put.versionId()).isNull();
        assertThat(s3.getObjectAsBytes(request -> request.bucket(plain).key("k")).response().versionId()).isNull();
        assertThat(s3.getObjectAsBytes(request -> request.bucket(plain).key("k").versionId("null")).asUtf8String())
            .isEqualTo("plain");
        ListObjectVersionsResponse listed = s3.listObjectVersions(request -> request.bucket(plain));
        assertThat(listed.versions()).singleElement().satisfies(version -> {
            assertThat(version.versionId()).isEqualTo("null");
            assertThat(version.isLatest()).isTrue();
        });
        DeleteObjectResponse deleted = s3.deleteObject(request -> request.bucket(plain).key("k"));
        assertThat(deleted.deleteMarker()).isNull();
        assertThat(deleted.versionId()).isNull();
        assertThat(s3.listObjectVersions(request -> request.bucket(plain)).versions()).isEmpty();
    }

    @Test
    void deleteObjectsRemovesVersionsAndAddsMarkers() {
        String prefix = "batch/";
        String a1 = s3.putObject(request -> request.bucket(bucket).key(prefix + "a"), RequestBody.fromString("a1")).versionId();
        String a2 = s3.putObject(request -> request.bucket(bucket).key(prefix + "a"), RequestBody.fromString("a2")).versionId();
        s3.putObject(request -> request.bucket(bucket).key(prefix + "b"), RequestBody.fromString("b1"));
        String cMarker = s3.deleteObject(request -> request.bucket(bucket).key(prefix + "c")).versionId();

        DeleteObjectsResponse response = s3.deleteObjects(request -> request.bucket(bucket).delete(delete -> delete.objects(
            ObjectIdentifier.builder().key(prefix + "a").versionId(a1).build(),
            ObjectIdentifier.builder().key(prefix + "b").build(),
            ObjectIdentifier.builder().key(prefix + "c").versionId(cMarker).build(),
            ObjectIdentifier.builder().key(prefix + "d").versionId("malformed").build())));

        assertThat(response.deleted()).hasSize(3);
        DeletedObject a = deletedEntry(response, prefix + "a");
        assertThat(a.versionId()).isEqualTo(a1);
        assertThat(a.deleteMarker()).isNull();
        DeletedObject b = deletedEntry(response, prefix + "b");
        assertThat(b.versionId()).isNull();
        assertThat(b.deleteMarker()).isTrue();
        assertThat(b.deleteMarkerVersionId()).hasSize(32);
        DeletedObject c = deletedEntry(response, prefix + "c");
        assertThat(c.versionId()).isEqualTo(cMarker);
        assertThat(c.deleteMarker()).isTrue();
        assertThat(c.deleteMarkerVersionId()).isEqualTo(cMarker);
        assertThat(response.errors()).singleElement().satisfies(error -> {
            assertThat(error.key()).isEqualTo(prefix + "d");
            assertThat(error.versionId()).isEqualTo("malformed");
            assertThat(error.code()).isEqualTo("NoSuchVersion");
        });

        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(prefix + "a")).response().versionId())
            .isEqualTo(a2);
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(prefix + "b")), 404, "NoSuchKey");
        assertThat(s3.listObjectVersions(request -> request.bucket(bucket).prefix(prefix + "c")).deleteMarkers()).isEmpty();
        assertThat(s3.listObjectsV2(request -> request.bucket(bucket).prefix(prefix)).contents())
            .extracting(S3Object::key).containsExactly(prefix + "a");
    }

    @Test
    void copyFromAVersion() {
        String key = "copy-source";
        String old = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("old contents"))
            .versionId();
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("new contents"));

        CopyObjectResponse copy = s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(key)
            .sourceVersionId(old).destinationBucket(bucket).destinationKey("copy-target"));
        assertThat(copy.copySourceVersionId()).isEqualTo(old);
        assertThat(copy.versionId()).hasSize(32).isNotEqualTo(old);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("copy-target")).asUtf8String())
            .isEqualTo("old contents");

        // Copying an old version onto its own key restores it as the newest version.
        CopyObjectResponse restore = s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(key)
            .sourceVersionId(old).destinationBucket(bucket).destinationKey(key));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asUtf8String()).isEqualTo("old contents");
        assertThat(s3.listObjectVersions(request -> request.bucket(bucket).prefix(key)).versions())
            .extracting(ObjectVersion::versionId).first().isEqualTo(restore.versionId());

        // Without a version id the copy reads the current version, and says which it was.
        CopyObjectResponse currentCopy = s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(key)
            .destinationBucket(bucket).destinationKey("copy-current"));
        assertThat(currentCopy.copySourceVersionId()).isEqualTo(restore.versionId());

        String marker = s3.deleteObject(request -> request.bucket(bucket).key("copy-deleted")).versionId();
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy-deleted")
            .destinationBucket(bucket).destinationKey("nowhere")), 404, "NoSuchKey");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey("copy-deleted")
            .sourceVersionId(marker).destinationBucket(bucket).destinationKey("nowhere")), 400, "InvalidRequest");
        assertS3Error(() -> s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(key)
            .sourceVersionId("0123456789abcdefghijABCDEFGHIJ_-").destinationBucket(bucket).destinationKey("nowhere")),
            404, "NoSuchVersion");
    }

    @Test
    void multipartUploadsGetVersionsAndPartsOfVersionsCanBeRead() {
        String key = "multipart";
        RandomContent first = RandomContent.of(901, 5L * MIB);
        String old = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("single")).versionId();
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String etag1 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            first.requestBody()).eTag();
        UploadPartCopyResponse copied = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey(key)
            .sourceVersionId(old).destinationBucket(bucket).destinationKey(key).uploadId(uploadId).partNumber(2));
        assertThat(copied.copySourceVersionId()).isEqualTo(old);
        CompleteMultipartUploadResponse complete = s3.completeMultipartUpload(request -> request.bucket(bucket).key(key)
            .uploadId(uploadId).multipartUpload(upload -> upload.parts(
                CompletedPart.builder().partNumber(1).eTag(etag1).build(),
                CompletedPart.builder().partNumber(2).eTag(copied.copyPartResult().eTag()).build())));
        assertThat(complete.versionId()).hasSize(32).isNotEqualTo(old);

        ResponseBytes<GetObjectResponse> part2 = s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)
            .versionId(complete.versionId()).partNumber(2));
        assertThat(part2.asUtf8String()).isEqualTo("single");
        assertThat(part2.response().partsCount()).isEqualTo(2);
        assertThat(part2.response().versionId()).isEqualTo(complete.versionId());
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key).versionId(old).partNumber(1))
            .asUtf8String()).isEqualTo("single");
    }

    private void setVersioning(String name, BucketVersioningStatus status) {
        s3.putBucketVersioning(request -> request.bucket(name).versioningConfiguration(config -> config.status(status)));
    }

    private static DeletedObject deletedEntry(DeleteObjectsResponse response, String key) {
        return response.deleted().stream().filter(entry -> entry.key().equals(key)).findFirst().orElseThrow();
    }

    static String header(S3Exception error, String name) {
        return error.awsErrorDetails().sdkHttpResponse().firstMatchingHeader(name).orElse(null);
    }
}
