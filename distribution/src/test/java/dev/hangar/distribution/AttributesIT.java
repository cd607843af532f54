package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.RawS3;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectAttributesResponse;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.ObjectPart;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * GetObjectAttributes: ETag, checksum, size, storage class and parts of single and multipart objects,
 * of the current version or another, the pagination of parts, and the errors S3 answers.
 */
class AttributesIT extends AbstractS3IT {

    private static final List<ObjectAttributes> ALL = List.of(ObjectAttributes.E_TAG, ObjectAttributes.CHECKSUM,
        ObjectAttributes.OBJECT_PARTS, ObjectAttributes.STORAGE_CLASS, ObjectAttributes.OBJECT_SIZE);

    private String bucket;

    @BeforeAll
    void createAttributesBucket() {
        bucket = createBucket("attributes");
        s3.putBucketVersioning(request -> request.bucket(bucket)
            .versioningConfiguration(config -> config.status(BucketVersioningStatus.ENABLED)));
    }

    @Test
    void singlePartObject() {
        PutObjectResponse put = s3.putObject(request -> request.bucket(bucket).key("single")
            .checksumAlgorithm(ChecksumAlgorithm.SHA256), RequestBody.fromString("attributes of one piece"));
        GetObjectAttributesResponse attributes = s3.getObjectAttributes(request -> request.bucket(bucket).key("single")
            .objectAttributes(ALL));
        assertThat(attributes.eTag()).isEqualTo(put.eTag().replace("\"", ""));
        assertThat(attributes.objectSize()).isEqualTo("attributes of one piece".length());
        assertThat(attributes.storageClass()).isEqualTo(StorageClass.STANDARD);
        assertThat(attributes.checksum().checksumSHA256()).isEqualTo(put.checksumSHA256());
        assertThat(attributes.checksum().checksumTypeAsString()).isEqualTo("FULL_OBJECT");
        assertThat(attributes.objectParts()).isNull();
        assertThat(attributes.versionId()).isEqualTo(put.versionId());
        assertThat(attributes.lastModified()).isBetween(Instant.now().minusSeconds(600), Instant.now().plusSeconds(60));

        // Only what was asked for.
        GetObjectAttributesResponse sizeOnly = s3.getObjectAttributes(request -> request.bucket(bucket).key("single")
            .objectAttributes(ObjectAttributes.OBJECT_SIZE));
        assertThat(sizeOnly.objectSize()).isEqualTo("attributes of one piece".length());
        assertThat(sizeOnly.eTag()).isNull();
        assertThat(sizeOnly.checksum()).isNull();
        assertThat(sizeOnly.storageClass()).isNull();
    }

    @Test
    void multipartObjectWithACompositeChecksumListsItsParts() {
        String key = "multipart/composite";
        List<RandomContent> parts = List.of(RandomContent.of(11, 5L * MIB), RandomContent.of(12, 5L * MIB),
            RandomContent.of(13, 1000));
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)
            .checksumAlgorithm(ChecksumAlgorithm.CRC32)).uploadId();
        List<CompletedPart> completed = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            int number = i + 1;
            var uploaded = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(number)
                .checksumAlgorithm(ChecksumAlgorithm.CRC32), parts.get(i).requestBody());
            completed.add(CompletedPart.builder().partNumber(number).eTag(uploaded.eTag())
                .checksumCRC32(uploaded.checksumCRC32()).build());
        }
        var complete = s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(completed)));

        GetObjectAttributesResponse attributes = s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
            .objectAttributes(ALL));
        assertThat(attributes.eTag()).isEqualTo(complete.eTag().replace("\"", ""));
        assertThat(attributes.objectSize()).isEqualTo(10L * MIB + 1000);
        assertThat(attributes.checksum().checksumCRC32()).isNotBlank();
        assertThat(attributes.checksum().checksumTypeAsString()).isEqualTo("COMPOSITE");
        assertThat(attributes.objectParts().totalPartsCount()).isEqualTo(3);
        assertThat(attributes.objectParts().parts()).extracting(ObjectPart::partNumber).containsExactly(1, 2, 3);
        assertThat(attributes.objectParts().parts()).extracting(ObjectPart::size)
            .containsExactly(5L * MIB, 5L * MIB, 1000L);
        assertThat(attributes.objectParts().isTruncated()).isFalse();

        GetObjectAttributesResponse firstPage = s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
            .objectAttributes(ObjectAttributes.OBJECT_PARTS).maxParts(2));
        assertThat(firstPage.objectParts().parts()).extracting(ObjectPart::partNumber).containsExactly(1, 2);
        assertThat(firstPage.objectParts().isTruncated()).isTrue();
        assertThat(firstPage.objectParts().maxParts()).isEqualTo(2);
        assertThat(firstPage.objectParts().nextPartNumberMarker()).isEqualTo(2);
        GetObjectAttributesResponse secondPage = s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
            .objectAttributes(ObjectAttributes.OBJECT_PARTS).maxParts(2)
            .partNumberMarker(firstPage.objectParts().nextPartNumberMarker()));
        assertThat(secondPage.objectParts().parts()).extracting(ObjectPart::partNumber).containsExactly(3);
        assertThat(secondPage.objectParts().partNumberMarker()).isEqualTo(2);
        assertThat(secondPage.objectParts().isTruncated()).isFalse();
    }

    @Test
    void multipartObjectWithoutAChecksumCountsItsParts() {
        String key = "multipart/plain";
        String uploadId = s3WhenRequired.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String etag1 = s3WhenRequired.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .partNumber(1), RandomContent.of(21, 5L * MIB).requestBody()).eTag();
        String etag2 = s3WhenRequired.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .partNumber(2), RequestBody.fromString("tail")).eTag();
        s3WhenRequired.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(CompletedPart.builder().partNumber(1).eTag(etag1).build(),
                CompletedPart.builder().partNumber(2).eTag(etag2).build())));
        GetObjectAttributesResponse attributes = s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
            .objectAttributes(ALL));
        assertThat(attributes.objectParts().totalPartsCount()).isEqualTo(2);
        assertThat(attributes.objectParts().parts()).isEmpty();
        assertThat(attributes.eTag()).endsWith("-2");
    }

    @Test
    void attributesOfAnotherVersionAndOfDeleteMarkers() {
        String key = "versions";
        String old = s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("old")).versionId();
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("newer"));
        GetObjectAttributesResponse attributes = s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
            .versionId(old).objectAttributes(ObjectAttributes.OBJECT_SIZE));
        assertThat(attributes.objectSize()).isEqualTo(3);
        assertThat(attributes.versionId()).isEqualTo(old);

        String marker = s3.deleteObject(request -> request.bucket(bucket).key(key)).versionId();
        S3Exception current = assertS3Error(() -> s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
            .objectAttributes(ObjectAttributes.OBJECT_SIZE)), 404, "NoSuchKey");
        assertThat(VersioningIT.header(current, "x-amz-delete-marker")).isEqualTo("true");
        S3Exception named = assertS3Error(() -> s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
            .versionId(marker).objectAttributes(ObjectAttributes.OBJECT_SIZE)), 405, "MethodNotAllowed");
        assertThat(VersioningIT.header(named, "last-modified")).isNotBlank();
        assertS3Error(() -> s3.getObjectAttributes(request -> request.bucket(bucket).key(key)
            .versionId("0123456789abcdefghijABCDEFGHIJ_-").objectAttributes(ObjectAttributes.OBJECT_SIZE)),
            404, "NoSuchVersion");
    }

    @Test
    void errors() {
        s3.putObject(request -> request.bucket(bucket).key("errors"), RequestBody.fromString("x"));
        assertS3Error(() -> s3.getObjectAttributes(request -> request.bucket(bucket).key("missing")
            .objectAttributes(ObjectAttributes.E_TAG)), 404, "NoSuchKey");
        assertS3Error(() -> s3.getObjectAttributes(request -> request.bucket(newBucketName("nowhere")).key("missing")
            .objectAttributes(ObjectAttributes.E_TAG)), 404, "NoSuchBucket");
        assertS3Error(() -> s3.getObjectAttributes(request -> request.bucket(bucket).key("errors")
            .objectAttributesWithStrings("Color")), 400, "InvalidArgument");

        RawS3.Response missingHeader = raw.send(raw.sign(raw.request(SdkHttpMethod.GET, "/" + bucket + "/errors")
            .putRawQueryParameter("attributes", "").build(), (byte[]) null, properties -> {
            }));
        assertThat(missingHeader.status()).as(missingHeader.toString()).isEqualTo(400);
        assertThat(missingHeader.errorCode()).hasValue("InvalidRequest");
        RawS3.Response put = raw.send(raw.sign(raw.request(SdkHttpMethod.PUT, "/" + bucket + "/errors")
            .putRawQueryParameter("attributes", "").build(), (byte[]) null, properties -> {
            }));
        assertThat(put.status()).as(put.toString()).isEqualTo(405);
    }
}
