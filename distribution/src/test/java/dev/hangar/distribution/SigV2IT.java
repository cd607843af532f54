package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.BotocoreSigner;
import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.FormBody;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Signature Version 2, with every signature computed by botocore's own signers ({@link BotocoreSigner}): the
 * {@code Authorization: AWS key:signature} header, presigned URLs ({@code AWSAccessKeyId}, {@code Signature},
 * {@code Expires}) and browser-upload forms ({@code AWSAccessKeyId}, {@code policy}, {@code signature}) are
 * accepted, and fail with S3's error codes for a wrong signature, an unknown key, an expired URL, a skewed clock
 * and a tampered sub-resource; V2 requests go through the same access checks and policy conditions as V4 ones,
 * and are counted by the metrics. Requests are sent with java.net.http exactly as botocore signed them.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SigV2IT extends AbstractS3IT {
    private static final String WRONG_SECRET = "not-the-secret-key-0123456789abcdefghijklm";
    private static final Pattern EXPIRES = Pattern.compile("[?&]Expires=(\\d+)");

    private BotocoreSigner botocore;
    private AdminApi admin;
    private String bucket;

    @BeforeAll
    void setUp() {
        botocore = BotocoreSigner.forKey(ACCESS_KEY, SECRET_KEY);
        admin = new AdminApi(managementEndpoint(), http);
        bucket = createBucket("sigv2");
    }

    // ---------------------------------------------------------------- Authorization: AWS key:signature

    @Test
    void headerSignedPutGetHeadListAclAndDelete() {
        byte[] body = RandomContent.of(2001, 40_000).bytes();
        String url = objectUrl("dir/a b+c.txt");
        String md5 = Base64.getEncoder().encodeToString(Digests.md5().digest(body));
        Map<String, String> put = botocore.signHeader("PUT", url, Map.of(
            "Content-Type", "text/plain", "Content-MD5", md5, "x-amz-meta-origin", "botocore v2"));

        RawS3.Response stored = send("PUT", url, put, body);
        assertThat(stored.status()).as("%s", stored).isEqualTo(200);
        assertThat(stored.header("ETag")).contains('"' + Digests.md5Hex(body) + '"');

        RawS3.Response read = send("GET", url, botocore.signHeader("GET", url, Map.of()), null);
        assertThat(read.status()).as("%s", read).isEqualTo(200);
        assertThat(read.body()).isEqualTo(body);
        assertThat(read.header("x-amz-meta-origin")).contains("botocore v2");
        assertThat(read.header("Content-Type")).contains("text/plain");

        assertThat(send("HEAD", url, botocore.signHeader("HEAD", url, Map.of()), null).status()).isEqualTo(200);

        String listing = endpoint() + "/" + bucket + "?prefix=dir%2F";
        RawS3.Response list = send("GET", listing, botocore.signHeader("GET", listing, Map.of()), null);
        assertThat(list.status()).as("%s", list).isEqualTo(200);
        assertThat(list.bodyText()).contains("<Key>dir/a b+c.txt</Key>");

        // ?acl is a sub-resource: signed as part of the resource.
        String acl = url + "?acl";
        RawS3.Response readAcl = send("GET", acl, botocore.signHeader("GET", acl, Map.of()), null);
        assertThat(readAcl.status()).as("%s", readAcl).isEqualTo(200);
        assertThat(readAcl.bodyText()).contains("<AccessControlPolicy");

        RawS3.Response deleted = send("DELETE", url, botocore.signHeader("DELETE", url, Map.of()), null);
        assertThat(deleted.status()).as("%s", deleted).isEqualTo(204);
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("dir/a b+c.txt")), 404);
    }

    @Test
    void xAmzDateIsTheRequestTimeAndAStaleDateIsIgnored() {
        s3.putObject(request -> request.bucket(bucket).key("dated"), RequestBody.fromString("dated"));
        String url = objectUrl("dated");
        String now = DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.now().atOffset(ZoneOffset.UTC));
        Map<String, String> headers = new LinkedHashMap<>(
            botocore.signHeader("GET", url, Map.of("x-amz-date", now), 0, ""));
        // S3: with x-amz-date the Date line is empty, and the Date header counts for nothing.
        headers.put("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(
            Instant.now().minus(Duration.ofDays(1)).atOffset(ZoneOffset.UTC)));

        RawS3.Response read = send("GET", url, headers, null);

        assertThat(read.status()).as("%s", read).isEqualTo(200);
        assertThat(read.bodyText()).isEqualTo("dated");
    }

    @Test
    void aClockMoreThanFifteenMinutesOffIsRequestTimeTooSkewed() {
        String url = objectUrl("skewed");
        Map<String, String> late = botocore.signHeader("GET", url, Map.of(), -20 * 60, null);
        Map<String, String> early = botocore.signHeader("GET", url, Map.of(), 20 * 60, null);

        assertError(send("GET", url, late, null), 403, "RequestTimeTooSkewed");
        assertError(send("GET", url, early, null), 403, "RequestTimeTooSkewed");
    }

    @Test
    void aWrongSecretIsSignatureDoesNotMatchAndStoresNothing() {
        String url = objectUrl("wrong-secret");
        BotocoreSigner wrong = botocore.withKey(ACCESS_KEY, WRONG_SECRET);

        assertError(send("PUT", url, wrong.signHeader("PUT", url, Map.of()), new byte[] {1, 2, 3}), 403,
            "SignatureDoesNotMatch");
        assertError(get(wrong.presign("GET", url, Map.of(), 300)), 403, "SignatureDoesNotMatch");
        assertError(post(wrong.presignPost(endpoint().toString(), bucket, "wrong-secret", Map.of(), List.of(), 300),
            "x.txt", new byte[] {1}), 403, "SignatureDoesNotMatch");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("wrong-secret")), 404);
    }

    @Test
    void anUnknownKeyIsInvalidAccessKeyId() {
        String url = objectUrl("unknown-key");
        BotocoreSigner unknown = botocore.withKey("AKIDNOTKNOWNTOHANGAR", SECRET_KEY);

        assertError(send("PUT", url, unknown.signHeader("PUT", url, Map.of()), new byte[] {1}), 403,
            "InvalidAccessKeyId");
        assertError(get(unknown.presign("GET", url, Map.of(), 300)), 403, "InvalidAccessKeyId");
        assertError(post(unknown.presignPost(endpoint().toString(), bucket, "unknown-key", Map.of(), List.of(), 300),
            "x.txt", new byte[] {1}), 403, "InvalidAccessKeyId");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("unknown-key")), 404);
    }

    @Test
    void aTamperedSubResourceIsSignatureDoesNotMatch() {
        s3.putObject(request -> request.bucket(bucket).key("tamper"), RequestBody.fromString("tamper"));
        s3.putObjectTagging(request -> request.bucket(bucket).key("tamper")
            .tagging(tagging -> tagging.tagSet(tag -> tag.key("secret").value("yes"))));
        String url = objectUrl("tamper");

        // Signed for the object's ACL, sent for its tags.
        Map<String, String> aclHeaders = botocore.signHeader("GET", url + "?acl", Map.of());
        assertError(send("GET", url + "?tagging", aclHeaders, null), 403, "SignatureDoesNotMatch");
        // A presigned GET of the object, with a sub-resource added or changed.
        String presigned = botocore.presign("GET", url + "?versionId=null", Map.of(), 300);
        assertThat(get(presigned).status()).isEqualTo(200);
        assertError(get(presigned + "&tagging"), 403, "SignatureDoesNotMatch");
        assertError(get(presigned.replace("versionId=null", "versionId=other")), 403, "SignatureDoesNotMatch");
    }

    // ---------------------------------------------------------------- presigned URLs

    @Test
    void presignedGetWithAResponseOverrideAndPresignedPut() {
        byte[] body = RandomContent.of(2002, 5_000).bytes();
        String url = objectUrl("presigned v2.bin");
        String putUrl = botocore.presign("PUT", url, Map.of(), 300);
        assertThat(putUrl).contains("AWSAccessKeyId=").contains("Signature=").doesNotContain("X-Amz-");
        // Expires is an absolute time, seconds since the epoch.
        Matcher expires = EXPIRES.matcher(putUrl);
        assertThat(expires.find()).as("Expires in %s", putUrl).isTrue();
        assertThat(Long.parseLong(expires.group(1)))
            .isBetween(Instant.now().getEpochSecond() + 200, Instant.now().getEpochSecond() + 400);

        RawS3.Response stored = raw.send(HttpRequest.newBuilder(URI.create(putUrl))
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertThat(stored.status()).as("%s", stored).isEqualTo(200);

        RawS3.Response read = get(botocore.presign("GET", url + "?response-content-type=image%2Fx-test",
            Map.of(), 300));
        assertThat(read.status()).as("%s", read).isEqualTo(200);
        assertThat(read.body()).isEqualTo(body);
        assertThat(read.header("Content-Type")).contains("image/x-test");
    }

    @Test
    void anExpiredPresignedUrlIsAccessDenied() {
        s3.putObject(request -> request.bucket(bucket).key("expired"), RequestBody.fromString("expired"));

        RawS3.Response response = get(botocore.presign("GET", objectUrl("expired"), Map.of(), -5));

        assertError(response, 403, "AccessDenied");
        assertThat(response.bodyText()).contains("expired");
    }

    // ---------------------------------------------------------------- browser uploads

    @Test
    void aBoto3FormUploadsAndATamperedPolicyIsRefused() {
        byte[] file = RandomContent.of(2003, 20_000).bytes();
        Map<String, String> form = botocore.presignPost(endpoint().toString(), bucket, "forms/${filename}",
            Map.of("Content-Type", "image/png"),
            List.of(Map.of("Content-Type", "image/png"), List.of("content-length-range", 1, 1_000_000)), 300);
        assertThat(form).containsKeys("AWSAccessKeyId", "policy", "signature").doesNotContainKey("x-amz-signature");

        RawS3.Response uploaded = post(form, "photo.png", file);
        assertThat(uploaded.status()).as("%s", uploaded).isEqualTo(204);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("forms/photo.png")).asByteArray())
            .isEqualTo(file);

        Map<String, String> tampered = new LinkedHashMap<>(form);
        String policy = new String(Base64.getDecoder().decode(form.get("policy")), StandardCharsets.UTF_8);
        tampered.put("policy", Base64.getEncoder().encodeToString(
            policy.replace("1000000", "9000000").getBytes(StandardCharsets.UTF_8)));
        assertError(post(tampered, "other.png", file), 403, "SignatureDoesNotMatch");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("forms/other.png")), 404);
    }

    // ---------------------------------------------------------------- access checks and policy conditions

    @Test
    void aKeysPermissionsHoldForVersion2AsForVersion4() {
        s3.putObject(request -> request.bucket(bucket).key("readable"), RequestBody.fromString("readable"));
        AdminApi.Key reader = admin.createKey();
        admin.permit(reader.id(), bucket, true, false, false);
        BotocoreSigner signer = botocore.withKey(reader.id(), reader.secret());
        String url = objectUrl("readable");

        assertThat(send("GET", url, signer.signHeader("GET", url, Map.of()), null).status()).isEqualTo(200);
        assertError(send("PUT", url, signer.signHeader("PUT", url, Map.of()), new byte[] {1}), 403, "AccessDenied");
        assertError(post(signer.presignPost(endpoint().toString(), bucket, "readable", Map.of(), List.of(), 300),
            "x.txt", new byte[] {1}), 403, "AccessDenied");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("readable")).asUtf8String())
            .isEqualTo("readable");
    }

    @Test
    void policyConditionsSeeTheSignatureVersionAndAuthType() {
        String guarded = createBucket("sigv2-policy");
        s3.putObject(request -> request.bucket(guarded).key("doc"), RequestBody.fromString("doc"));
        AdminApi.Key key = admin.createKey();
        admin.permit(key.id(), guarded, true, true, false);
        s3.putBucketPolicy(request -> request.bucket(guarded).policy("""
            {"Version": "2012-10-17", "Statement": [
              {"Effect": "Deny", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%1$s/*",
               "Condition": {"StringEquals": {"s3:signatureversion": "AWS"}}},
              {"Effect": "Deny", "Principal": "*", "Action": "s3:PutObject", "Resource": "arn:aws:s3:::%1$s/*",
               "Condition": {"StringEquals": {"s3:authType": "REST-QUERY-STRING"}}}]}""".formatted(guarded)));
        BotocoreSigner signer = botocore.withKey(key.id(), key.secret());
        String url = endpoint() + "/" + guarded + "/doc";

        assertError(send("GET", url, signer.signHeader("GET", url, Map.of()), null), 403, "AccessDenied");
        assertError(get(signer.presign("GET", url, Map.of(), 300)), 403, "AccessDenied");
        try (S3Client version4 = clientFor(key.id(), key.secret())) {
            assertThat(version4.getObjectAsBytes(request -> request.bucket(guarded).key("doc")).asUtf8String())
                .isEqualTo("doc");
        }
        // The second statement: a header-signed V2 PUT passes, a presigned one does not.
        assertThat(send("PUT", url, signer.signHeader("PUT", url, Map.of()), "v2".getBytes(StandardCharsets.UTF_8))
            .status()).isEqualTo(200);
        RawS3.Response presignedPut = raw.send(HttpRequest.newBuilder(URI.create(signer.presign("PUT", url, Map.of(),
            300))).PUT(HttpRequest.BodyPublishers.ofString("presigned")).build());
        assertError(presignedPut, 403, "AccessDenied");
    }

    // ---------------------------------------------------------------- metrics

    @Test
    void acceptedSignaturesAreCountedByScheme() {
        s3.putObject(request -> request.bucket(bucket).key("counted"), RequestBody.fromString("counted"));
        // To the Spring test server: the counters scraped are its own.
        String server = "http://localhost:" + port;
        String url = server + "/" + bucket + "/counted";
        double header = authentications("v2-header");
        double query = authentications("v2-query");
        double form = authentications("v2-post");

        assertThat(send("GET", url, botocore.signHeader("GET", url, Map.of()), null).status()).isEqualTo(200);
        assertThat(get(botocore.presign("GET", url, Map.of(), 300)).status()).isEqualTo(200);
        assertThat(post(server, botocore.presignPost(server, bucket, "counted-form", Map.of(), List.of(), 300),
            "f.txt", new byte[] {1}).status()).isEqualTo(204);

        assertThat(authentications("v2-header")).isGreaterThanOrEqualTo(header + 1);
        assertThat(authentications("v2-query")).isGreaterThanOrEqualTo(query + 1);
        assertThat(authentications("v2-post")).isGreaterThanOrEqualTo(form + 1);
    }

    // ---------------------------------------------------------------- helpers

    private String objectUrl(String key) {
        return endpoint() + "/" + bucket + "/" + key.replace("%", "%25").replace(" ", "%20").replace("+", "%2B");
    }

    /** Sends a request with exactly the given headers (java.net.http adds Host and Content-Length). */
    private RawS3.Response send(String method, String url, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(2));
        headers.forEach((name, value) -> {
            if (!value.isEmpty()) {
                builder.header(name, value);
            }
        });
        builder.method(method, body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
        return raw.send(builder.build());
    }

    private RawS3.Response get(String url) {
        return raw.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(2)).GET().build());
    }

    private RawS3.Response post(Map<String, String> fields, String filename, byte[] file) {
        return post(endpoint().toString(), fields, filename, file);
    }

    private RawS3.Response post(String server, Map<String, String> fields, String filename, byte[] file) {
        FormBody body = FormBody.of(fields, filename, "application/octet-stream", file);
        return raw.send(HttpRequest.newBuilder(URI.create(server + "/" + bucket))
            .timeout(Duration.ofMinutes(2))
            .header("Content-Type", body.contentType())
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.bytes()))
            .build());
    }

    private static void assertError(RawS3.Response response, int status, String code) {
        assertThat(response.status()).as("status of %s", response).isEqualTo(status);
        assertThat(response.errorCode()).as("error code of %s", response).contains(code);
    }

    private double authentications(String scheme) {
        AdminApi.Response scrape = admin.get("/actuator/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        Pattern line = Pattern.compile("^hangar_s3_authentications_total\\{[^}]*scheme=\"" + scheme + "\"[^}]*} (\\S+)$",
            Pattern.MULTILINE);
        Matcher matcher = line.matcher(scrape.body());
        assertThat(matcher.find()).as("hangar_s3_authentications_total{scheme=%s} in the scrape", scheme).isTrue();
        return Double.parseDouble(matcher.group(1));
    }
}
