package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * The multipart family: Create, UploadPart, UploadPartCopy with ranges, Complete (the
 * {@code "<md5-of-md5s>-N"} ETag, EntityTooSmall, InvalidPart, InvalidPartOrder), Abort, ListParts
 * and ListMultipartUploads with their pagination, a retried Complete answered with the object it made, and
 * the async client's automatic multipart upload.
 */
class MultipartIT extends AbstractS3IT {

    private static final long MIN_PART = 5L * MIB;

    private String bucket;
    private S3AsyncClient multipartAsync;

    @BeforeAll
    void setUp() {
        bucket = createBucket("multipart");
        multipartAsync = S3Clients.async(endpoint(), ACCESS_KEY, SECRET_KEY, builder -> spread(builder
            .multipartEnabled(true)
            .multipartConfiguration(configuration -> configuration
                .thresholdInBytes(8L * MIB)
                .minimumPartSizeInBytes(MIN_PART))));
    }

    @AfterAll
    void closeClient() {
        multipartAsync.close();
    }

    @Test
    void threePartsCompleteWithTheMd5OfMd5sEtag() {
        String key = "assembled/three-parts";
        List<RandomContent> parts = List.of(RandomContent.of(501, MIN_PART), RandomContent.of(502, MIN_PART), RandomContent.of(503, MIB));
        CreateMultipartUploadResponse created = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)
            .contentType("application/x-parts")
            .metadata(Map.of("assembled", "true")));
        assertThat(created.bucket()).isEqualTo(bucket);
        assertThat(created.key()).isEqualTo(key);
        assertThat(created.uploadId()).isNotBlank();

        List<CompletedPart> completed = new ArrayList<>();
        for (int index = 0; index < parts.size(); index++) {
            int partNumber = index + 1;
            RandomContent part = parts.get(index);
            UploadPartResponse uploaded = s3.uploadPart(request -> request.bucket(bucket).key(key)
                .uploadId(created.uploadId()).partNumber(partNumber), part.requestBody());
            assertThat(uploaded.eTag()).isEqualTo(part.etag());
            completed.add(CompletedPart.builder().partNumber(partNumber).eTag(uploaded.eTag()).build());
        }

        // Not visible before completion.
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);

        CompleteMultipartUploadResponse complete = s3.completeMultipartUpload(request -> request.bucket(bucket).key(key)
            .uploadId(created.uploadId()).multipartUpload(upload -> upload.parts(completed)));
        String expectedEtag = Digests.multipartEtag(parts.stream().map(RandomContent::md5).toList());
        assertThat(complete.eTag()).isEqualTo(expectedEtag);
        assertThat(complete.bucket()).isEqualTo(bucket);
        assertThat(complete.key()).isEqualTo(key);

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key));
        assertThat(head.contentLength()).isEqualTo(11L * MIB);
        assertThat(head.eTag()).isEqualTo(expectedEtag);
        assertThat(head.contentType()).isEqualTo("application/x-parts");
        assertThat(head.metadata()).isEqualTo(Map.of("assembled", "true"));

        ResponseInputStream<GetObjectResponse> stream = s3.getObject(request -> request.bucket(bucket).key(key));
        GetObjectResponse response = stream.response();
        assertThat(response.contentLength()).isEqualTo(11L * MIB);
        assertThat(response.eTag()).isEqualTo(expectedEtag);
        assertThat(Digests.sha256Hex(stream)).isEqualTo(Digests.sha256Hex(RandomContent.concatenation(parts)));

        // A range across the boundary between part 1 and part 2.
        byte[] across = s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)
            .range("bytes=" + (MIN_PART - 10) + "-" + (MIN_PART + 9))).asByteArray();
        byte[] expected = new byte[20];
        System.arraycopy(parts.get(0).bytes(MIN_PART - 10, 10), 0, expected, 0, 10);
        System.arraycopy(parts.get(1).bytes(0, 10), 0, expected, 10, 10);
        assertThat(across).isEqualTo(expected);

        // The upload is gone once completed.
        assertThat(s3.listMultipartUploads(request -> request.bucket(bucket).prefix(key)).uploads()).isEmpty();
        assertS3Error(() -> s3.listParts(request -> request.bucket(bucket).key(key).uploadId(created.uploadId())), 404, "NoSuchUpload");
    }

    @Test
    void partsCanBeUploadedOutOfOrderAndReplaced() {
        String key = "assembled/replaced-part";
        RandomContent first = RandomContent.of(511, MIN_PART);
        RandomContent wrong = RandomContent.of(512, MIN_PART);
        RandomContent second = RandomContent.of(513, 1000);
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();

        String etag2 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(2), second.requestBody()).eTag();
        s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1), wrong.requestBody());
        String etag1 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1), first.requestBody()).eTag();

        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, etag1), part(2, etag2))));
        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key(key))))
            .isEqualTo(Digests.sha256Hex(RandomContent.concatenation(List.of(first, second))));
    }

    @Test
    void uploadPartCopyWithRanges() {
        RandomContent source = RandomContent.of(521, 6L * MIB);
        s3.putObject(request -> request.bucket(bucket).key("copy-source"), source.requestBody());
        String key = "assembled/from-copies";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();

        // Part 1: the first 5 MiB. Part 2: 5 MiB starting just before the first chunk boundary.
        // Part 3 (last, so it may be small): 2000 bytes.
        UploadPartCopyResponse part1 = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("copy-source")
            .destinationBucket(bucket).destinationKey(key).uploadId(uploadId).partNumber(1)
            .copySourceRange("bytes=0-" + (MIN_PART - 1)));
        assertThat(part1.copyPartResult().eTag()).isEqualTo('"' + Digests.md5Hex(toBytes(source.newStream(0, MIN_PART))) + '"');

        long secondStart = CHUNK_SIZE - 6;
        UploadPartCopyResponse part2 = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("copy-source")
            .destinationBucket(bucket).destinationKey(key).uploadId(uploadId).partNumber(2)
            .copySourceRange("bytes=" + secondStart + "-" + (secondStart + MIN_PART - 1)));
        assertThat(part2.copyPartResult().eTag())
            .isEqualTo('"' + Digests.md5Hex(toBytes(source.newStream(secondStart, MIN_PART))) + '"');

        UploadPartCopyResponse part3 = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("copy-source")
            .destinationBucket(bucket).destinationKey(key).uploadId(uploadId).partNumber(3)
            .copySourceRange("bytes=1000-2999"));
        assertThat(part3.copyPartResult().eTag()).isEqualTo('"' + Digests.md5Hex(source.bytes(1000, 2000)) + '"');

        ListPartsResponse listed = s3.listParts(request -> request.bucket(bucket).key(key).uploadId(uploadId));
        assertThat(listed.parts()).extracting(Part::partNumber, Part::size)
            .containsExactly(tuple(1, MIN_PART), tuple(2, MIN_PART), tuple(3, 2000L));

        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, part1.copyPartResult().eTag()), part(2, part2.copyPartResult().eTag()),
                part(3, part3.copyPartResult().eTag()))));

        InputStream expected = new SequenceInputStream(new SequenceInputStream(source.newStream(0, MIN_PART),
            source.newStream(secondStart, MIN_PART)), source.newStream(1000, 2000));
        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).contentLength()).isEqualTo(2 * MIN_PART + 2000);
        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key(key)))).isEqualTo(Digests.sha256Hex(expected));
    }

    @Test
    void uploadPartCopyWithoutRangeAndFromAMissingSource() {
        RandomContent source = RandomContent.of(531, 3000);
        s3.putObject(request -> request.bucket(bucket).key("copy-whole"), source.requestBody());
        String key = "assembled/whole-copy";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();

        UploadPartCopyResponse part = s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("copy-whole")
            .destinationBucket(bucket).destinationKey(key).uploadId(uploadId).partNumber(1));
        assertThat(part.copyPartResult().eTag()).isEqualTo(source.etag());

        assertS3Error(() -> s3.uploadPartCopy(request -> request.sourceBucket(bucket).sourceKey("copy-missing")
            .destinationBucket(bucket).destinationKey(key).uploadId(uploadId).partNumber(2)), 404, "NoSuchKey");

        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, part.copyPartResult().eTag()))));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asByteArray()).isEqualTo(source.bytes());
    }

    @Test
    void nonLastPartBelowFiveMibIsEntityTooSmall() {
        String key = "errors/too-small";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String etag1 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RandomContent.of(541, MIB).requestBody()).eTag();
        String etag2 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(2),
            RandomContent.of(542, MIB).requestBody()).eTag();

        assertS3Error(() -> s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, etag1), part(2, etag2)))), 400, "EntityTooSmall");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);

        // A single small part is fine: the last part may be of any size.
        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, etag1))));
        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).contentLength()).isEqualTo(MIB);
    }

    @Test
    void aPartNumberBeyondThePartCountIsInvalidPartNumber() {
        String key = "errors/part-number";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String etag1 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RandomContent.of(561, MIN_PART).requestBody()).eTag();
        String etag2 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(2),
            RequestBody.fromString("tail")).eTag();
        s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, etag1), part(2, etag2))));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key).partNumber(2)).asUtf8String())
            .isEqualTo("tail");

        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key).partNumber(3)),
            400, "InvalidPartNumber");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key).partNumber(3)), 400);
        // An object not uploaded in parts has one part.
        s3.putObject(request -> request.bucket(bucket).key("errors/one-part"), RequestBody.fromString("whole"));
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("errors/one-part").partNumber(2)),
            400, "InvalidPartNumber");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("errors/one-part").partNumber(2)), 400);
    }

    @Test
    void invalidPart() {
        String key = "errors/invalid-part";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        RandomContent content = RandomContent.of(551, MIN_PART);
        String etag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            content.requestBody()).eTag();

        assertS3Error(() -> s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, "\"" + "0".repeat(32) + "\"")))), 400, "InvalidPart");
        assertS3Error(() -> s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, etag), part(2, etag)))), 400, "InvalidPart");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);

        // The upload survives failed completions.
        assertThat(s3.listParts(request -> request.bucket(bucket).key(key).uploadId(uploadId)).parts()).hasSize(1);
        s3.abortMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId));
    }

    @Test
    void invalidPartOrder() {
        String key = "errors/part-order";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String etag1 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RandomContent.of(561, MIN_PART).requestBody()).eTag();
        String etag2 = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(2),
            RandomContent.of(562, 10).requestBody()).eTag();

        assertS3Error(() -> s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(2, etag2), part(1, etag1)))), 400, "InvalidPartOrder");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        s3.abortMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId));
    }

    @Test
    void abortedUploadIsGone() {
        String key = "errors/aborted";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String etag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RandomContent.of(571, 2000).requestBody()).eTag();

        AbortMultipartUploadResponse aborted = s3.abortMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId));
        assertThat(aborted.sdkHttpResponse().statusCode()).isEqualTo(204);

        assertS3Error(() -> s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(2),
            RequestBody.fromString("late")), 404, "NoSuchUpload");
        assertS3Error(() -> s3.completeMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, etag)))), 404, "NoSuchUpload");
        assertS3Error(() -> s3.listParts(request -> request.bucket(bucket).key(key).uploadId(uploadId)), 404, "NoSuchUpload");
        assertS3Error(() -> s3.abortMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId)), 404, "NoSuchUpload");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
    }

    @Test
    void aRetriedCompletionIsAnsweredWithTheObjectItMade() {
        String key = "retried/complete";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        String etag = s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(1),
            RandomContent.of(581, 3000).requestBody()).eTag();
        CompleteMultipartUploadResponse first = completeOnePart(bucket, key, uploadId, etag);

        // The client's retry (its first answer lost): the same object, not NoSuchUpload.
        CompleteMultipartUploadResponse again = completeOnePart(bucket, key, uploadId, etag);
        assertThat(again.eTag()).isEqualTo(first.eTag());
        assertThat(again.key()).isEqualTo(key);
        // The location names the node that answered: on a cluster the retry may go to another one.
        assertThat(again.location()).endsWith("/" + bucket + "/" + key);

        // What marks the version is no header: HEAD and a copy answer as for any object, and the copy is
        // not the upload's object.
        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key));
        assertThat(head.eTag()).isEqualTo(first.eTag());
        assertThat(head.sdkHttpResponse().headers().keySet()).noneMatch(name -> name.contains("upload"));
        s3.copyObject(request -> request.sourceBucket(bucket).sourceKey(key).destinationBucket(bucket)
            .destinationKey(key + "-copy"));
        assertS3Error(() -> completeOnePart(bucket, key + "-copy", uploadId, etag), 404, "NoSuchUpload");

        // Once another write replaced the object, the upload is just gone.
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("replaced"));
        assertS3Error(() -> completeOnePart(bucket, key, uploadId, etag), 404, "NoSuchUpload");
    }

    @Test
    void aRetriedCompletionOfAVersionedObjectGivesItsVersionId() {
        String versioned = createBucket("multipart-versioned");
        s3.putBucketVersioning(request -> request.bucket(versioned)
            .versioningConfiguration(configuration -> configuration.status("Enabled")));
        String key = "retried/versioned";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(versioned).key(key)).uploadId();
        String etag = s3.uploadPart(request -> request.bucket(versioned).key(key).uploadId(uploadId).partNumber(1),
            RandomContent.of(582, 2000).requestBody()).eTag();
        CompleteMultipartUploadResponse first = completeOnePart(versioned, key, uploadId, etag);

        CompleteMultipartUploadResponse again = completeOnePart(versioned, key, uploadId, etag);
        assertThat(first.versionId()).isNotBlank();
        assertThat(again.versionId()).isEqualTo(first.versionId());
        assertThat(again.eTag()).isEqualTo(first.eTag());
    }

    private CompleteMultipartUploadResponse completeOnePart(String bucketName, String key, String uploadId, String etag) {
        return s3.completeMultipartUpload(request -> request.bucket(bucketName).key(key).uploadId(uploadId)
            .multipartUpload(upload -> upload.parts(part(1, etag))));
    }

    @Test
    void unknownUploadId() {
        assertS3Error(() -> s3.uploadPart(request -> request.bucket(bucket).key("errors/unknown").uploadId("no-such-upload-id")
            .partNumber(1), RequestBody.fromString("x")), 404, "NoSuchUpload");
    }

    @Test
    void listPartsPagination() {
        String key = "listing/parts";
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key(key)).uploadId();
        List<String> etags = new ArrayList<>();
        for (int partNumber = 1; partNumber <= 5; partNumber++) {
            int number = partNumber;
            RandomContent content = RandomContent.of(580 + partNumber, 100L * partNumber);
            etags.add(s3.uploadPart(request -> request.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                content.requestBody()).eTag());
            assertThat(etags.getLast()).isEqualTo(content.etag());
        }

        ListPartsResponse page1 = s3.listParts(request -> request.bucket(bucket).key(key).uploadId(uploadId).maxParts(2));
        assertThat(page1.parts()).extracting(Part::partNumber).containsExactly(1, 2);
        assertThat(page1.isTruncated()).isTrue();
        assertThat(page1.nextPartNumberMarker()).isEqualTo(2);
        assertThat(page1.maxParts()).isEqualTo(2);
        assertThat(page1.uploadId()).isEqualTo(uploadId);
        assertThat(page1.key()).isEqualTo(key);

        ListPartsResponse page2 = s3.listParts(request -> request.bucket(bucket).key(key).uploadId(uploadId).maxParts(2)
            .partNumberMarker(page1.nextPartNumberMarker()));
        assertThat(page2.parts()).extracting(Part::partNumber).containsExactly(3, 4);
        assertThat(page2.partNumberMarker()).isEqualTo(2);
        assertThat(page2.isTruncated()).isTrue();

        ListPartsResponse page3 = s3.listParts(request -> request.bucket(bucket).key(key).uploadId(uploadId).maxParts(2)
            .partNumberMarker(page2.nextPartNumberMarker()));
        assertThat(page3.parts()).extracting(Part::partNumber).containsExactly(5);
        assertThat(page3.isTruncated()).isFalse();

        ListPartsResponse all = s3.listParts(request -> request.bucket(bucket).key(key).uploadId(uploadId));
        assertThat(all.parts()).extracting(Part::eTag).containsExactlyElementsOf(etags);
        assertThat(all.parts()).extracting(Part::size).containsExactly(100L, 200L, 300L, 400L, 500L);
        assertThat(all.parts()).allSatisfy(part -> assertThat(part.lastModified()).isNotNull());

        List<Integer> paginated = s3.listPartsPaginator(request -> request.bucket(bucket).key(key).uploadId(uploadId).maxParts(2))
            .parts().stream().map(Part::partNumber).toList();
        assertThat(paginated).containsExactly(1, 2, 3, 4, 5);

        s3.abortMultipartUpload(request -> request.bucket(bucket).key(key).uploadId(uploadId));
    }

    @Test
    void listMultipartUploadsPaginationWithPrefixAndDelimiter() {
        String uploads = createBucket("uploads");
        record Upload(String key, String uploadId) {
        }
        List<Upload> created = new ArrayList<>();
        for (String key : List.of("mpu/a", "mpu/b", "mpu/b", "mpu/c/d", "mpu/c/e", "other/x")) {
            created.add(new Upload(key, s3.createMultipartUpload(request -> request.bucket(uploads).key(key)).uploadId()));
        }

        List<Upload> collected = new ArrayList<>();
        String keyMarker = null;
        String uploadIdMarker = null;
        int pages = 0;
        while (true) {
            String currentKey = keyMarker;
            String currentUploadId = uploadIdMarker;
            ListMultipartUploadsResponse page = s3.listMultipartUploads(request -> request.bucket(uploads).maxUploads(2)
                .keyMarker(currentKey).uploadIdMarker(currentUploadId));
            pages++;
            assertThat(page.uploads()).hasSizeLessThanOrEqualTo(2);
            page.uploads().forEach(upload -> collected.add(new Upload(upload.key(), upload.uploadId())));
            if (!page.isTruncated()) {
                break;
            }
            keyMarker = page.nextKeyMarker();
            uploadIdMarker = page.nextUploadIdMarker();
            assertThat(keyMarker).isEqualTo(page.uploads().getLast().key());
            assertThat(uploadIdMarker).isEqualTo(page.uploads().getLast().uploadId());
            assertThat(pages).isLessThan(10);
        }
        assertThat(collected).containsExactlyInAnyOrderElementsOf(created);
        assertThat(collected).extracting(Upload::key).isSorted();
        assertThat(collected).doesNotHaveDuplicates();

        ListMultipartUploadsResponse grouped = s3.listMultipartUploads(request -> request.bucket(uploads).prefix("mpu/").delimiter("/"));
        assertThat(grouped.uploads()).extracting(MultipartUpload::key).containsExactly("mpu/a", "mpu/b", "mpu/b");
        assertThat(grouped.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("mpu/c/");
        assertThat(grouped.prefix()).isEqualTo("mpu/");
        assertThat(grouped.uploads()).allSatisfy(upload -> assertThat(upload.initiated()).isNotNull());

        ListMultipartUploadsResponse prefixed = s3.listMultipartUploads(request -> request.bucket(uploads).prefix("mpu/c/"));
        assertThat(prefixed.uploads()).extracting(MultipartUpload::key).containsExactly("mpu/c/d", "mpu/c/e");

        // key-marker alone skips every upload of that key.
        ListMultipartUploadsResponse afterB = s3.listMultipartUploads(request -> request.bucket(uploads).keyMarker("mpu/b"));
        assertThat(afterB.uploads()).extracting(MultipartUpload::key).containsExactly("mpu/c/d", "mpu/c/e", "other/x");

        List<String> paginated = s3.listMultipartUploadsPaginator(request -> request.bucket(uploads).maxUploads(1)).uploads().stream()
            .map(MultipartUpload::uploadId).toList();
        assertThat(paginated).containsExactlyInAnyOrderElementsOf(created.stream().map(Upload::uploadId).toList());

        created.forEach(upload -> s3.abortMultipartUpload(request -> request.bucket(uploads).key(upload.key()).uploadId(upload.uploadId())));
        assertThat(s3.listMultipartUploads(request -> request.bucket(uploads)).uploads()).isEmpty();
    }

    @Test
    void asyncClientMultipartUpload() {
        RandomContent content = RandomContent.of(591, 12L * MIB + 12345);
        String key = "async/automatic-multipart";
        multipartAsync.putObject(request -> request.bucket(bucket).key(key), content.asyncRequestBody()).join();

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key));
        assertThat(head.contentLength()).isEqualTo(content.size());
        assertThat(head.eTag()).matches("\"[0-9a-f]{32}-3\"");
        assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key(key)))).isEqualTo(content.sha256Hex());

        List<byte[]> partMd5s = List.of(
            Digests.md5().digest(toBytes(content.newStream(0, MIN_PART))),
            Digests.md5().digest(toBytes(content.newStream(MIN_PART, MIN_PART))),
            Digests.md5().digest(toBytes(content.newStream(2 * MIN_PART, content.size() - 2 * MIN_PART))));
        assertThat(head.eTag()).isEqualTo(Digests.multipartEtag(partMd5s));
    }

    private static CompletedPart part(int number, String etag) {
        return CompletedPart.builder().partNumber(number).eTag(etag).build();
    }

    private static byte[] toBytes(InputStream stream) {
        try (InputStream in = stream) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
