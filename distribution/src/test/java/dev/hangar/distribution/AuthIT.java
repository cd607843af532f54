package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.FlexibleChecksum;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.RawHttp;
import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Signature V4: wrong secret, unknown key, anonymous requests, presigned URLs and their expiry,
 * clock skew, every payload mode ({@code UNSIGNED-PAYLOAD}, signed hex SHA-256,
 * {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD}, the streaming trailer modes with each checksum),
 * tampered bodies and digests, and that a rejected upload leaves nothing behind.
 *
 * <p>Raw requests are signed by the SDK's {@link AwsV4HttpSigner} and sent with java.net.http;
 * see {@link RawS3}.
 */
class AuthIT extends AbstractS3IT {

    private static final int BODY_SIZE = 300_000; // the signer cuts 128 KiB chunks: three data chunks

    private String bucket;
    // One per node: presigned URLs go to every node in turn, as the other requests do.
    private final Map<URI, S3Presigner> presigners = new ConcurrentHashMap<>();

    @BeforeAll
    void setUp() {
        bucket = createBucket("auth");
    }

    @AfterAll
    void tearDown() {
        presigners.values().forEach(S3Presigner::close);
    }

    /** A presigner for the node that takes the next request. */
    private S3Presigner presigner() {
        return presigners.computeIfAbsent(endpoint(), node -> S3Clients.presigner(node, ACCESS_KEY, SECRET_KEY));
    }

    // ---------------------------------------------------------------- credentials

    @Test
    void wrongSecretIsSignatureDoesNotMatch() {
        try (S3Client wrong = clientFor(ACCESS_KEY, "not-the-secret-key-at-all-0000000000000000")) {
            assertS3Error(wrong::listBuckets, 403, "SignatureDoesNotMatch");
            assertS3Error(() -> wrong.getObjectAsBytes(request -> request.bucket(bucket).key("anything")), 403, "SignatureDoesNotMatch");
            assertS3Error(() -> wrong.putObject(request -> request.bucket(bucket).key("wrong-secret"), RequestBody.fromString("x")),
                403, "SignatureDoesNotMatch");
        }
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("wrong-secret")), 404);
    }

    @Test
    void unknownAccessKeyIsInvalidAccessKeyId() {
        try (S3Client unknown = clientFor("AKIDNOTKNOWNTOHANGAR", SECRET_KEY)) {
            assertS3Error(unknown::listBuckets, 403, "InvalidAccessKeyId");
            assertS3Error(() -> unknown.putObject(request -> request.bucket(bucket).key("unknown-key"), RequestBody.fromString("x")),
                403, "InvalidAccessKeyId");
        }
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("unknown-key")), 404);
    }

    @Test
    void anonymousRequestsAreDenied() {
        s3.putObject(request -> request.bucket(bucket).key("private"), RequestBody.fromString("secret"));

        RawS3.Response get = raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "/private")).GET().build());
        assertThat(get.status()).isEqualTo(403);
        assertThat(get.errorCode()).contains("AccessDenied");

        RawS3.Response list = raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/")).GET().build());
        assertThat(list.status()).isEqualTo(403);
        assertThat(list.errorCode()).contains("AccessDenied");

        RawS3.Response put = raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "/anonymous-put"))
            .PUT(HttpRequest.BodyPublishers.ofString("intruder")).build());
        assertThat(put.status()).isEqualTo(403);
        assertThat(put.errorCode()).contains("AccessDenied");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("anonymous-put")), 404);
    }

    @Test
    void anonymousRequestsToABucketThatDoesNotExistAreNoSuchBucket() {
        String missing = bucket + "-missing";
        String base = endpoint() + "/" + missing;

        RawS3.Response get = raw.send(HttpRequest.newBuilder(URI.create(base + "/key")).GET().build());
        assertRawError(get, 404, "NoSuchBucket");
        RawS3.Response list = raw.send(HttpRequest.newBuilder(URI.create(base + "?list-type=2")).GET().build());
        assertRawError(list, 404, "NoSuchBucket");
        RawS3.Response put = raw.send(HttpRequest.newBuilder(URI.create(base + "/key"))
            .PUT(HttpRequest.BodyPublishers.ofString("intruder")).build());
        assertRawError(put, 404, "NoSuchBucket");
        RawS3.Response headObject = raw.send(HttpRequest.newBuilder(URI.create(base + "/key"))
            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
        assertThat(headObject.status()).isEqualTo(404);
        RawS3.Response headBucket = raw.send(HttpRequest.newBuilder(URI.create(base))
            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
        assertThat(headBucket.status()).isEqualTo(404);

        // An existing private bucket keeps answering AccessDenied to the same requests.
        assertRawError(raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "/key")).GET().build()),
            403, "AccessDenied");
        assertRawError(raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "?list-type=2")).GET().build()),
            403, "AccessDenied");
        assertThat(raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket))
            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build()).status()).isEqualTo(403);
    }

    // ---------------------------------------------------------------- presigned URLs

    @Test
    void presignedGetAndPut() {
        byte[] body = RandomContent.of(701, 5000).bytes();
        URI putUrl = URI.create(presigner().presignPutObject(request -> request.signatureDuration(Duration.ofMinutes(5))
            .putObjectRequest(put -> put.bucket(bucket).key("presigned"))).url().toString());
        RawS3.Response put = raw.send(HttpRequest.newBuilder(putUrl).PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build());
        assertThat(put.status()).as("%s", put).isEqualTo(200);
        assertThat(put.header("ETag")).contains('"' + Digests.md5Hex(body) + '"');

        URI getUrl = URI.create(presigner().presignGetObject(request -> request.signatureDuration(Duration.ofMinutes(5))
            .getObjectRequest(get -> get.bucket(bucket).key("presigned"))).url().toString());
        RawS3.Response get = raw.send(HttpRequest.newBuilder(getUrl).GET().build());
        assertThat(get.status()).as("%s", get).isEqualTo(200);
        assertThat(get.body()).isEqualTo(body);

        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("presigned")).asByteArray()).isEqualTo(body);
    }

    /**
     * A PUT whose body comes in HTTP chunks with no Content-Length is taken when its payload is unsigned, as S3
     * takes it: presigned, header-signed with UNSIGNED-PAYLOAD, or anonymous. Small bodies and bodies over the
     * inline threshold alike. A signed payload hash still needs the length it covers: 411 MissingContentLength.
     */
    @Test
    void anUnsignedPutMayStreamItsBodyInChunksWithoutALength() {
        byte[] small = RandomContent.of(702, 700).bytes();
        byte[] large = RandomContent.of(703, 3 * 1024 * 1024 + 17).bytes();

        for (byte[] body : new byte[][] {small, large}) {
            String key = "chunked-presigned-" + body.length;
            URI putUrl = URI.create(presigner().presignPutObject(request -> request.signatureDuration(Duration.ofMinutes(5))
                .putObjectRequest(put -> put.bucket(bucket).key(key))).url().toString());
            // A body publisher of unknown length: java.net.http sends it chunked, with no Content-Length.
            RawS3.Response put = raw.send(HttpRequest.newBuilder(putUrl)
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body))).build());
            assertThat(put.status()).as("%s", put).isEqualTo(200);
            assertThat(put.header("ETag")).contains('"' + Digests.md5Hex(body) + '"');
            assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asByteArray()).isEqualTo(body);
        }

        SdkHttpRequest unsigned = raw.request(SdkHttpMethod.PUT, "/" + bucket + "/chunked-unsigned").build();
        RawHttp.Answer taken = RawHttp.exchange(unsigned.port(), chunked(raw.sign(unsigned, (byte[]) null,
            properties -> properties.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false)).request(), large));
        assertThat(taken.status()).as("%s", taken).isEqualTo(200);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("chunked-unsigned")).asByteArray())
            .isEqualTo(large);

        SdkHttpRequest signedPayload = raw.request(SdkHttpMethod.PUT, "/" + bucket + "/chunked-signed").build();
        RawHttp.Answer refused = RawHttp.exchange(signedPayload.port(), chunked(raw.sign(signedPayload, small,
            properties -> properties.putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, true)).request(), small));
        assertThat(refused.status()).as("%s", refused).isEqualTo(411);
        assertThat(refused.errorCode()).contains("MissingContentLength");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("chunked-signed")), 404);

        String open = createBucket("chunked-open");
        s3.putBucketAcl(request -> request.bucket(open).acl(software.amazon.awssdk.services.s3.model.BucketCannedACL.PUBLIC_READ_WRITE));
        RawS3.Response anonymous = raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + open + "/anonymous"))
            .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(small))).build());
        assertThat(anonymous.status()).as("%s", anonymous).isEqualTo(200);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(open).key("anonymous")).asByteArray()).isEqualTo(small);
    }

    /** The bytes of a signed request sent with {@code Transfer-Encoding: chunked} and no Content-Length. */
    private static byte[] chunked(SdkHttpRequest signed, byte[] body) {
        StringBuilder head = new StringBuilder("PUT " + signed.encodedPath() + " HTTP/1.1\r\n");
        if (signed.firstMatchingHeader("Host").isEmpty()) {
            head.append("Host: ").append(signed.host()).append(':').append(signed.port()).append("\r\n");
        }
        signed.forEachHeader((name, values) -> values.forEach(value -> head.append(name).append(": ").append(value)
            .append("\r\n")));
        head.append("Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int chunk = 64 * 1024;
        for (int offset = 0; offset < body.length; offset += chunk) {
            int size = Math.min(chunk, body.length - offset);
            out.writeBytes((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body, offset, size);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return RawHttp.request(head.toString(), out.toByteArray());
    }

    @Test
    void tamperedPresignedUrlIsSignatureDoesNotMatch() {
        s3.putObject(request -> request.bucket(bucket).key("presigned-tamper"), RequestBody.fromString("x"));
        String url = presigner().presignGetObject(request -> request.signatureDuration(Duration.ofMinutes(5))
            .getObjectRequest(get -> get.bucket(bucket).key("presigned-tamper"))).url().toString();
        String tampered = url.replace("presigned-tamper", "presigned-tampex");
        RawS3.Response response = raw.send(HttpRequest.newBuilder(URI.create(tampered)).GET().build());
        assertThat(response.status()).isEqualTo(403);
        assertThat(response.errorCode()).contains("SignatureDoesNotMatch");
    }

    /** An X-Amz-Expires under a second or over a week is refused as S3 does: 403 AuthorizationQueryParametersError. */
    @ParameterizedTest(name = "X-Amz-Expires={0}")
    @ValueSource(strings = {"604801", "0", "-1"})
    void presignedUrlWithExpiryOutOfRangeIsRefusedWith403(String expires) {
        s3.putObject(request -> request.bucket(bucket).key("presigned-range"), RequestBody.fromString("x"));
        String url = presigner().presignGetObject(request -> request.signatureDuration(Duration.ofMinutes(5))
            .getObjectRequest(get -> get.bucket(bucket).key("presigned-range"))).url().toString();
        assertThat(url).contains("X-Amz-Expires=300");

        RawS3.Response response = raw.send(HttpRequest.newBuilder(
            URI.create(url.replace("X-Amz-Expires=300", "X-Amz-Expires=" + expires))).GET().build());
        assertThat(response.status()).as("%s", response).isEqualTo(403);
        assertThat(response.errorCode()).contains("AuthorizationQueryParametersError");
    }

    @Test
    void expiredPresignedUrlIsAccessDenied() throws InterruptedException {
        s3.putObject(request -> request.bucket(bucket).key("presigned-expiring"), RequestBody.fromString("soon gone"));
        URI url = URI.create(presigner().presignGetObject(request -> request.signatureDuration(Duration.ofSeconds(1))
            .getObjectRequest(get -> get.bucket(bucket).key("presigned-expiring"))).url().toString());
        Thread.sleep(2_500);
        RawS3.Response response = raw.send(HttpRequest.newBuilder(url).GET().build());
        assertThat(response.status()).isEqualTo(403);
        assertThat(response.errorCode()).contains("AccessDenied");
    }

    @Test
    void presignedUrlIsValidFromItsDateUntilItsExpiryWhateverTheSkew() {
        s3.putObject(request -> request.bucket(bucket).key("presigned-old"), RequestBody.fromString("still valid"));
        SdkHttpRequest get = raw.request(SdkHttpMethod.GET, "/" + bucket + "/presigned-old").build();

        // Signed 30 minutes ago, valid for an hour: the 15-minute skew rule does not apply to presigned URLs.
        RawS3.Response valid = raw.send(raw.sign(get, (byte[]) null, presign(Duration.ofMinutes(-30), Duration.ofHours(1))));
        assertThat(valid.status()).as("%s", valid).isEqualTo(200);
        assertThat(valid.bodyText()).isEqualTo("still valid");

        // Signed two hours ago, valid for an hour: expired.
        RawS3.Response expired = raw.send(raw.sign(get, (byte[]) null, presign(Duration.ofHours(-2), Duration.ofHours(1))));
        assertThat(expired.status()).isEqualTo(403);
        assertThat(expired.errorCode()).contains("AccessDenied");
    }

    private static Consumer<SignRequest.Builder<AwsCredentialsIdentity>> presign(Duration clockOffset, Duration expiry) {
        // S3 presigned URLs carry no payload hash: the canonical request ends in UNSIGNED-PAYLOAD.
        return properties -> properties
            .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
            .putProperty(AwsV4HttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
            .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, expiry)
            .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.offset(Clock.systemUTC(), clockOffset));
    }

    // ---------------------------------------------------------------- clock skew

    @ParameterizedTest(name = "{0} minutes")
    @ValueSource(ints = {-20, 20})
    void clockSkewOverFifteenMinutesIsRequestTimeTooSkewed(int minutes) {
        SdkHttpRequest list = raw.request(SdkHttpMethod.GET, "/" + bucket).build();
        RawS3.Response response = raw.send(raw.sign(list, (byte[]) null, skewed(Duration.ofMinutes(minutes))));
        assertThat(response.status()).as("%s", response).isEqualTo(403);
        assertThat(response.errorCode()).contains("RequestTimeTooSkewed");
    }

    @ParameterizedTest(name = "{0} minutes")
    @ValueSource(ints = {-10, 10})
    void clockSkewWithinFifteenMinutesIsAccepted(int minutes) {
        SdkHttpRequest list = raw.request(SdkHttpMethod.GET, "/" + bucket).build();
        RawS3.Response response = raw.send(raw.sign(list, (byte[]) null, skewed(Duration.ofMinutes(minutes))));
        assertThat(response.status()).as("%s", response).isEqualTo(200);
    }

    @Test
    void skewedUploadLeavesNothingBehind() {
        assertFailedUploadLeavesNoTrace("skewed-upload", key -> {
            byte[] body = RandomContent.of(702, 1000).bytes();
            SignedRequest signed = raw.sign(putRequest(key, body, false, Map.of()), body, skewed(Duration.ofMinutes(-30)));
            assertRawError(raw.send(signed), 403, "RequestTimeTooSkewed");
        });
    }

    /**
     * Every answer carries the server's time in a Date header, as S3's do: a success, an S3 error, a
     * RequestTimeTooSkewed refusal and a request refused before it reaches the S3 handler.
     */
    @Test
    void everyAnswerCarriesTheServersDate() {
        RawS3.Response listed = raw.send(raw.sign(raw.request(SdkHttpMethod.GET, "/" + bucket).build(), (byte[]) null, properties -> { }));
        assertThat(listed.status()).as("%s", listed).isEqualTo(200);
        assertServersDate(listed.header("Date"), listed);

        RawS3.Response missing = raw.send(raw.sign(raw.request(SdkHttpMethod.GET, "/" + bucket + "/no-such-key").build(),
            (byte[]) null, properties -> { }));
        assertThat(missing.errorCode()).as("%s", missing).contains("NoSuchKey");
        assertServersDate(missing.header("Date"), missing);

        RawS3.Response skewed = raw.send(raw.sign(raw.request(SdkHttpMethod.GET, "/" + bucket).build(), (byte[]) null,
            skewed(Duration.ofMinutes(-40))));
        assertThat(skewed.errorCode()).as("%s", skewed).contains("RequestTimeTooSkewed");
        assertServersDate(skewed.header("Date"), skewed);

        RawHttp.Answer refused = RawHttp.exchange(nextPort(), RawHttp.request(
            "GET /" + bucket + "/%ZZ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", new byte[0]));
        assertThat(refused.errorCode()).as("%s", refused).contains("InvalidURI");
        assertServersDate(refused.header("Date"), refused);
    }

    /**
     * A client whose clock is 40 minutes slow is refused, and corrects its clock by the Date of the refusal as
     * the SDKs do (the AWS SDK for Java v2 and for JavaScript v3 take the server's time from it): its next
     * request, signed with the corrected clock, is taken. Without a Date header such a client stays refused.
     */
    @Test
    void aClientCorrectsItsClockByTheDateOfARequestTimeTooSkewedRefusal() {
        Duration slow = Duration.ofMinutes(-40);
        SdkHttpRequest list = raw.request(SdkHttpMethod.GET, "/" + bucket).build();
        RawS3.Response refused = raw.send(raw.sign(list, (byte[]) null, skewed(slow)));
        assertThat(refused.status()).as("%s", refused).isEqualTo(403);
        assertThat(refused.errorCode()).contains("RequestTimeTooSkewed");

        Instant serverTime = ZonedDateTime.parse(refused.header("Date").orElseThrow(), DateTimeFormatter.RFC_1123_DATE_TIME)
            .toInstant();
        Duration correction = Duration.between(Clock.offset(Clock.systemUTC(), slow).instant(), serverTime);
        RawS3.Response taken = raw.send(raw.sign(list, (byte[]) null, skewed(slow.plus(correction))));
        assertThat(taken.status()).as("%s", taken).isEqualTo(200);
    }

    /** An IMF-fixdate (RFC 9110: "Sun, 06 Nov 1994 08:49:37 GMT") within a minute of now. */
    private static void assertServersDate(Optional<String> date, Object answer) {
        assertThat(date).as("the Date header of %s", answer).isPresent();
        assertThat(date.orElseThrow()).matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
        Instant sent = ZonedDateTime.parse(date.orElseThrow(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        assertThat(Duration.between(sent, Instant.now()).abs()).as("%s against this machine's clock", date.orElseThrow())
            .isLessThan(Duration.ofMinutes(1));
    }

    private static Consumer<SignRequest.Builder<AwsCredentialsIdentity>> skewed(Duration offset) {
        return properties -> properties.putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.offset(Clock.systemUTC(), offset));
    }

    // ---------------------------------------------------------------- payload modes

    enum PayloadMode {
        UNSIGNED_PAYLOAD("UNSIGNED-PAYLOAD", true, false, false),
        SIGNED_SHA256(null, false, true, false),
        STREAMING_SIGNED("STREAMING-AWS4-HMAC-SHA256-PAYLOAD", false, true, true);

        final String contentSha256;
        final boolean signAsHttps;
        final boolean payloadSigning;
        final boolean chunkEncoding;

        PayloadMode(String contentSha256, boolean signAsHttps, boolean payloadSigning, boolean chunkEncoding) {
            this.contentSha256 = contentSha256;
            this.signAsHttps = signAsHttps;
            this.payloadSigning = payloadSigning;
            this.chunkEncoding = chunkEncoding;
        }
    }

    @ParameterizedTest
    @EnumSource(PayloadMode.class)
    void payloadModes(PayloadMode mode) {
        for (int size : new int[] {0, 100, BODY_SIZE}) {
            byte[] body = RandomContent.of(710 + size, size).bytes();
            String key = "modes/" + mode + "-" + size;
            SignedRequest signed = raw.sign(putRequest(key, body, mode.signAsHttps, Map.of()), body, modeProperties(mode));
            String expectedHash = mode.contentSha256 != null ? mode.contentSha256 : Digests.sha256Hex(body);
            assertThat(signed.request().firstMatchingHeader("x-amz-content-sha256")).contains(expectedHash);

            RawS3.Response response = raw.send(signed);
            assertThat(response.status()).as("%s", response).isEqualTo(200);
            assertThat(response.header("ETag")).contains('"' + Digests.md5Hex(body) + '"');
            assertStored(key, body);
        }
    }

    @ParameterizedTest
    @EnumSource(FlexibleChecksum.class)
    void streamingUnsignedPayloadWithTrailer(FlexibleChecksum checksum) {
        byte[] body = RandomContent.of(720 + checksum.ordinal(), BODY_SIZE).bytes();
        String key = "trailer/unsigned-" + checksum;
        SignedRequest signed = raw.sign(putRequest(key, body, true, trailer(checksum, checksum.base64(body))), body,
            streaming(false));
        assertThat(signed.request().firstMatchingHeader("x-amz-content-sha256")).contains("STREAMING-UNSIGNED-PAYLOAD-TRAILER");

        RawS3.Response response = raw.send(signed);
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertThat(response.header(checksum.headerName())).contains(checksum.base64(body));
        assertStored(key, body);
        assertStoredChecksum(key, checksum, body);
    }

    @ParameterizedTest
    @EnumSource(FlexibleChecksum.class)
    void streamingSignedPayloadWithTrailer(FlexibleChecksum checksum) {
        byte[] body = RandomContent.of(730 + checksum.ordinal(), BODY_SIZE).bytes();
        String key = "trailer/signed-" + checksum;
        SignedRequest signed = raw.sign(putRequest(key, body, false, trailer(checksum, checksum.base64(body))), body,
            streaming(true));
        assertThat(signed.request().firstMatchingHeader("x-amz-content-sha256")).contains("STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER");

        RawS3.Response response = raw.send(signed);
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertStored(key, body);
        assertStoredChecksum(key, checksum, body);
    }

    @ParameterizedTest
    @EnumSource(value = FlexibleChecksum.class, names = {"CRC32", "CRC32C", "SHA1", "SHA256"})
    void trailerComputedByTheSigner(FlexibleChecksum checksum) {
        byte[] body = RandomContent.of(740 + checksum.ordinal(), BODY_SIZE).bytes();
        String key = "trailer/signer-" + checksum;
        SignedRequest signed = raw.sign(putRequest(key, body, true, Map.of()), body, streaming(false)
            .andThen(properties -> properties.putProperty(AwsV4HttpSigner.CHECKSUM_ALGORITHM, checksum.signerAlgorithm())));
        assertThat(signed.request().firstMatchingHeader("x-amz-trailer")).contains(checksum.headerName());

        RawS3.Response response = raw.send(signed);
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertStored(key, body);
        assertStoredChecksum(key, checksum, body);
    }

    @ParameterizedTest
    @EnumSource(FlexibleChecksum.class)
    void sdkClientChecksumAlgorithm(FlexibleChecksum checksum) {
        byte[] body = RandomContent.of(750 + checksum.ordinal(), BODY_SIZE).bytes();
        String key = "sdk-checksum/" + checksum;
        PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(bucket).key(key);
        if (checksum.sdkComputable()) {
            request.checksumAlgorithm(checksum.s3Algorithm());
        } else {
            // Without the native CRT the SDK cannot compute CRC64NVME; it sends a given value as a header.
            request.checksumCRC64NVME(checksum.base64(body));
        }
        PutObjectResponse put = s3.putObject(request.build(), RequestBody.fromBytes(body));
        assertThat(put.eTag()).isEqualTo('"' + Digests.md5Hex(body) + '"');
        assertStored(key, body);
        assertStoredChecksum(key, checksum, body);

        if (checksum.sdkComputable()) {
            String asyncKey = key + "-async";
            s3Async.putObject(builder -> builder.bucket(bucket).key(asyncKey).checksumAlgorithm(checksum.s3Algorithm()),
                AsyncRequestBody.fromBytes(body)).join();
            assertStored(asyncKey, body);
            assertStoredChecksum(asyncKey, checksum, body);
        }
    }

    @ParameterizedTest
    @EnumSource(FlexibleChecksum.class)
    void checksumHeaderWithTheSignedPayload(FlexibleChecksum checksum) {
        byte[] body = RandomContent.of(760 + checksum.ordinal(), 5000).bytes();
        String key = "checksum-header/" + checksum;
        SignedRequest signed = raw.sign(putRequest(key, body, false, Map.of(checksum.headerName(), checksum.base64(body))), body,
            modeProperties(PayloadMode.SIGNED_SHA256));
        RawS3.Response response = raw.send(signed);
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertStored(key, body);
        assertStoredChecksum(key, checksum, body);
    }

    // ---------------------------------------------------------------- tampering

    @Test
    void bodyNotMatchingTheSignedSha256() {
        assertFailedUploadLeavesNoTrace("tamper/sha256", key -> {
            byte[] body = RandomContent.of(770, BODY_SIZE).bytes();
            SignedRequest signed = raw.sign(putRequest(key, body, false, Map.of()), body, modeProperties(PayloadMode.SIGNED_SHA256));
            byte[] tampered = body.clone();
            tampered[BODY_SIZE / 2] ^= 0x01;
            assertRawError(raw.send(signed.request(), tampered), 400, "XAmzContentSHA256Mismatch");
        });
    }

    @Test
    void tamperedChunkOfASignedStream() {
        assertFailedUploadLeavesNoTrace("tamper/chunk", key -> {
            byte[] body = RandomContent.of(771, BODY_SIZE).bytes();
            SignedRequest signed = raw.sign(putRequest(key, body, false, Map.of()), body, modeProperties(PayloadMode.STREAMING_SIGNED));
            byte[] encoded = RawS3.readAll(signed.payload().orElseThrow());
            int firstChunkData = indexOf(encoded, "\r\n".getBytes(StandardCharsets.US_ASCII)) + 2;
            encoded[firstChunkData + 1000] ^= 0x01;
            assertRawError(raw.send(signed.request(), encoded), 403, "SignatureDoesNotMatch");
        });
    }

    @ParameterizedTest
    @EnumSource(FlexibleChecksum.class)
    void wrongTrailingChecksumIsBadDigest(FlexibleChecksum checksum) {
        assertFailedUploadLeavesNoTrace("tamper/trailer-" + checksum, key -> {
            byte[] body = RandomContent.of(772, BODY_SIZE).bytes();
            String wrong = checksum.base64("something else entirely".getBytes(StandardCharsets.UTF_8));
            SignedRequest signed = raw.sign(putRequest(key, body, true, trailer(checksum, wrong)), body, streaming(false));
            assertRawError(raw.send(signed), 400, "BadDigest");
        });
    }

    @ParameterizedTest
    @EnumSource(FlexibleChecksum.class)
    void wrongSignedTrailingChecksumIsBadDigest(FlexibleChecksum checksum) {
        assertFailedUploadLeavesNoTrace("tamper/signed-trailer-" + checksum, key -> {
            byte[] body = RandomContent.of(773, BODY_SIZE).bytes();
            String wrong = checksum.base64("something else entirely".getBytes(StandardCharsets.UTF_8));
            SignedRequest signed = raw.sign(putRequest(key, body, false, trailer(checksum, wrong)), body, streaming(true));
            assertRawError(raw.send(signed), 400, "BadDigest");
        });
    }

    @ParameterizedTest
    @EnumSource(FlexibleChecksum.class)
    void wrongChecksumHeaderIsBadDigest(FlexibleChecksum checksum) {
        assertFailedUploadLeavesNoTrace("tamper/checksum-header-" + checksum, key -> {
            byte[] body = RandomContent.of(774, 5000).bytes();
            String wrong = checksum.base64("something else entirely".getBytes(StandardCharsets.UTF_8));
            PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(bucket).key(key);
            switch (checksum) {
                case CRC32 -> request.checksumCRC32(wrong);
                case CRC32C -> request.checksumCRC32C(wrong);
                case CRC64NVME -> request.checksumCRC64NVME(wrong);
                case SHA1 -> request.checksumSHA1(wrong);
                case SHA256 -> request.checksumSHA256(wrong);
            }
            assertS3Error(() -> s3.putObject(request.build(), RequestBody.fromBytes(body)), 400, "BadDigest");
        });
    }

    /**
     * A value that is no checksum of the algorithm (not base64 of its length) is not a mismatch: S3 answers
     * InvalidRequest "Value for x-amz-checksum-... header is invalid.", as it does for every algorithm.
     */
    @ParameterizedTest
    @EnumSource(FlexibleChecksum.class)
    void malformedChecksumHeaderIsInvalidRequest(FlexibleChecksum checksum) {
        assertFailedUploadLeavesNoTrace("tamper/checksum-malformed-" + checksum, key -> {
            PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(bucket).key(key);
            switch (checksum) {
                case CRC32 -> request.checksumCRC32("bad");
                case CRC32C -> request.checksumCRC32C("bad");
                case CRC64NVME -> request.checksumCRC64NVME("bad");
                case SHA1 -> request.checksumSHA1("bad");
                case SHA256 -> request.checksumSHA256("bad");
            }
            S3Exception refusal = assertS3Error(() -> s3.putObject(request.build(), RequestBody.fromString("body")),
                400, "InvalidRequest");
            assertThat(refusal.awsErrorDetails().errorMessage()).contains("header is invalid");
        });
    }

    @Test
    void correctContentMd5IsAccepted() {
        byte[] body = RandomContent.of(775, 5000).bytes();
        String md5 = Base64.getEncoder().encodeToString(Digests.md5().digest(body));
        s3.putObject(request -> request.bucket(bucket).key("content-md5/ok").contentMD5(md5), RequestBody.fromBytes(body));
        s3WhenRequired.putObject(request -> request.bucket(bucket).key("content-md5/ok-plain").contentMD5(md5), RequestBody.fromBytes(body));
        assertStored("content-md5/ok", body);
        assertStored("content-md5/ok-plain", body);
    }

    @Test
    void wrongContentMd5IsBadDigest() {
        assertFailedUploadLeavesNoTrace("content-md5/wrong", key -> {
            byte[] body = RandomContent.of(776, 5000).bytes();
            String wrong = Base64.getEncoder().encodeToString(Digests.md5().digest("other".getBytes(StandardCharsets.UTF_8)));
            assertS3Error(() -> s3.putObject(request -> request.bucket(bucket).key(key).contentMD5(wrong), RequestBody.fromBytes(body)),
                400, "BadDigest");
            assertS3Error(() -> s3WhenRequired.putObject(request -> request.bucket(bucket).key(key).contentMD5(wrong),
                RequestBody.fromBytes(body)), 400, "BadDigest");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"not base64 at all!", "c2hvcnQ=", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="})
    void malformedContentMd5IsInvalidDigest(String malformed) {
        assertFailedUploadLeavesNoTrace("content-md5/malformed-" + malformed.length(), key -> {
            byte[] body = RandomContent.of(777, 5000).bytes();
            assertS3Error(() -> s3WhenRequired.putObject(request -> request.bucket(bucket).key(key).contentMD5(malformed),
                RequestBody.fromBytes(body)), 400, "InvalidDigest");
        });
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Runs a failing upload twice: onto a fresh key (nothing may appear) and onto an existing key
     * (the previous version must stay intact).
     */
    private void assertFailedUploadLeavesNoTrace(String key, Consumer<String> failingUpload) {
        String fresh = key + "-fresh";
        failingUpload.accept(fresh);
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key(fresh)), 404);

        String existing = key + "-existing";
        byte[] previous = RandomContent.of(existing.hashCode(), 4000).bytes();
        s3.putObject(request -> request.bucket(bucket).key(existing), RequestBody.fromBytes(previous));
        failingUpload.accept(existing);
        assertStored(existing, previous);
    }

    private SdkHttpRequest putRequest(String key, byte[] body, boolean signAsHttps, Map<String, String> headers) {
        SdkHttpRequest.Builder request = raw.request(SdkHttpMethod.PUT, "/" + bucket + "/" + key, signAsHttps)
            .putHeader("Content-Length", Integer.toString(body.length));
        headers.forEach(request::putHeader);
        return request.build();
    }

    /** Declares a trailing checksum with its value; the signer moves the value into the aws-chunked trailer. */
    private static Map<String, String> trailer(FlexibleChecksum checksum, String value) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-amz-trailer", checksum.headerName());
        headers.put(checksum.headerName(), value);
        return headers;
    }

    private static Consumer<SignRequest.Builder<AwsCredentialsIdentity>> modeProperties(PayloadMode mode) {
        return properties -> properties
            .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, mode.payloadSigning)
            .putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, mode.chunkEncoding);
    }

    private static Consumer<SignRequest.Builder<AwsCredentialsIdentity>> streaming(boolean signed) {
        return properties -> properties
            .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, signed)
            .putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, true);
    }

    private static void assertRawError(RawS3.Response response, int status, String code) {
        assertThat(response.status()).as("%s", response).isEqualTo(status);
        assertThat(response.errorCode()).as("%s", response).contains(code);
    }

    private void assertStored(String key, byte[] body) {
        // The checksum-when-required client does not ask for (nor validate) stored checksums, which
        // for CRC64NVME the SDK could not compute without the native CRT.
        assertThat(s3WhenRequired.getObjectAsBytes(request -> request.bucket(bucket).key(key)).asByteArray())
            .as("stored content of %s", key)
            .isEqualTo(body);
    }

    private void assertStoredChecksum(String key, FlexibleChecksum checksum, byte[] body) {
        HeadObjectResponse head = s3.headObject(request -> request.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED));
        assertThat(checksum.valueIn(head)).as("stored %s of %s", checksum, key).isEqualTo(checksum.base64(body));
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        outer:
        for (int i = 0; i <= data.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalArgumentException("pattern not found");
    }
}
