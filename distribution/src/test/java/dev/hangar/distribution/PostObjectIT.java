package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.FormBody;
import dev.hangar.distribution.support.FormBody.Field;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.RawS3;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * POST Object, browser-based uploads: multipart/form-data bodies built by hand and sent with
 * java.net.http, with a POST policy signed here with SigV4 (the secret key, the credential's day,
 * region and {@code s3}, over the base64 policy), as a web page's backend would sign it.
 */
class PostObjectIT extends AbstractS3IT {

    private static final DateTimeFormatter AMZ_DATE =
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final HexFormat HEX = HexFormat.of();

    private String bucket;

    @BeforeAll
    void createPostBucket() {
        bucket = createBucket("post");
    }

    @Test
    void defaultAnswerIs204AndStoresTheFileWithTheFormsHeadersAndFilename() {
        RandomContent content = RandomContent.of(1, 300 * 1024);
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"starts-with\", \"$key\", \"uploads/\"]",
            "{\"Content-Type\": \"image/png\"}",
            "[\"starts-with\", \"$x-amz-meta-origin\", \"\"]",
            "[\"content-length-range\", 1, 1048576]")
            .field("key", "uploads/${filename}")
            .field("Content-Type", "image/png")
            .field("x-amz-meta-origin", "browser form");

        URI node = endpoint();
        RawS3.Response response = post(node, bucket, form.withFile("photo.png", "application/octet-stream", content.bytes()));

        assertThat(response.status()).as("%s", response).isEqualTo(204);
        assertThat(response.body()).isEmpty();
        assertThat(response.header("ETag")).contains(content.etag());
        assertThat(response.header("Location")).contains(node + "/" + bucket + "/uploads%2Fphoto.png");
        ResponseBytes<GetObjectResponse> stored = s3.getObjectAsBytes(request -> request.bucket(bucket)
            .key("uploads/photo.png"));
        assertThat(stored.asByteArray()).isEqualTo(content.bytes());
        assertThat(stored.response().eTag()).isEqualTo(content.etag());
        assertThat(stored.response().contentType()).isEqualTo("image/png");
        assertThat(stored.response().metadata()).containsExactly(Map.entry("origin", "browser form"));
    }

    @Test
    void status201AnswersAPostResponseDocumentForAFileOfSeveralBlocks() {
        RandomContent content = RandomContent.of(2, 3L * MIB + 12345);
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"eq\", \"$key\", \"big/three mebibytes.bin\"]",
            "{\"success_action_status\": \"201\"}")
            .field("key", "big/three mebibytes.bin")
            .field("success_action_status", "201");

        URI node = endpoint();
        RawS3.Response response = post(node, bucket, form.withFile("three.bin", "application/octet-stream", content.bytes()));

        assertThat(response.status()).as("%s", response).isEqualTo(201);
        String location = node + "/" + bucket + "/big%2Fthree%20mebibytes.bin";
        assertThat(response.header("Location")).contains(location);
        assertThat(response.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/xml"));
        assertThat(response.bodyText()).contains(
            "<PostResponse><Location>" + location + "</Location><Bucket>" + bucket + "</Bucket>"
                + "<Key>big/three mebibytes.bin</Key><ETag>" + content.etag() + "</ETag>"
                + "</PostResponse>");
        ResponseBytes<GetObjectResponse> stored = s3.getObjectAsBytes(request -> request.bucket(bucket)
            .key("big/three mebibytes.bin"));
        assertThat(stored.response().contentLength()).isEqualTo(content.size());
        assertThat(stored.asByteArray()).isEqualTo(content.bytes());
        assertThat(stored.response().eTag()).isEqualTo(content.etag());
    }

    @Test
    void uploadsToAVersionedBucketGetAVersionIdEach() {
        String versioned = createBucket("post-versions");
        s3.putBucketVersioning(request -> request.bucket(versioned)
            .versioningConfiguration(configuration -> configuration.status("Enabled")));
        java.util.List<String> versionIds = new java.util.ArrayList<>();
        for (String text : new String[] {"first", "second"}) {
            Form form = signedForm(Instant.now().plusSeconds(600),
                "{\"bucket\": \"" + versioned + "\"}",
                "[\"eq\", \"$key\", \"doc.txt\"]")
                .field("key", "doc.txt");
            RawS3.Response response = post(versioned,
                form.withFile("doc.txt", "text/plain", text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            assertThat(response.status()).as("%s", response).isEqualTo(204);
            versionIds.add(response.header("x-amz-version-id").orElseThrow());
        }
        assertThat(versionIds).doesNotHaveDuplicates().doesNotContain("null");
        assertThat(s3.listObjectVersions(request -> request.bucket(versioned)).versions())
            .extracting(software.amazon.awssdk.services.s3.model.ObjectVersion::versionId)
            .containsExactlyInAnyOrderElementsOf(versionIds);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(versioned).key("doc.txt")
            .versionId(versionIds.get(0))).asUtf8String()).isEqualTo("first");
    }

    @Test
    void status200AnswersWithoutBody() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"small/ok\"}",
            "{\"success_action_status\": \"200\"}")
            .field("key", "small/ok")
            .field("success_action_status", "200");

        RawS3.Response response = post(form.withFile("ok.txt", "text/plain", "hello".getBytes(StandardCharsets.UTF_8)));

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertThat(response.body()).isEmpty();
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("small/ok")).asUtf8String())
            .isEqualTo("hello");
    }

    @Test
    void successActionRedirectAnswers303WithBucketKeyAndEtag() {
        byte[] bytes = "redirected".getBytes(StandardCharsets.UTF_8);
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"starts-with\", \"$key\", \"redirect/\"]",
            "[\"starts-with\", \"$success_action_redirect\", \"https://app.example.com/\"]")
            .field("key", "redirect/${filename}")
            .field("success_action_redirect", "https://app.example.com/done?upload=1");

        RawS3.Response response = post(form.withFile("a b.txt", "text/plain", bytes));

        String etag = "\"" + md5Hex(bytes) + "\"";
        assertThat(response.status()).as("%s", response).isEqualTo(303);
        assertThat(response.header("Location")).contains("https://app.example.com/done?upload=1&bucket=" + bucket
            + "&key=redirect%2Fa+b.txt&etag=" + URLEncoder.encode(etag, StandardCharsets.UTF_8));
        assertThat(response.header("ETag")).contains(etag);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("redirect/a b.txt")).asByteArray())
            .isEqualTo(bytes);
    }

    @Test
    void fieldsAfterTheFileAreIgnored() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"trailing/fields\"}")
            .field("key", "trailing/fields");

        RawS3.Response response = post(form.withFile("f.txt", "text/plain", "body".getBytes(StandardCharsets.UTF_8),
            List.of(new Field("x-amz-meta-late", "never checked"), new Field("key", "elsewhere"))));

        assertThat(response.status()).as("%s", response).isEqualTo(204);
        assertThat(s3.headObject(request -> request.bucket(bucket).key("trailing/fields")).metadata()).isEmpty();
    }

    @Test
    void aclAndTaggingFieldsAreStoredWithTheObject() {
        String tagging = "<Tagging><TagSet><Tag><Key>project</Key><Value>hangar</Value></Tag></TagSet></Tagging>";
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"public/readme.txt\"}",
            "{\"acl\": \"public-read\"}",
            "{\"tagging\": \"" + tagging + "\"}")
            .field("key", "public/readme.txt")
            .field("acl", "public-read")
            .field("tagging", tagging);

        RawS3.Response response = post(form.withFile("readme.txt", "text/plain",
            "read me".getBytes(StandardCharsets.UTF_8)));

        assertThat(response.status()).as("%s", response).isEqualTo(204);
        assertThat(s3.getObjectTagging(request -> request.bucket(bucket).key("public/readme.txt")).tagSet())
            .extracting(tag -> tag.key() + "=" + tag.value())
            .containsExactly("project=hangar");
        RawS3.Response anonymousGet = raw.send(HttpRequest.newBuilder(
            URI.create(endpoint() + "/" + bucket + "/public/readme.txt")).GET().build());
        assertThat(anonymousGet.status()).as("%s", anonymousGet).isEqualTo(200);
        assertThat(anonymousGet.bodyText()).isEqualTo("read me");
    }

    @Test
    void virtualHostStyleUploadAnswersTheBucketsUrlAsLocation() throws IOException {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"virtual/host\"}",
            "{\"success_action_status\": \"201\"}")
            .field("key", "virtual/host")
            .field("success_action_status", "201");
        FormBody body = form.withFile("v.txt", "text/plain", "virtual".getBytes(StandardCharsets.UTF_8));

        int node = nextPort();
        String response = rawPost(node, bucket + "." + DOMAIN + ":" + node, "/", body);

        assertThat(response).startsWith("HTTP/1.1 201");
        assertThat(response).contains("<Location>http://" + bucket + "." + DOMAIN + ":" + node + "/virtual%2Fhost</Location>");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("virtual/host")).asUtf8String())
            .isEqualTo("virtual");
    }

    @Test
    void expiredPolicyIsAccessDenied() {
        Form form = signedForm(Instant.now().minusSeconds(60),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/expired\"}")
            .field("key", "denied/expired");

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertError(response, 403, "AccessDenied", "Invalid according to Policy: Policy expired.");
        assertAbsent("denied/expired");
    }

    @Test
    void violatedConditionIsAccessDenied() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"starts-with\", \"$key\", \"user/42/\"]")
            .field("key", "user/43/${filename}");

        RawS3.Response response = post(form.withFile("x.txt", "text/plain", new byte[10]));

        assertError(response, 403, "AccessDenied",
            "Invalid according to Policy: Policy Condition failed: [\"starts-with\", \"$key\", \"user/42/\"]");
        assertAbsent("user/43/x.txt");
    }

    @Test
    void conditionOnAnotherBucketIsAccessDenied() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"some-other-bucket\"}",
            "{\"key\": \"denied/bucket\"}")
            .field("key", "denied/bucket");

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertThat(response.status()).as("%s", response).isEqualTo(403);
        assertThat(response.errorCode()).contains("AccessDenied");
        assertAbsent("denied/bucket");
    }

    @Test
    void fieldNoConditionCoversIsAccessDenied() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/extra\"}")
            .field("key", "denied/extra")
            .field("x-amz-meta-extra", "not in the policy")
            .field("x-ignore-submit", "Upload");

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertError(response, 403, "AccessDenied", "Invalid according to Policy: Extra input fields: x-amz-meta-extra");
        assertAbsent("denied/extra");
    }

    @Test
    void fileLargerThanTheContentLengthRangeIsEntityTooLarge() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/large\"}",
            "[\"content-length-range\", 0, 1000]")
            .field("key", "denied/large");

        RawS3.Response response = post(form.withFile("x", "application/octet-stream", new byte[1001]));

        assertError(response, 400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size");
        assertAbsent("denied/large");
    }

    @Test
    void fileOfSeveralBlocksPastTheContentLengthRangeIsCutOff() {
        RandomContent content = RandomContent.of(3, 3L * MIB);
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/large-blocks\"}",
            "[\"content-length-range\", 0, 1572864]")
            .field("key", "denied/large-blocks");

        RawS3.Response response = post(form.withFile("x", "application/octet-stream", content.bytes()));

        assertError(response, 400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size");
        assertAbsent("denied/large-blocks");
    }

    @Test
    void fileSmallerThanTheContentLengthRangeIsEntityTooSmall() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/small\"}",
            "[\"content-length-range\", 100, 1000]")
            .field("key", "denied/small");

        RawS3.Response response = post(form.withFile("x", "application/octet-stream", new byte[99]));

        assertError(response, 400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed size");
        assertAbsent("denied/small");
    }

    @Test
    void wrongSignatureIsSignatureDoesNotMatch() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/signature\"}")
            .field("key", "denied/signature");
        form.fields.put("x-amz-signature", sign("not-the-secret", form.fields.get("policy")));

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertThat(response.status()).as("%s", response).isEqualTo(403);
        assertThat(response.errorCode()).contains("SignatureDoesNotMatch");
        assertAbsent("denied/signature");
    }

    @Test
    void tamperedPolicyIsSignatureDoesNotMatch() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"starts-with\", \"$key\", \"\"]")
            .field("key", "denied/tampered");
        form.fields.put("policy", policy(Instant.now().plusSeconds(600), "{\"bucket\": \"" + bucket + "\"}",
            "[\"starts-with\", \"$key\", \"\"]", "[\"starts-with\", \"$x-amz-meta-evil\", \"\"]"));

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertThat(response.status()).as("%s", response).isEqualTo(403);
        assertThat(response.errorCode()).contains("SignatureDoesNotMatch");
    }

    @Test
    void unknownAccessKeyIsInvalidAccessKeyId() {
        Form form = signedForm("NOSUCHKEY0000000000", SECRET_KEY, Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/unknown-key\"}")
            .field("key", "denied/unknown-key");

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertThat(response.status()).as("%s", response).isEqualTo(403);
        assertThat(response.errorCode()).contains("InvalidAccessKeyId");
    }

    @Test
    void policyWithoutItsSignatureIsInvalidArgument() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/unsigned\"}")
            .field("key", "denied/unsigned");
        form.fields.remove("x-amz-signature");

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertError(response, 400, "InvalidArgument",
            "Bucket POST must contain a field named 'x-amz-signature'.  If it is specified, please check the order of the fields.");
    }

    @Test
    void malformedPolicyIsInvalidPolicyDocument() {
        Form form = new Form();
        String policy = Base64.getEncoder().encodeToString("{\"conditions\": []}".getBytes(StandardCharsets.UTF_8));
        form.signWith(ACCESS_KEY, SECRET_KEY, policy).field("key", "denied/malformed");

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).contains("InvalidPolicyDocument");
    }

    @Test
    void formWithoutKeyIsInvalidArgument() {
        Form form = signedForm(Instant.now().plusSeconds(600), "{\"bucket\": \"" + bucket + "\"}");

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertError(response, 400, "InvalidArgument",
            "Bucket POST must contain a field named 'key'.  If it is specified, please check the order of the fields.");
    }

    @Test
    void formWithoutFileIsIncorrectNumberOfFiles() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/no-file\"}")
            .field("key", "denied/no-file");

        RawS3.Response response = post(form.withoutFile());

        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).contains("IncorrectNumberOfFilesInPostRequest");
    }

    @Test
    void fieldsOverTwentyKilobytesAreRefused() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"denied/fields\"}",
            "[\"starts-with\", \"$x-amz-meta-big\", \"\"]")
            .field("key", "denied/fields")
            .field("x-amz-meta-big", "b".repeat(21 * 1024));

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).contains("MaxPostPreDataLengthExceededError");
        assertAbsent("denied/fields");
    }

    @Test
    void postThatIsNotMultipartIsRefused() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString("key=a&policy=b"))
            .build();

        RawS3.Response response = raw.send(request);

        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).contains("RequestIsNotMultiPartContent");
    }

    @Test
    void anonymousUploadWithoutPolicyToAPrivateBucketIsAccessDenied() {
        Form form = new Form().field("key", "anonymous/private");

        RawS3.Response response = post(form.withFile("x", "text/plain", new byte[10]));

        assertThat(response.status()).as("%s", response).isEqualTo(403);
        assertThat(response.errorCode()).contains("AccessDenied");
        assertAbsent("anonymous/private");
    }

    @Test
    void anonymousUploadWithoutPolicyToAPublicReadWriteBucketIsStored() {
        String publicBucket = createBucket("post-public");
        s3.putBucketAcl(request -> request.bucket(publicBucket).acl(BucketCannedACL.PUBLIC_READ_WRITE));
        Form form = new Form().field("key", "anonymous/${filename}").field("Content-Type", "text/plain");

        RawS3.Response response = post(publicBucket, form.withFile("hello.txt", "text/plain",
            "anyone".getBytes(StandardCharsets.UTF_8)));

        assertThat(response.status()).as("%s", response).isEqualTo(204);
        ResponseBytes<GetObjectResponse> stored = s3.getObjectAsBytes(request -> request.bucket(publicBucket)
            .key("anonymous/hello.txt"));
        assertThat(stored.asUtf8String()).isEqualTo("anyone");
        assertThat(stored.response().contentType()).isEqualTo("text/plain");
    }

    /**
     * Form fields ask for what a PUT's headers ask for: {@code x-amz-server-side-encryption: AES256} and the SSE-C
     * fields seal the file as a PUT's would; SSE-KMS is not implemented and stores nothing.
     */
    @Test
    void encryptionFieldsSealTheFileAsAPutsHeadersWould() {
        Form managed = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"eq\", \"$key\", \"sse-s3\"]",
            "{\"x-amz-server-side-encryption\": \"AES256\"}")
            .field("key", "sse-s3")
            .field("x-amz-server-side-encryption", "AES256");
        RawS3.Response stored = post(managed.withFile("secret.txt", "text/plain", "managed".getBytes(StandardCharsets.UTF_8)));
        assertThat(stored.status()).as("%s", stored).isEqualTo(204);
        assertThat(stored.header("x-amz-server-side-encryption")).hasValue("AES256");
        var got = s3.getObjectAsBytes(request -> request.bucket(bucket).key("sse-s3"));
        assertThat(got.asUtf8String()).isEqualTo("managed");
        assertThat(got.response().serverSideEncryptionAsString()).isEqualTo("AES256");

        byte[] key = new byte[32];
        new java.util.Random(3).nextBytes(key);
        String keyBase64 = java.util.Base64.getEncoder().encodeToString(key);
        String keyMd5;
        try {
            keyMd5 = java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("MD5").digest(key));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Form customer = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"eq\", \"$key\", \"sse-c\"]",
            "[\"starts-with\", \"$x-amz-server-side-encryption-customer-algorithm\", \"\"]",
            "[\"starts-with\", \"$x-amz-server-side-encryption-customer-key\", \"\"]",
            "[\"starts-with\", \"$x-amz-server-side-encryption-customer-key-MD5\", \"\"]")
            .field("key", "sse-c")
            .field("x-amz-server-side-encryption-customer-algorithm", "AES256")
            .field("x-amz-server-side-encryption-customer-key", keyBase64)
            .field("x-amz-server-side-encryption-customer-key-MD5", keyMd5);
        RawS3.Response sealed = post(customer.withFile("secret.txt", "text/plain", "customer".getBytes(StandardCharsets.UTF_8)));
        assertThat(sealed.status()).as("%s", sealed).isEqualTo(204);
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("sse-c")), 400);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("sse-c").sseCustomerAlgorithm("AES256")
            .sseCustomerKey(keyBase64).sseCustomerKeyMD5(keyMd5)).asUtf8String()).isEqualTo("customer");

        Form kms = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"eq\", \"$key\", \"encrypted\"]",
            "{\"x-amz-server-side-encryption\": \"aws:kms:dsse\"}")
            .field("key", "encrypted")
            .field("x-amz-server-side-encryption", "aws:kms:dsse");
        RawS3.Response response = post(kms.withFile("secret.txt", "text/plain", "secret".getBytes(StandardCharsets.UTF_8)));
        assertThat(response.status()).as("%s", response).isEqualTo(501);
        assertThat(response.errorCode()).contains("NotImplemented");
        assertThat(response.bodyText()).contains("aws:kms:dsse");
        assertAbsent("encrypted");
    }

    @Test
    void aStorageClassFieldOtherThanStandardIsRefused() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"eq\", \"$key\", \"archived\"]",
            "{\"x-amz-storage-class\": \"GLACIER\"}")
            .field("key", "archived")
            .field("x-amz-storage-class", "GLACIER");

        RawS3.Response response = post(form.withFile("a.txt", "text/plain", "a".getBytes(StandardCharsets.UTF_8)));

        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).contains("InvalidStorageClass");
        assertAbsent("archived");
    }

    @Test
    void grantFieldsAreAPutsGrantHeaders() {
        String allUsers = "uri=\"http://acs.amazonaws.com/groups/global/AllUsers\"";
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"granted/readme.txt\"}",
            "[\"starts-with\", \"$x-amz-grant-read\", \"\"]")
            .field("key", "granted/readme.txt")
            .field("x-amz-grant-read", allUsers);

        RawS3.Response response = post(form.withFile("readme.txt", "text/plain",
            "read me".getBytes(StandardCharsets.UTF_8)));

        assertThat(response.status()).as("%s", response).isEqualTo(204);
        assertThat(s3.getObjectAcl(request -> request.bucket(bucket).key("granted/readme.txt")).grants())
            .singleElement().satisfies(grant -> assertThat(grant.permission().toString()).isEqualTo("READ"));
        RawS3.Response anonymousGet = raw.send(HttpRequest.newBuilder(
            URI.create(endpoint() + "/" + bucket + "/granted/readme.txt")).GET().build());
        assertThat(anonymousGet.status()).as("%s", anonymousGet).isEqualTo(200);

        Form unknown = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "{\"key\": \"granted/unknown.txt\"}",
            "[\"starts-with\", \"$x-amz-grant-read\", \"\"]")
            .field("key", "granted/unknown.txt")
            .field("x-amz-grant-read", "id=\"nobody-has-this-id\"");
        RawS3.Response refused = post(unknown.withFile("a.txt", "text/plain", "a".getBytes(StandardCharsets.UTF_8)));
        assertError(refused, 400, "InvalidArgument", "Invalid id");
        assertAbsent("granted/unknown.txt");
    }

    /**
     * A form field can hold a line break, which no header can: stored, it would make every later GET of the
     * object fail. It is refused with the upload.
     */
    @Test
    void aFieldNoHeaderCouldCarryIsRefused() {
        Form form = signedForm(Instant.now().plusSeconds(600),
            "{\"bucket\": \"" + bucket + "\"}",
            "[\"eq\", \"$key\", \"injected\"]",
            "[\"starts-with\", \"$x-amz-meta-note\", \"\"]")
            .field("key", "injected")
            .field("x-amz-meta-note", "line 1\r\nX-Injected: 1");

        RawS3.Response response = post(form.withFile("a.txt", "text/plain", "a".getBytes(StandardCharsets.UTF_8)));

        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).contains("InvalidArgument");
        assertAbsent("injected");
    }

    // --- helpers ---

    private void assertError(RawS3.Response response, int status, String code, String message) {
        assertThat(response.status()).as("%s", response).isEqualTo(status);
        assertThat(response.errorCode()).as("%s", response).contains(code);
        assertThat(response.bodyText()).contains("<Message>" + xmlEscaped(message) + "</Message>");
    }

    private void assertAbsent(String key) {
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(key)), 404);
    }

    private static String xmlEscaped(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private RawS3.Response post(FormBody body) {
        return post(bucket, body);
    }

    private RawS3.Response post(String target, FormBody body) {
        return post(endpoint(), target, body);
    }

    private RawS3.Response post(URI node, String target, FormBody body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(node + "/" + target))
            .version(HttpClient.Version.HTTP_1_1)
            .timeout(Duration.ofMinutes(2))
            .header("Content-Type", "multipart/form-data; boundary=" + body.boundary())
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.bytes()))
            .build();
        return raw.send(request);
    }

    /** A POST over a plain socket to the node at {@code port}, for a Host header java.net.http will not send. */
    private static String rawPost(int port, String host, String path, FormBody body) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            String head = "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
                + "Content-Type: multipart/form-data; boundary=" + body.boundary() + "\r\n"
                + "Content-Length: " + body.bytes().length + "\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body.bytes());
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Form signedForm(Instant expiration, String... conditions) {
        return signedForm(ACCESS_KEY, SECRET_KEY, expiration, conditions);
    }

    /**
     * A form signed as a backend signs one: the policy lists the given conditions plus those of the
     * signature fields (x-amz-algorithm, x-amz-credential, x-amz-date), which every field must be covered by.
     */
    private static Form signedForm(String accessKey, String secretKey, Instant expiration, String... conditions) {
        Instant now = Instant.now();
        String credential = accessKey + "/" + AMZ_DATE.format(now).substring(0, 8) + "/" + REGION + "/s3/aws4_request";
        List<String> all = new ArrayList<>(List.of(conditions));
        all.add("{\"x-amz-algorithm\": \"AWS4-HMAC-SHA256\"}");
        all.add("{\"x-amz-credential\": \"" + credential + "\"}");
        all.add("{\"x-amz-date\": \"" + AMZ_DATE.format(now) + "\"}");
        String policy = policy(expiration, all.toArray(String[]::new));
        return new Form().signWith(accessKey, secretKey, policy, now);
    }

    private static String policy(Instant expiration, String... conditions) {
        String json = "{\"expiration\": \"" + DateTimeFormatter.ISO_INSTANT.format(expiration.truncatedTo(
            java.time.temporal.ChronoUnit.MILLIS)) + "\",\n \"conditions\": [" + String.join(",\n  ", conditions) + "]}";
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The SigV4 signature of a POST policy: HMAC-SHA256 of the base64 text under the derived signing key. */
    private static String sign(String secretKey, String base64Policy) {
        return sign(secretKey, base64Policy, Instant.now());
    }

    private static String sign(String secretKey, String base64Policy, Instant at) {
        byte[] dateKey = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), AMZ_DATE.format(at).substring(0, 8));
        byte[] regionKey = hmac(dateKey, REGION);
        byte[] serviceKey = hmac(regionKey, "s3");
        byte[] signingKey = hmac(serviceKey, "aws4_request");
        return HEX.formatHex(hmac(signingKey, base64Policy));
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String md5Hex(byte[] bytes) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fields of a form, in the order they are sent, and how they are encoded around the file. */
    private static final class Form {
        final Map<String, String> fields = new LinkedHashMap<>();

        Form field(String name, String value) {
            fields.put(name, value);
            return this;
        }

        Form signWith(String accessKey, String secretKey, String base64Policy) {
            return signWith(accessKey, secretKey, base64Policy, Instant.now());
        }

        Form signWith(String accessKey, String secretKey, String base64Policy, Instant at) {
            String date = AMZ_DATE.format(at);
            fields.put("x-amz-algorithm", "AWS4-HMAC-SHA256");
            fields.put("x-amz-credential", accessKey + "/" + date.substring(0, 8) + "/" + REGION + "/s3/aws4_request");
            fields.put("x-amz-date", date);
            fields.put("policy", base64Policy);
            fields.put("x-amz-signature", sign(secretKey, base64Policy, at));
            return this;
        }

        FormBody withFile(String filename, String contentType, byte[] file) {
            return FormBody.of(fields, filename, contentType, file);
        }

        FormBody withFile(String filename, String contentType, byte[] file, List<Field> after) {
            return FormBody.of(fields, filename, contentType, file, after);
        }

        FormBody withoutFile() {
            return FormBody.withoutFile(fields);
        }

        @Override
        public String toString() {
            return fields.entrySet().stream().map(Object::toString).collect(Collectors.joining(", "));
        }
    }
}
