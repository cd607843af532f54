package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.CreateBucketResponse;
import software.amazon.awssdk.services.s3.model.DeleteBucketResponse;
import software.amazon.awssdk.services.s3.model.GetBucketLocationResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.ListBucketsResponse;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/** ListBuckets, CreateBucket (naming rules), HeadBucket, DeleteBucket, GetBucketLocation. */
class BucketIT extends AbstractS3IT {

    @Test
    void createdBucketIsListedWithItsCreationDate() {
        Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);
        String bucket = newBucketName("list");
        CreateBucketResponse created = s3.createBucket(request -> request.bucket(bucket));
        assertThat(created.sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(created.location()).isEqualTo("/" + bucket);

        ListBucketsResponse listing = s3.listBuckets();
        assertThat(listing.buckets()).extracting(Bucket::name).contains(bucket);
        Bucket listed = listing.buckets().stream().filter(b -> b.name().equals(bucket)).findFirst().orElseThrow();
        assertThat(listed.creationDate()).isBetween(before, Instant.now().plusSeconds(1));
        assertThat(listing.owner()).isNotNull();
        assertThat(listing.owner().id()).isNotBlank();
    }

    @Test
    void listBucketsIsSortedByName() {
        createBucket("sort-b");
        createBucket("sort-a");
        assertThat(s3.listBuckets().buckets()).extracting(Bucket::name).isSorted();
    }

    @Test
    void listBucketsPagesWithMaxBucketsAndContinuationToken() {
        List<String> created = List.of(createBucket("pages"), createBucket("pages"), createBucket("pages"));
        String prefix = created.getFirst().substring(0, created.getFirst().lastIndexOf('-') + 1);
        List<String> expected = created.stream().sorted().toList();

        ListBucketsResponse first = s3.listBuckets(request -> request.prefix(prefix).maxBuckets(2));
        assertThat(first.buckets()).extracting(Bucket::name).containsExactlyElementsOf(expected.subList(0, 2));
        assertThat(first.prefix()).isEqualTo(prefix);
        assertThat(first.continuationToken()).isNotBlank();
        ListBucketsResponse second = s3.listBuckets(request -> request.prefix(prefix).maxBuckets(2)
            .continuationToken(first.continuationToken()));
        assertThat(second.buckets()).extracting(Bucket::name).containsExactlyElementsOf(expected.subList(2, 3));
        assertThat(second.continuationToken()).isNull();

        List<String> paged = s3.listBucketsPaginator(request -> request.prefix(prefix).maxBuckets(1)).buckets()
            .stream().map(Bucket::name).toList();
        assertThat(paged).containsExactlyElementsOf(expected);
        assertThat(s3.listBucketsPaginator(request -> request.maxBuckets(2)).buckets().stream().map(Bucket::name))
            .containsAll(expected).isSorted();
        assertThat(s3.listBuckets(request -> request.prefix(prefix).bucketRegion(REGION)).buckets())
            .extracting(Bucket::name).containsExactlyElementsOf(expected);
        assertThat(s3.listBuckets(request -> request.prefix(prefix).bucketRegion("ap-south-2")).buckets()).isEmpty();
        // Without max-buckets every bucket comes in one page, and nothing is echoed that was not sent.
        ListBucketsResponse all = s3.listBuckets();
        assertThat(all.continuationToken()).isNull();
        assertThat(all.prefix()).isNull();
    }

    @Test
    void listBucketsRefusesAMaxBucketsOutOfRangeAndAForeignToken() {
        assertS3Error(() -> s3.listBuckets(request -> request.maxBuckets(0)), 400, "InvalidArgument");
        assertS3Error(() -> s3.listBuckets(request -> request.maxBuckets(10_001)), 400, "InvalidArgument");
        assertS3Error(() -> s3.listBuckets(request -> request.continuationToken("!!not-a-token")), 400,
            "InvalidArgument");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "abc",
        "a-b-c",
        "a.b.c",
        "1bucket9",
        "bucket-with-63-characters-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "my.bucket-name.1"
    })
    void validNamesAreAccepted(String template) {
        // Valid shapes, made unique by a prefix that keeps them valid (the 63-character one is used as is).
        String bucket = template.length() == 63 ? template.substring(0, 53) + randomSuffix(10) : template + "-" + randomSuffix(8);
        assertThat(bucket.length()).isBetween(3, 63);
        s3.createBucket(request -> request.bucket(bucket));
        assertThat(s3.headBucket(request -> request.bucket(bucket)).sdkHttpResponse().statusCode()).isEqualTo(200);
        s3.deleteBucket(request -> request.bucket(bucket));
    }

    static Stream<String> invalidNames() {
        return Stream.of(
            "ab",                                   // too short
            "a".repeat(64),                         // too long
            "UpperCase",                            // upper case
            "under_score",                          // underscore
            "192.168.5.4",                          // IP address form
            "xn--punycode",                         // reserved prefix
            "sthree-bucket",                        // reserved prefix
            "bucket-s3alias",                       // reserved suffix
            "bucket--ol-s3",                        // reserved suffix
            "double..dot",                          // adjacent dots
            "-leading-hyphen",                      // must start with a letter or digit
            "trailing-hyphen-",                     // must end with a letter or digit
            ".leading-dot",
            "trailing-dot.",
            "has space",
            "has!bang"
        );
    }

    /**
     * The SDK refuses most invalid names before sending anything, so the request is signed and sent
     * by hand: the server must reject the name itself.
     */
    @ParameterizedTest
    @MethodSource("invalidNames")
    void invalidNamesAreRejected(String bucket) {
        SdkHttpRequest create = raw.request(SdkHttpMethod.PUT, "/" + SdkHttpUtils.urlEncode(bucket))
            .putHeader("Content-Length", "0")
            .build();
        RawS3.Response response = raw.send(raw.sign(create, new byte[0], properties -> {
        }));
        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).as("%s", response).contains("InvalidBucketName");
    }

    @ParameterizedTest
    @ValueSource(strings = {"xn--punycode", "sthree-bucket", "bucket-s3alias", "bucket--ol-s3"})
    void reservedNamesThatTheSdkLetsThroughAreRejected(String bucket) {
        assertS3Error(() -> s3.createBucket(request -> request.bucket(bucket)), 400, "InvalidBucketName");
    }

    @Test
    void creatingAnOwnedBucketAgainIsAConflict() {
        String bucket = createBucket("twice");
        assertS3Error(() -> s3.createBucket(request -> request.bucket(bucket)), 409, "BucketAlreadyOwnedByYou");
    }

    @Test
    void createBucketWithTheConfiguredRegionAsLocationConstraint() {
        String bucket = newBucketName("located");
        s3.createBucket(request -> request.bucket(bucket)
            .createBucketConfiguration(configuration -> configuration.locationConstraint(REGION)));
        assertThat(s3.headBucket(request -> request.bucket(bucket)).sdkHttpResponse().statusCode()).isEqualTo(200);
    }

    @Test
    void headBucket() {
        String bucket = createBucket("head");
        HeadBucketResponse head = s3.headBucket(request -> request.bucket(bucket));
        assertThat(head.sdkHttpResponse().statusCode()).isEqualTo(200);
        assertThat(head.bucketRegion()).isEqualTo(REGION);

        assertS3Status(() -> s3.headBucket(request -> request.bucket(newBucketName("missing"))), 404);
    }

    @Test
    void getBucketLocation() {
        String bucket = createBucket("location");
        GetBucketLocationResponse location = s3.getBucketLocation(request -> request.bucket(bucket));
        // AWS answers an empty LocationConstraint for us-east-1, the region the test server runs in.
        assertThat(location.locationConstraintAsString()).isNullOrEmpty();

        assertS3Error(() -> s3.getBucketLocation(request -> request.bucket(newBucketName("missing"))), 404, "NoSuchBucket");
    }

    @Test
    void deleteBucket() {
        String bucket = createBucket("delete");
        DeleteBucketResponse deleted = s3.deleteBucket(request -> request.bucket(bucket));
        assertThat(deleted.sdkHttpResponse().statusCode()).isEqualTo(204);
        assertS3Status(() -> s3.headBucket(request -> request.bucket(bucket)), 404);
        assertThat(s3.listBuckets().buckets()).extracting(Bucket::name).doesNotContain(bucket);

        assertS3Error(() -> s3.deleteBucket(request -> request.bucket(bucket)), 404, "NoSuchBucket");
    }

    @Test
    void deleteNonEmptyBucketIsAConflictAndKeepsTheObjects() {
        String bucket = createBucket("notempty");
        s3.putObject(request -> request.bucket(bucket).key("keep"), RequestBody.fromString("data"));

        assertS3Error(() -> s3.deleteBucket(request -> request.bucket(bucket)), 409, "BucketNotEmpty");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("keep")).asUtf8String()).isEqualTo("data");

        s3.deleteObject(request -> request.bucket(bucket).key("keep"));
        s3.deleteBucket(request -> request.bucket(bucket));
        assertS3Status(() -> s3.headBucket(request -> request.bucket(bucket)), 404);
    }

    @Test
    void aBucketCanBeCreatedAgainAfterDeletion() {
        String bucket = createBucket("recreate");
        s3.putObject(request -> request.bucket(bucket).key("old"), RequestBody.fromString("old"));
        s3.deleteObject(request -> request.bucket(bucket).key("old"));
        s3.deleteBucket(request -> request.bucket(bucket));

        s3.createBucket(request -> request.bucket(bucket));
        assertThat(s3.listObjectsV2(request -> request.bucket(bucket)).contents()).isEmpty();
    }
}
