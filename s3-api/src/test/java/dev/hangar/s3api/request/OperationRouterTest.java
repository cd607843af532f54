package dev.hangar.s3api.request;

import static dev.hangar.s3api.request.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.hangar.s3api.S3Error;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class OperationRouterTest {
    private static final String COPY = "x-amz-copy-source";

    static Stream<Arguments> routedOperations() {
        return Stream.of(
                arguments("GET", null, null, "", null, new S3Operation.ListBuckets()),
                arguments("GET", null, null, "x-id=ListBuckets", null, new S3Operation.ListBuckets()),
                arguments("PUT", "b", null, "", null, new S3Operation.CreateBucket()),
                arguments("HEAD", "b", null, "", null, new S3Operation.HeadBucket()),
                arguments("DELETE", "b", null, "", null, new S3Operation.DeleteBucket()),
                arguments("GET", "b", null, "location", null, new S3Operation.GetBucketLocation()),
                arguments("GET", "b", null, "", null, new S3Operation.ListObjects()),
                arguments("GET", "b", null, "prefix=a&delimiter=%2F&max-keys=5", null, new S3Operation.ListObjects()),
                arguments("GET", "b", null, "list-type=1", null, new S3Operation.ListObjects()),
                arguments("GET", "b", null, "list-type=2", null, new S3Operation.ListObjectsV2()),
                arguments("GET", "b", null, "list-type=2&continuation-token=abc&encoding-type=url", null,
                        new S3Operation.ListObjectsV2()),
                arguments("GET", "b", null, "uploads", null, new S3Operation.ListMultipartUploads()),
                arguments("GET", "b", null, "uploads&prefix=a", null, new S3Operation.ListMultipartUploads()),
                arguments("POST", "b", null, "delete", null, new S3Operation.DeleteObjects()),
                arguments("PUT", "b", "k", "", null, new S3Operation.PutObject()),
                arguments("PUT", "b", "k", "", "/src/key", new S3Operation.CopyObject()),
                arguments("GET", "b", "k", "", null, new S3Operation.GetObject()),
                arguments("GET", "b", "k", "partNumber=2", null, new S3Operation.GetObject()),
                arguments("GET", "b", "k", "response-content-type=text%2Fplain", null, new S3Operation.GetObject()),
                arguments("HEAD", "b", "k", "", null, new S3Operation.HeadObject()),
                arguments("DELETE", "b", "k", "", null, new S3Operation.DeleteObject()),
                arguments("POST", "b", "k", "uploads", null, new S3Operation.CreateMultipartUpload()),
                arguments("PUT", "b", "k", "partNumber=3&uploadId=u1", null, new S3Operation.UploadPart("u1", 3)),
                arguments("PUT", "b", "k", "uploadId=u1&partNumber=1", null, new S3Operation.UploadPart("u1", 1)),
                arguments("PUT", "b", "k", "partNumber=10000&uploadId=u1", null,
                        new S3Operation.UploadPart("u1", 10_000)),
                arguments("PUT", "b", "k", "partNumber=3&uploadId=u1", "src/key",
                        new S3Operation.UploadPartCopy("u1", 3)),
                arguments("POST", "b", "k", "uploadId=u1", null, new S3Operation.CompleteMultipartUpload("u1")),
                arguments("DELETE", "b", "k", "uploadId=u1", null, new S3Operation.AbortMultipartUpload("u1")),
                arguments("GET", "b", "k", "uploadId=u1", null, new S3Operation.ListParts("u1")),
                arguments("GET", "b", "k", "uploadId=u1&max-parts=2&part-number-marker=1", null,
                        new S3Operation.ListParts("u1")),
                arguments("GET", "b", "dir/", "", null, new S3Operation.GetObject()));
    }

    @ParameterizedTest(name = "{0} {1} {2} ?{3} copy-source={4} -> {5}")
    @MethodSource("routedOperations")
    void routesByMethodAddressQueryAndCopySource(String method, @Nullable String bucket, @Nullable String key,
            String query, @Nullable String copySource, S3Operation expected) {
        S3Operation operation = OperationRouter.route(request(method, bucket, key, query, copySource));

        assertThat(operation).isEqualTo(expected);
        assertThat(operation.name()).isEqualTo(expected.getClass().getSimpleName());
    }

    @Test
    void namesOperationsAsTheS3ApiReferenceDoes() {
        assertThat(OperationRouter.route(request("GET", "b", null, "list-type=2", null)).name())
                .isEqualTo("ListObjectsV2");
        assertThat(OperationRouter.route(request("PUT", "b", "k", "partNumber=1&uploadId=u", "src/k")).name())
                .isEqualTo("UploadPartCopy");
    }

    @Test
    void findsTheCopySourceHeaderWhateverItsCase() {
        S3Request request = new S3Request("PUT", "b", "k", Map.of(),
                new RequestHeaders(Map.of("X-Amz-Copy-Source", List.of("src/key"))), "localhost", "request-id");

        assertThat(OperationRouter.route(request)).isEqualTo(new S3Operation.CopyObject());
    }

    @ParameterizedTest(name = "{0} {1} {2}?{3} -> {4}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "GET|b|null|versioning|GetBucketVersioning",
            "PUT|b|null|versioning|PutBucketVersioning",
            "GET|b|null|acl|GetBucketAcl",
            "PUT|b|null|acl|PutBucketAcl",
            "GET|b|null|policy|GetBucketPolicy",
            "PUT|b|null|policy|PutBucketPolicy",
            "DELETE|b|null|policy|DeleteBucketPolicy",
            "GET|b|null|policyStatus|GetBucketPolicyStatus",
            "GET|b|null|cors|GetBucketCors",
            "PUT|b|null|cors|PutBucketCors",
            "DELETE|b|null|cors|DeleteBucketCors",
            "GET|b|null|website|GetBucketWebsite",
            "PUT|b|null|website|PutBucketWebsite",
            "DELETE|b|null|website|DeleteBucketWebsite",
            "GET|b|null|lifecycle|GetBucketLifecycleConfiguration",
            "PUT|b|null|lifecycle|PutBucketLifecycleConfiguration",
            "DELETE|b|null|lifecycle|DeleteBucketLifecycle",
            "GET|b|null|versions|ListObjectVersions",
            "GET|b|null|tagging|GetBucketTagging",
            "PUT|b|null|tagging|PutBucketTagging",
            "DELETE|b|null|tagging|DeleteBucketTagging",
            "GET|b|null|encryption|GetBucketEncryption",
            "PUT|b|null|encryption|PutBucketEncryption",
            "DELETE|b|null|encryption|DeleteBucketEncryption",
            "GET|b|null|object-lock|GetObjectLockConfiguration",
            "PUT|b|null|object-lock|PutObjectLockConfiguration",
            "GET|b|null|replication|GetBucketReplication",
            "PUT|b|null|replication|PutBucketReplication",
            "DELETE|b|null|replication|DeleteBucketReplication",
            "GET|b|null|logging|GetBucketLogging",
            "PUT|b|null|logging|PutBucketLogging",
            "GET|b|null|notification|GetBucketNotificationConfiguration",
            "PUT|b|null|notification|PutBucketNotificationConfiguration",
            "GET|b|null|requestPayment|GetBucketRequestPayment",
            "PUT|b|null|requestPayment|PutBucketRequestPayment",
            "GET|b|null|accelerate|GetBucketAccelerateConfiguration",
            "PUT|b|null|accelerate|PutBucketAccelerateConfiguration",
            "GET|b|null|ownershipControls|GetBucketOwnershipControls",
            "PUT|b|null|ownershipControls|PutBucketOwnershipControls",
            "DELETE|b|null|ownershipControls|DeleteBucketOwnershipControls",
            "GET|b|null|publicAccessBlock|GetPublicAccessBlock",
            "PUT|b|null|publicAccessBlock|PutPublicAccessBlock",
            "DELETE|b|null|publicAccessBlock|DeletePublicAccessBlock",
            "GET|b|null|analytics&id=a|GetBucketAnalyticsConfiguration",
            "PUT|b|null|analytics&id=a|PutBucketAnalyticsConfiguration",
            "DELETE|b|null|analytics&id=a|DeleteBucketAnalyticsConfiguration",
            "GET|b|null|inventory&id=i|GetBucketInventoryConfiguration",
            "GET|b|null|metrics&id=m|GetBucketMetricsConfiguration",
            "GET|b|null|intelligent-tiering&id=t|GetBucketIntelligentTieringConfiguration",
            "POST|b|null|''|PostObject",
            "GET|b|k|acl|GetObjectAcl",
            "PUT|b|k|acl|PutObjectAcl",
            "GET|b|k|tagging|GetObjectTagging",
            "PUT|b|k|tagging|PutObjectTagging",
            "DELETE|b|k|tagging|DeleteObjectTagging",
            "GET|b|k|retention|GetObjectRetention",
            "PUT|b|k|retention|PutObjectRetention",
            "GET|b|k|legal-hold|GetObjectLegalHold",
            "PUT|b|k|legal-hold|PutObjectLegalHold",
            "GET|b|k|attributes|GetObjectAttributes",
            "GET|b|k|torrent|GetObjectTorrent",
            "POST|b|k|restore|RestoreObject",
            "POST|b|k|select&select-type=2|SelectObjectContent",
            "GET|b|k|tagging&versionId=v|GetObjectTagging",
            "PUT|b|k|uploadId=u&partNumber=1&tagging|PutObjectTagging"})
    void namesTheOperationASubResourceSelects(String method, String bucket, @Nullable String key,
            String query, String operation) {
        S3Operation routed = OperationRouter.route(request(method, bucket, key, query, null));

        assertThat(routed.name()).isEqualTo(operation);
    }

    @ParameterizedTest(name = "{0} ?{1}")
    @CsvSource(delimiter = '|', value = {
            "DELETE|versioning", "DELETE|acl", "DELETE|object-lock", "DELETE|policyStatus"})
    void refusesToDeleteBucketSubResourcesS3CannotDelete(String method, String query) {
        assertS3Error(() -> OperationRouter.route(request(method, "b", null, query, null)), S3Error.METHOD_NOT_ALLOWED);
    }

    @org.junit.jupiter.api.Test
    void refusesToPutThePolicyStatusWhichFollowsFromThePolicy() {
        assertS3Error(() -> OperationRouter.route(request("PUT", "b", null, "policyStatus", null)),
                S3Error.METHOD_NOT_ALLOWED);
    }

    @org.junit.jupiter.api.Test
    void routesOptionsToACorsPreflight() {
        assertThat(OperationRouter.route(request("OPTIONS", "b", "k", "", null)))
                .isEqualTo(new S3Operation.PreflightRequest());
        assertThat(OperationRouter.route(request("OPTIONS", "b", null, "", null)))
                .isEqualTo(new S3Operation.PreflightRequest());
    }

    @ParameterizedTest(name = "partNumber={0}")
    @ValueSource(strings = {"0", "10001", "-1", "x", "", "1.5", "2147483648", "%201"})
    void refusesPartNumbersOutsideOneToTenThousand(String partNumber) {
        String query = "uploadId=u1&partNumber=" + partNumber;

        assertS3Error(() -> OperationRouter.route(request("PUT", "b", "k", query, null)), S3Error.INVALID_ARGUMENT);
        assertS3Error(() -> OperationRouter.route(request("PUT", "b", "k", query, "src/k")), S3Error.INVALID_ARGUMENT);
    }

    @Test
    void refusesAPartUploadWithoutAPartNumber() {
        assertS3Error(() -> OperationRouter.route(request("PUT", "b", "k", "uploadId=u1", null)),
                S3Error.INVALID_ARGUMENT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"partNumber=1", "partNumber=1&uploadId=", "partNumber=1&uploadId"})
    void refusesAPartUploadWithoutAnUploadId(String query) {
        assertS3Error(() -> OperationRouter.route(request("PUT", "b", "k", query, null)), S3Error.INVALID_REQUEST);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "partNumber=1", "delete", "location"})
    void refusesAPostOnAKeyWithoutUploadsOrUploadId(String query) {
        assertS3Error(() -> OperationRouter.route(request("POST", "b", "k", query, null)), S3Error.METHOD_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PUT", "POST", "DELETE", "PATCH"})
    void refusesMethodsOtherThanGetOnTheService(String method) {
        assertS3Error(() -> OperationRouter.route(request(method, null, null, "", null)), S3Error.METHOD_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PATCH", "TRACE", "CONNECT"})
    void refusesUnknownMethodsOnBucketsAndObjects(String method) {
        assertS3Error(() -> OperationRouter.route(request(method, "b", null, "", null)), S3Error.METHOD_NOT_ALLOWED);
        assertS3Error(() -> OperationRouter.route(request(method, "b", "k", "", null)), S3Error.METHOD_NOT_ALLOWED);
        assertS3Error(() -> OperationRouter.route(request(method, "b", "k", "uploadId=u1", null)),
                S3Error.METHOD_NOT_ALLOWED);
        assertS3Error(() -> OperationRouter.route(request(method, "b", null, "versioning", null)),
                S3Error.METHOD_NOT_ALLOWED);
        assertS3Error(() -> OperationRouter.route(request(method, "b", "k", "tagging", null)),
                S3Error.METHOD_NOT_ALLOWED);
    }

    /** {@code GET //key} names the empty bucket; {@code /a%00b} one with NUL: no bucket has such a name. */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "a\u0000b", "a b", "a/b", "caf\u00e9", "a%b"})
    void refusesABucketNameNoBucketCanHave(String bucket) {
        assertS3Error(() -> OperationRouter.route(request("GET", bucket, null, "", null)), S3Error.INVALID_BUCKET_NAME);
        assertS3Error(() -> OperationRouter.route(request("GET", bucket, "k", "", null)), S3Error.INVALID_BUCKET_NAME);
    }

    /** Names S3 allowed once (upper case, underscores, up to 255 characters) are looked up, not refused. */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"My_Bucket", "a", "b.c-d_e"})
    void routesLegacyBucketNames(String bucket) {
        assertThat(OperationRouter.route(request("GET", bucket, null, "", null))).isEqualTo(new S3Operation.ListObjects());
    }

    @Test
    void routesBucketNamesUpTo255Characters() {
        assertThat(OperationRouter.route(request("GET", "x".repeat(255), null, "", null)))
                .isEqualTo(new S3Operation.ListObjects());
        assertS3Error(() -> OperationRouter.route(request("GET", "x".repeat(256), null, "", null)),
                S3Error.INVALID_BUCKET_NAME);
    }

    @Test
    void refusesAKeyHoldingNul() {
        assertS3Error(() -> OperationRouter.route(request("GET", "b", "a\u0000b", "", null)), S3Error.INVALID_ARGUMENT);
        assertS3Error(() -> OperationRouter.route(request("DELETE", "b", "\u0000", "", null)), S3Error.INVALID_ARGUMENT);
    }

    @ParameterizedTest(name = "?{0}")
    @ValueSource(strings = {"prefix=%00", "uploads&key-marker=a%00", "uploadId=%00", "versionId=%00",
            "list-type=2&start-after=%00", "%00", "a%00=1"})
    void refusesAQueryParameterHoldingNul(String query) {
        assertS3Error(() -> OperationRouter.route(request("GET", "b", null, query, null)), S3Error.INVALID_ARGUMENT);
        assertS3Error(() -> OperationRouter.route(request("GET", "b", "k", query, null)), S3Error.INVALID_ARGUMENT);
    }

    private static S3Request request(String method, @Nullable String bucket, @Nullable String key, String rawQuery,
            @Nullable String copySource) {
        Map<String, List<String>> headers = copySource == null ? Map.of() : Map.of(COPY, List.of(copySource));
        return new S3Request(method, bucket, key, Addressing.parseQuery(rawQuery), new RequestHeaders(headers),
                "localhost:9000", "request-id");
    }
}
