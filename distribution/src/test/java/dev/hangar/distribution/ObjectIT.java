package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * PutObject, GetObject, HeadObject and DeleteObject over every size class (empty, inline, around
 * the inline threshold, around the chunk size, 100 MiB) with the sync, async and
 * checksum-when-required clients; standard headers and user metadata; keys that need encoding.
 */
class ObjectIT extends AbstractS3IT {

    private static final long[] SIZES = {
        0, 1, INLINE_THRESHOLD, INLINE_THRESHOLD + 1, CHUNK_SIZE - 1, CHUNK_SIZE, CHUNK_SIZE + 1, 100L * MIB
    };

    enum Client { SYNC, ASYNC, SYNC_CHECKSUM_WHEN_REQUIRED }

    private String bucket;

    @BeforeAll
    void createObjectBucket() {
        bucket = createBucket("objects");
    }

    static Stream<Arguments> sizesAndClients() {
        List<Arguments> cases = new ArrayList<>();
        for (long size : SIZES) {
            for (Client client : Client.values()) {
                if (size > 10 * MIB && client == Client.SYNC_CHECKSUM_WHEN_REQUIRED) {
                    continue; // the large size runs once per HTTP client implementation
                }
                cases.add(Arguments.of(size, client));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} bytes, {1}")
    @MethodSource("sizesAndClients")
    void putGetHeadDelete(long size, Client client) {
        RandomContent content = RandomContent.of(size * 31 + client.ordinal(), size);
        String key = "sized/" + size + "-" + client;

        PutObjectResponse put = put(client, PutObjectRequest.builder().bucket(bucket).key(key).build(), content);
        assertThat(put.eTag()).isEqualTo(content.etag());

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key));
        assertThat(head.contentLength()).isEqualTo(size);
        assertThat(head.eTag()).isEqualTo(content.etag());
        assertThat(head.lastModified()).isBetween(Instant.now().minusSeconds(600), Instant.now().plusSeconds(60));

        GetObjectRequest get = GetObjectRequest.builder().bucket(bucket).key(key).build();
        try (ResponseInputStream<GetObjectResponse> stream = get(client, get)) {
            assertThat(stream.response().contentLength()).isEqualTo(size);
            assertThat(stream.response().eTag()).isEqualTo(content.etag());
            Digests.Summary summary = Digests.summarize(stream);
            assertThat(summary.length()).isEqualTo(size);
            assertThat(summary.sha256Hex()).isEqualTo(content.sha256Hex());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        DeleteObjectResponse deleted = s3.deleteObject(request -> request.bucket(bucket).key(key));
        assertThat(deleted.sdkHttpResponse().statusCode()).isEqualTo(204);
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)), 404, "NoSuchKey");
    }

    /** S3 returns a list of content codings as it was sent, spacing included. */
    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"gzip, br", "gzip,br", "gzip,  deflate, br"})
    void aContentEncodingListComesBackAsSent(String contentEncoding) {
        String key = "encoding/" + contentEncoding.length();
        s3.putObject(request -> request.bucket(bucket).key(key).contentEncoding(contentEncoding),
            RequestBody.fromString("coded"));

        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).contentEncoding()).isEqualTo(contentEncoding);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).response().contentEncoding())
            .isEqualTo(contentEncoding);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {100, 5000})
    void standardHeadersAndUserMetadataRoundTrip(int size) {
        RandomContent content = RandomContent.of(size, size);
        String key = "headers/" + size;
        Instant expires = Instant.parse("2030-01-01T00:00:00Z");
        s3.putObject(request -> request.bucket(bucket).key(key)
                .contentType("text/plain; charset=utf-8")
                .contentEncoding("gzip")
                .contentDisposition("attachment; filename=\"report.txt\"")
                .cacheControl("max-age=3600, must-revalidate")
                .contentLanguage("de-CH")
                .expires(expires)
                .metadata(Map.of("color", "blue", "Mixed-Case", "Value With Spaces")),
            content.requestBody());

        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key));
        assertThat(head.contentType()).isEqualTo("text/plain; charset=utf-8");
        assertThat(head.contentEncoding()).isEqualTo("gzip");
        assertThat(head.contentDisposition()).isEqualTo("attachment; filename=\"report.txt\"");
        assertThat(head.cacheControl()).isEqualTo("max-age=3600, must-revalidate");
        assertThat(head.contentLanguage()).isEqualTo("de-CH");
        assertThat(head.expiresString()).isEqualTo("Tue, 01 Jan 2030 00:00:00 GMT");
        // S3 stores user metadata keys in lower case.
        assertThat(head.metadata()).isEqualTo(Map.of("color", "blue", "mixed-case", "Value With Spaces"));

        try (ResponseInputStream<GetObjectResponse> stream = s3.getObject(request -> request.bucket(bucket).key(key))) {
            GetObjectResponse get = stream.response();
            assertThat(get.contentType()).isEqualTo("text/plain; charset=utf-8");
            assertThat(get.contentEncoding()).isEqualTo("gzip");
            assertThat(get.contentDisposition()).isEqualTo("attachment; filename=\"report.txt\"");
            assertThat(get.cacheControl()).isEqualTo("max-age=3600, must-revalidate");
            assertThat(get.contentLanguage()).isEqualTo("de-CH");
            assertThat(get.expiresString()).isEqualTo("Tue, 01 Jan 2030 00:00:00 GMT");
            assertThat(get.metadata()).isEqualTo(Map.of("color", "blue", "mixed-case", "Value With Spaces"));
            assertThat(Digests.sha256Hex(stream)).isEqualTo(content.sha256Hex());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void responseHeaderOverridesOnGet() {
        String key = "overrides";
        s3.putObject(request -> request.bucket(bucket).key(key).contentType("text/plain"), RequestBody.fromString("body"));
        GetObjectResponse response = s3.getObject(request -> request.bucket(bucket).key(key)
                .responseContentType("application/json")
                .responseContentDisposition("inline")
                .responseCacheControl("no-cache"),
            ResponseTransformer.toBytes()).response();
        assertThat(response.contentType()).isEqualTo("application/json");
        assertThat(response.contentDisposition()).isEqualTo("inline");
        assertThat(response.cacheControl()).isEqualTo("no-cache");
    }

    @Test
    void overwriteReplacesContentAcrossSizeClasses() {
        String key = "overwrite";
        for (long size : new long[] {5000, 100, 2L * MIB + 7, 0, 10}) {
            RandomContent content = RandomContent.of(size + 7, size);
            s3.putObject(request -> request.bucket(bucket).key(key), content.requestBody());
            HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key));
            assertThat(head.contentLength()).isEqualTo(size);
            assertThat(head.eTag()).isEqualTo(content.etag());
            assertThat(Digests.sha256Hex(s3.getObject(request -> request.bucket(bucket).key(key))))
                .as("content after overwrite with %d bytes", size)
                .isEqualTo(content.sha256Hex());
        }
        long listed = s3.listObjectsV2(request -> request.bucket(bucket).prefix(key)).contents().stream()
            .filter(object -> object.key().equals(key)).count();
        assertThat(listed).isOne();
    }

    static Stream<String> keysNeedingEncoding() {
        return Stream.of(
            "unicode/ключ-日本語-emoji-\uD83D\uDE80",
            "with space/and more spaces",
            "plus+sign+key",
            "percent%sign%20literal",
            "question?mark",
            "hash#tag",
            "double//slash",
            "trailing/slash/",
            "ampersand&equals=semicolon;colon:comma,",
            "dollar$at@tilde~star*paren()",
            "quote'double\"bracket[]brace{}",
            "caret^pipe|backslash\\lt<gt>",
            "nfc-é-vs-nfd-e\u0301"
        );
    }

    @ParameterizedTest
    @MethodSource("keysNeedingEncoding")
    void keysRoundTrip(String key) {
        byte[] body = ("content of " + key).getBytes(StandardCharsets.UTF_8);
        s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(body));

        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asByteArray()).isEqualTo(body);
        assertThat(s3.headObject(request -> request.bucket(bucket).key(key)).contentLength()).isEqualTo(body.length);
        assertThat(s3.listObjectsV2(request -> request.bucket(bucket).prefix(key)).contents())
            .extracting(S3Object::key)
            .contains(key);

        s3.deleteObject(request -> request.bucket(bucket).key(key));
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void missingKeyAndMissingBucket(Client client) {
        String missingBucket = newBucketName("nobucket");
        GetObjectRequest missingKey = GetObjectRequest.builder().bucket(bucket).key("does/not/exist").build();
        GetObjectRequest inMissingBucket = GetObjectRequest.builder().bucket(missingBucket).key("key").build();

        assertS3Error(() -> get(client, missingKey).close(), 404, "NoSuchKey");
        assertS3Error(() -> get(client, inMissingBucket).close(), 404, "NoSuchBucket");
    }

    @Test
    void headOfMissingObjectIs404() {
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("missing-head")), 404);
        assertS3Status(() -> s3.headObject(request -> request.bucket(newBucketName("nobucket")).key("key")), 404);
    }

    @Test
    void putIntoMissingBucket() {
        String missingBucket = newBucketName("nobucket");
        assertS3Error(() -> s3.putObject(request -> request.bucket(missingBucket).key("key"), RequestBody.fromString("x")),
            404, "NoSuchBucket");
    }

    @Test
    void deletingAMissingKeySucceeds() {
        DeleteObjectResponse deleted = s3.deleteObject(request -> request.bucket(bucket).key("never-existed"));
        assertThat(deleted.sdkHttpResponse().statusCode()).isEqualTo(204);
        assertS3Error(() -> s3.deleteObject(request -> request.bucket(newBucketName("nobucket")).key("key")), 404, "NoSuchBucket");
    }

    private PutObjectResponse put(Client client, PutObjectRequest request, RandomContent content) {
        return switch (client) {
            case SYNC -> s3.putObject(request, content.requestBody());
            case ASYNC -> s3Async.putObject(request, content.asyncRequestBody()).join();
            case SYNC_CHECKSUM_WHEN_REQUIRED -> s3WhenRequired.putObject(request, content.requestBody());
        };
    }

    private ResponseInputStream<GetObjectResponse> get(Client client, GetObjectRequest request) {
        return switch (client) {
            case SYNC -> s3.getObject(request);
            case ASYNC -> s3Async.getObject(request, AsyncResponseTransformer.toBlockingInputStream()).join();
            case SYNC_CHECKSUM_WHEN_REQUIRED -> s3WhenRequired.getObject(request);
        };
    }
}
