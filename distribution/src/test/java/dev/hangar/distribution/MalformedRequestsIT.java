package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Requests that are not understood, sent over a plain socket as a careless or hostile client would: each one
 * gets S3's XML error with its status and a request id, never a 500 and never an empty or JSON body. They are
 * anonymous, on a bucket whose policy lets anyone do anything, so that they reach the operations rather than
 * stop at AccessDenied. The bucket holds a key with U+0001, which XML 1.0 cannot carry, so listings meet it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MalformedRequestsIT extends AbstractS3IT {
    /** Fixed, so that a failure can be replayed; the failing request is in the assertion's message. */
    private static final long FUZZ_SEED = 20261126L;
    private static final int FUZZ_REQUESTS = 300;

    private String bucket;
    private String uploadId;

    @BeforeAll
    void createPublicBucket() {
        bucket = createBucket("malformed");
        s3.putBucketPolicy(request -> request.bucket(bucket).policy("{\"Version\": \"2012-10-17\", \"Statement\": "
                + "[{\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"s3:*\", \"Resource\": "
                + "[\"arn:aws:s3:::" + bucket + "\", \"arn:aws:s3:::" + bucket + "/*\"]}]}"));
        s3.putObject(request -> request.bucket(bucket).key("obj"), RequestBody.fromString("hello"));
        // Never named by a fuzzed request: that nothing was lost is checked on it.
        s3.putObject(request -> request.bucket(bucket).key("intact"), RequestBody.fromString("intact"));
        s3.putObject(request -> request.bucket(bucket).key("ctl\u0001key"), RequestBody.fromString("control"));
        uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key("upload")).uploadId();
    }

    /** The requests the issue names, and their neighbours, with the error S3 answers. */
    @ParameterizedTest(name = "{0} {1} -> {2} {3}")
    @CsvSource(delimiter = ' ', value = {
            "GET // 400 InvalidBucketName",
            "GET //key 400 InvalidBucketName",
            "GET /a%00b 400 InvalidBucketName",
            "GET /a%00b/key 400 InvalidBucketName",
            "OPTIONS /a%00b/key 400 InvalidBucketName",
            "GET /{bucket}/obj?torrent 501 NotImplemented",
            "GET /{bucket}?logging 501 NotImplemented",
            "PUT /{bucket}?logging 501 NotImplemented",
            "GET /{bucket}?prefix=%00 400 InvalidArgument",
            "GET /{bucket}?delimiter=%00 400 InvalidArgument",
            "GET /{bucket}?marker=%00 400 InvalidArgument",
            "GET /{bucket}?list-type=2&start-after=%00 400 InvalidArgument",
            "GET /{bucket}?list-type=2&continuation-token=%00 400 InvalidArgument",
            "GET /{bucket}?list-type=2&continuation-token=AA 400 InvalidArgument",
            "GET /{bucket}?versions&key-marker=%00 400 InvalidArgument",
            "GET /{bucket}?uploads&key-marker=a&upload-id-marker=%00 400 InvalidArgument",
            "GET /{bucket}/upload?uploadId=%00 400 InvalidArgument",
            "DELETE /{bucket}/upload?uploadId=%00 400 InvalidArgument",
            "GET /{bucket}/a%00b 400 InvalidArgument",
            "DELETE /{bucket}/a%00b 400 InvalidArgument",
            "GET /{bucket}?prefix=% 400 InvalidURI",
            "GET /{bucket}?prefix=%C3%28 400 InvalidURI",
            "GET /{bucket}/%ZZ 400 InvalidURI",
            "GET /{bucket}/%C3%28 400 InvalidURI",
            "GET /% 400 InvalidURI",
            "GET /{bucket}/a|b 400 InvalidURI",
            "GET /{bucket}/a\"b 400 InvalidURI",
            "GET /{bucket}?max-keys=-1 400 InvalidArgument",
            "GET /{bucket}?max-keys=99999999999999999999 400 InvalidArgument",
            "GET /{bucket}?list-type=2&max-keys=abc 400 InvalidArgument",
            "GET /{bucket}?versions&max-keys=-5 400 InvalidArgument",
            "GET /{bucket}?uploads&max-uploads=2147483648 400 InvalidArgument",
            "GET /{bucket}?encoding-type=base64 400 InvalidArgument",
            "GET /{bucket}/obj?partNumber=abc 400 InvalidArgument",
            "GET /{bucket}/obj?versionId=%01 400 InvalidArgument",
            "GET /{bucket}/obj?response-content-type=text%2Fhtml 400 InvalidRequest",
            "FOO /{bucket}/obj 405 MethodNotAllowed"})
    void eachGetsTheS3ErrorThatNamesTheProblem(String method, String target, int status, String code) {
        RawHttp.Answer answer = send(method, target.replace("{bucket}", bucket), "", new byte[0]);

        assertS3XmlError(answer, method + " " + target);
        assertThat(answer.status()).as("%s", answer).isEqualTo(status);
        assertThat(answer.errorCode()).as("%s", answer).contains(code);
    }

    /** Netty reads each byte of the request line as one character; bytes above ASCII are UTF-8, or refused. */
    @Test
    void rawUtf8InTheTargetNamesTheKeyItSpellsAndOtherRawBytesAreRefused() {
        byte[] utf8Key = "/raw-caf\u00e9".getBytes(StandardCharsets.UTF_8);
        String target = "/" + bucket + new String(utf8Key, StandardCharsets.ISO_8859_1);

        RawHttp.Answer put = send("PUT", target, "Content-Length: 3\r\n", "abc".getBytes(StandardCharsets.US_ASCII));

        assertThat(put.status()).as("%s", put).isEqualTo(200);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("raw-caf\u00e9")).asUtf8String())
                .isEqualTo("abc");
        RawHttp.Answer notUtf8 = send("GET", "/" + bucket + "/raw-\u00ff\u00fe", "", new byte[0]);
        assertS3XmlError(notUtf8, "raw bytes FF FE");
        assertThat(notUtf8.status()).isEqualTo(400);
        assertThat(notUtf8.errorCode()).contains("InvalidURI");
    }

    /** What the HTTP decoder refuses gets an S3 error document too, and nothing stored changes. */
    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource(delimiter = '|', value = {
            "a header line without a colon|400|BadRequest",
            "a header name with a space|400|BadRequest",
            "a control character in a header value|400|BadRequest",
            "a Content-Length that is no number|400|BadRequest",
            "a chunked PUT of a signed payload whose chunk size is no number|411|MissingContentLength",
            "a header section of 64 KiB|400|RequestHeaderSectionTooLarge",
            "a request line of 64 KiB|400|InvalidURI"})
    void requestsTheHttpDecoderRefusesGetAnS3Error(String what, int status, String code) {
        String object = "/" + bucket + "/intact";
        String request = switch (what) {
            case "a header line without a colon" -> "GET " + object + " HTTP/1.1\r\nHost: localhost\r\nbroken\r\n\r\n";
            case "a header name with a space" -> "GET " + object + " HTTP/1.1\r\nHost: localhost\r\nX Bad: 1\r\n\r\n";
            case "a control character in a header value" ->
                    "GET " + object + " HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\n\r\n";
            case "a Content-Length that is no number" ->
                    "PUT " + object + "2 HTTP/1.1\r\nHost: localhost\r\nContent-Length: ten\r\n\r\n";
            // Refused for its missing Content-Length, as S3 refuses it for a payload hash, before the chunk is read.
            // (An unsigned payload may come chunked without a length: AuthIT.)
            case "a chunked PUT of a signed payload whose chunk size is no number" ->
                    "PUT " + object + "2 HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n"
                            + "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\r\n"
                            + "\r\nzz\r\n";
            case "a header section of 64 KiB" ->
                    "GET " + object + " HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(64 * 1024) + "\r\n\r\n";
            case "a request line of 64 KiB" ->
                    "GET " + object + "?prefix=" + "a".repeat(64 * 1024) + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
            default -> throw new IllegalArgumentException(what);
        };

        RawHttp.Answer answer = RawHttp.exchange(nextPort(), request.getBytes(StandardCharsets.ISO_8859_1));

        assertS3XmlError(answer, what);
        assertThat(answer.status()).as("%s", answer).isEqualTo(status);
        assertThat(answer.errorCode()).as("%s", answer).contains(code);
        assertIntact();
    }

    /** Garbage in a Range header is ignored, as RFC 9110 and S3 do: the whole object comes back. */
    @ParameterizedTest(name = "Range: {0}")
    @CsvSource(delimiter = '|', value = {"bytes=abc", "bytes=5-2", "bytes=-", "bytes=--1", "lines=0-1", "bytes=0-1,3-4"})
    void unparsableRangesAreIgnored(String range) {
        RawHttp.Answer answer = send("GET", "/" + bucket + "/intact", "Range: " + range + "\r\n", new byte[0]);

        assertThat(answer.status()).as("%s", answer).isEqualTo(200);
        assertThat(answer.bodyText()).isEqualTo("intact");
    }

    /**
     * Seeded random requests built from the pieces that broke the server before: percent signs, NUL and other
     * control characters, malformed UTF-8, raw bytes, sub-resources it does not implement, garbage headers. None
     * may answer 500, none may answer an error that is not S3's XML.
     */
    @Test
    void randomMalformedRequestsNeverAnswer500AndAlwaysAnswerS3Xml() {
        Random random = new Random(FUZZ_SEED);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < FUZZ_REQUESTS; i++) {
            String method = pick(random, "GET", "GET", "GET", "HEAD", "PUT", "POST", "DELETE", "OPTIONS");
            String target = fuzzTarget(random);
            String headers = fuzzHeaders(random);
            byte[] body = method.equals("PUT") || method.equals("POST")
                    ? pick(random, "", "x", "<Delete><Object><Key>a</Key></Object></Delete>", "<x").getBytes(
                            StandardCharsets.UTF_8)
                    : new byte[0];
            String described = method + " " + target + " " + headers.replace("\r\n", "; ");
            try {
                RawHttp.Answer answer = send(method, target, headers + "Content-Length: " + body.length + "\r\n", body);
                if (answer.status() >= 500 && answer.status() != 501) {
                    failures.add(described + " -> " + answer.statusLine());
                } else if (answer.status() >= 400 && !method.equals("HEAD") && !isS3XmlError(answer)) {
                    failures.add(described + " -> not an S3 error document: " + answer);
                }
            } catch (RuntimeException e) {
                failures.add(described + " -> " + e);
            }
        }
        assertThat(failures).as("requests answered with a 500 or without an S3 error (seed %d)", FUZZ_SEED).isEmpty();
        assertIntact();
    }

    private String fuzzTarget(Random random) {
        StringBuilder target = new StringBuilder("/");
        target.append(pick(random, bucket, bucket, bucket, "", "%00", "a%00b", "UPPER_legacy", "%C3%28", "x%2Fy"));
        if (random.nextInt(4) > 0) {
            target.append('/');
            int pieces = 1 + random.nextInt(4);
            for (int i = 0; i < pieces; i++) {
                target.append(pick(random, "obj", "upload", "ctl%01key", "k", "%00", "%01", "%1F", "%7F", "%", "%Z",
                        "%C3", "%C3%28", "%ED%A0%80", "%EF%BF%BF", "%FF", "%2F", "/", "//", "+", "%20", "..", ".",
                        "caf\u00c3\u00a9", "\u00ff", "~", "%25"));
            }
        }
        int parameters = random.nextInt(4);
        for (int i = 0; i < parameters; i++) {
            target.append(i == 0 ? '?' : '&');
            target.append(pick(random, "prefix", "delimiter", "marker", "max-keys", "list-type", "continuation-token",
                    "start-after", "encoding-type", "fetch-owner", "versions", "key-marker", "version-id-marker",
                    "uploads", "upload-id-marker", "max-uploads", "uploadId", "partNumber", "max-parts",
                    "part-number-marker", "versionId", "torrent", "logging", "acl", "tagging", "cors", "website",
                    "lifecycle", "versioning", "object-lock", "retention", "legal-hold", "attributes", "select",
                    "restore", "delete", "location", "encryption", "replication", "notification", "accelerate",
                    "response-content-type", "response-expires", "x-id", "%00", "%", "a%C3"));
            if (random.nextBoolean()) {
                target.append('=').append(pick(random, "", "1", "2", "-1", "0", "url", "99999999999999999999", "%00",
                        "%01", "%", "%ZZ", "%C3%28", "AA", "null", "a%2Fb", "text%2Fhtml", "%0D%0AX-Injected:%201",
                        uploadId));
            }
        }
        return target.toString();
    }

    private static String fuzzHeaders(Random random) {
        StringBuilder headers = new StringBuilder();
        int count = random.nextInt(3);
        for (int i = 0; i < count; i++) {
            headers.append(pick(random,
                    "Range: bytes=abc", "Range: bytes=9-1", "Range: bytes=0-99999999999999999999",
                    "x-amz-storage-class: NOT_A_CLASS", "x-amz-server-side-encryption: AES256",
                    "x-amz-server-side-encryption-customer-algorithm: AES256", "x-amz-copy-source: %",
                    "x-amz-copy-source: /a%00b/k", "x-amz-copy-source: /%C3%28/k", "x-amz-copy-source-range: bytes=x",
                    "Content-MD5: ###", "x-amz-checksum-crc32: ###", "x-amz-content-sha256: garbage",
                    "If-Modified-Since: garbage", "If-Match: ", "x-amz-tagging: a=%00", "x-amz-acl: garbage",
                    "x-amz-object-attributes: Garbage", "x-amz-metadata-directive: MOVE", "Expect: 100-continue",
                    "Authorization: garbage", "Authorization: AWS4-HMAC-SHA256 Credential=%00",
                    "x-amz-date: garbage", "Origin: http://x", "Access-Control-Request-Method: %00",
                    "Content-Type: multipart/form-data", "Content-Type: ;;;"));
            headers.append("\r\n");
        }
        return headers.toString();
    }

    @SafeVarargs
    private static <T> T pick(Random random, T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private RawHttp.Answer send(String method, String target, String headers, byte[] body) {
        return RawHttp.exchange(nextPort(), RawHttp.request(
                method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + headers + "\r\n", body));
    }

    private void assertIntact() {
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("intact")).asUtf8String())
                .isEqualTo("intact");
    }

    private static void assertS3XmlError(RawHttp.Answer answer, String request) {
        assertThat(isS3XmlError(answer)).as("an S3 error document for %s: %s", request, answer).isTrue();
    }

    private static boolean isS3XmlError(RawHttp.Answer answer) {
        return answer.header("x-amz-request-id").isPresent()
                && answer.header("content-type").orElse("").startsWith("application/xml")
                && answer.bodyText().startsWith("<?xml")
                && answer.bodyText().contains("<Error><Code>")
                && answer.bodyText().contains("<RequestId>");
    }
}
