package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RandomContent;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.DeletedObject;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * DeleteObjects in verbose and quiet mode, with the integrity header the SDK sends (a flexible
 * checksum by default, Content-MD5 or a checksum when required), missing keys, and keys that XML
 * must escape.
 */
class DeleteObjectsIT extends AbstractS3IT {

    private String bucket;

    @BeforeAll
    void createDeleteBucket() {
        bucket = createBucket("delete-objects");
    }

    @Test
    void verboseReportsEveryKeyIncludingMissingOnes() {
        verbose(s3, "verbose-default/");
    }

    @Test
    void verboseWithTheChecksumWhenRequiredClient() {
        verbose(s3WhenRequired, "verbose-required/");
    }

    private void verbose(S3Client client, String prefix) {
        List<String> existing = putKeys(prefix, 4);
        List<String> missing = List.of(prefix + "missing-1", prefix + "missing-2");
        List<String> toDelete = new ArrayList<>(existing.subList(0, 3));
        toDelete.addAll(missing);

        DeleteObjectsResponse response = client.deleteObjects(request -> request.bucket(bucket)
            .delete(delete -> delete.objects(identifiers(toDelete))));
        assertThat(response.sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(response.errors()).isEmpty();
        // S3 reports a key that did not exist as deleted.
        assertThat(response.deleted()).extracting(DeletedObject::key).containsExactlyInAnyOrderElementsOf(toDelete);

        assertThat(keysUnder(prefix)).containsExactly(existing.get(3));
        existing.subList(0, 3).forEach(key -> assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404));
    }

    @Test
    void quietReportsNothingOnSuccess() {
        List<String> existing = putKeys("quiet/", 5);
        List<String> toDelete = new ArrayList<>(existing);
        toDelete.add("quiet/missing");

        DeleteObjectsResponse response = s3.deleteObjects(request -> request.bucket(bucket)
            .delete(delete -> delete.objects(identifiers(toDelete)).quiet(true)));
        assertThat(response.deleted()).isEmpty();
        assertThat(response.errors()).isEmpty();
        assertThat(keysUnder("quiet/")).isEmpty();
    }

    @Test
    void asyncClient() {
        List<String> existing = putKeys("async/", 3);
        DeleteObjectsResponse response = s3Async.deleteObjects(request -> request.bucket(bucket)
            .delete(delete -> delete.objects(identifiers(existing)))).join();
        assertThat(response.deleted()).extracting(DeletedObject::key).containsExactlyInAnyOrderElementsOf(existing);
        assertThat(keysUnder("async/")).isEmpty();
    }

    @Test
    void keysThatXmlMustEscape() {
        List<String> keys = List.of("xml/a&b", "xml/<tag>", "xml/quote\"apos'", "xml/ünïcödé ключ", "xml/tab\there");
        keys.forEach(key -> s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString(key)));

        DeleteObjectsResponse response = s3.deleteObjects(request -> request.bucket(bucket)
            .delete(delete -> delete.objects(identifiers(keys))));
        assertThat(response.deleted()).extracting(DeletedObject::key).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(keysUnder("xml/")).isEmpty();
    }

    @Test
    void deletesChunkedAndInlineObjects() {
        s3.putObject(request -> request.bucket(bucket).key("sizes/inline"), RandomContent.of(601, 100).requestBody());
        s3.putObject(request -> request.bucket(bucket).key("sizes/chunked"), RandomContent.of(602, 2L * MIB + 1).requestBody());
        DeleteObjectsResponse response = s3.deleteObjects(request -> request.bucket(bucket)
            .delete(delete -> delete.objects(identifiers(List.of("sizes/inline", "sizes/chunked")))));
        assertThat(response.deleted()).hasSize(2);
        assertThat(keysUnder("sizes/")).isEmpty();
    }

    @Test
    void moreThanAThousandKeysIsMalformed() {
        List<String> keys = IntStream.rangeClosed(1, 1001).mapToObj(i -> "many/" + i).toList();
        assertS3Error(() -> s3.deleteObjects(request -> request.bucket(bucket)
            .delete(delete -> delete.objects(identifiers(keys)))), 400, "MalformedXML");
    }

    @Test
    void aThousandKeysIsFine() {
        List<String> keys = IntStream.rangeClosed(1, 1000).mapToObj(i -> "thousand/" + i).toList();
        DeleteObjectsResponse response = s3.deleteObjects(request -> request.bucket(bucket)
            .delete(delete -> delete.objects(identifiers(keys))));
        assertThat(response.deleted()).hasSize(1000);
    }

    @Test
    void missingBucket() {
        assertS3Error(() -> s3.deleteObjects(request -> request.bucket(newBucketName("nobucket"))
            .delete(delete -> delete.objects(identifiers(List.of("key"))))), 404, "NoSuchBucket");
    }

    private List<String> putKeys(String prefix, int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = prefix + "key-" + i;
            s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString("value of " + key));
            keys.add(key);
        }
        return keys;
    }

    private List<String> keysUnder(String prefix) {
        return s3.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(prefix)).contents().stream()
            .map(S3Object::key).toList();
    }

    private static List<ObjectIdentifier> identifiers(List<String> keys) {
        return keys.stream().map(key -> ObjectIdentifier.builder().key(key).build()).toList();
    }
}
