package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerSideEncryptionTest {
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final String KEY_BASE64 = Base64.getEncoder().encodeToString(KEY);
    private static final String KEY_MD5 = Base64.getEncoder().encodeToString(Etags.md5().digest(KEY));
    private static final String CUSTOMER = "x-amz-server-side-encryption-customer-";

    private final ServerSideEncryption overTlsOnly = new ServerSideEncryption(false);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "x-amz-server-side-encryption|SSE-S3, SSE-KMS",
            "X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id|SSE-KMS",
            "x-amz-server-side-encryption-context|SSE-KMS",
            "x-amz-server-side-encryption-bucket-key-enabled|Bucket Keys",
            "x-amz-copy-source-server-side-encryption-customer-algorithm|(SSE-C) of a copy source",
            "x-amz-server-side-encryption-customer-some-future-header|(SSE-C)",
            "x-amz-server-side-encryption-some-future-header|Server-side encryption"})
    void refusesTheEncryptionHeadersNotImplementedNamingThemAndTheirFeature(String header, String feature) {
        RequestHeaders headers = new RequestHeaders(Map.of(header, List.of("value"), "Content-Type", List.of("a/b")));

        var refused = assertS3Error(() -> ServerSideEncryption.refuseUnsupported(new S3Operation.PutObject(), headers),
                S3Error.NOT_IMPLEMENTED);

        assertThat(refused.getMessage()).contains(feature).contains(header.toLowerCase(Locale.ROOT));
    }

    @Test
    void takesCustomerKeysWhereS3TakesThemAndRefusesThemElsewhere() {
        RequestHeaders customer = new RequestHeaders(Map.of(CUSTOMER + "key", List.of(KEY_BASE64)));
        RequestHeaders copySource = new RequestHeaders(
                Map.of("x-amz-copy-source-server-side-encryption-customer-key", List.of(KEY_BASE64)));
        for (S3Operation operation : List.of(new S3Operation.PutObject(), new S3Operation.GetObject(),
                new S3Operation.HeadObject(), new S3Operation.CopyObject(), new S3Operation.CreateMultipartUpload(),
                new S3Operation.UploadPart("u", 1), new S3Operation.UploadPartCopy("u", 1),
                new S3Operation.CompleteMultipartUpload("u"), new S3Operation.GetObjectAttributes())) {
            assertThatCode(() -> ServerSideEncryption.refuseUnsupported(operation, customer)).doesNotThrowAnyException();
        }
        assertThatCode(() -> ServerSideEncryption.refuseUnsupported(new S3Operation.CopyObject(), copySource))
                .doesNotThrowAnyException();
        assertThatCode(() -> ServerSideEncryption.refuseUnsupported(new S3Operation.UploadPartCopy("u", 1), copySource))
                .doesNotThrowAnyException();

        var onDelete = assertS3Error(
                () -> ServerSideEncryption.refuseUnsupported(new S3Operation.DeleteObject(), customer),
                S3Error.NOT_IMPLEMENTED);
        assertThat(onDelete.getMessage()).contains("(SSE-C) on DeleteObject");
        assertS3Error(() -> ServerSideEncryption.refuseUnsupported(new S3Operation.PutObject(), copySource),
                S3Error.NOT_IMPLEMENTED);
    }

    @Test
    void takesRequestsWithoutEncryptionHeaders() {
        RequestHeaders headers = new RequestHeaders(Map.of("x-amz-copy-source", List.of("b/k"),
                "x-amz-checksum-crc32", List.of("AAAAAA=="), "x-amz-meta-server-side-encryption", List.of("none")));

        assertThatCode(() -> ServerSideEncryption.refuseUnsupported(new S3Operation.PutObject(), headers))
                .doesNotThrowAnyException();
        assertThat(overTlsOnly.requested(request(headers, true))).isEmpty();
    }

    @Test
    void readsACustomerKeyOverTlsAndEchoesItsMd5() {
        CustomerKey key = overTlsOnly.requested(request(customerHeaders("AES256", KEY_BASE64, KEY_MD5), true))
                .orElseThrow();

        assertThat(key.md5()).isEqualTo(KEY_MD5);
        Map<String, String> response = new LinkedHashMap<>();
        ServerSideEncryption.putResponseHeaders(response, java.util.Optional.of(key));
        assertThat(response).containsEntry(CUSTOMER + "algorithm", "AES256").containsEntry(CUSTOMER + "key-MD5", KEY_MD5);
        assertThat(key.toString()).doesNotContain(KEY_BASE64);
    }

    @Test
    void refusesACustomerKeyOverPlainHttpUnlessTheOperatorAllowsIt() {
        S3Request plain = request(customerHeaders("AES256", KEY_BASE64, KEY_MD5), false);

        var refused = assertS3Error(() -> overTlsOnly.requested(plain), S3Error.INVALID_REQUEST);

        assertThat(refused.getMessage()).contains("secure connection");
        assertThat(new ServerSideEncryption(true).requested(plain)).isPresent();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "no algorithm|-|" + "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=|-|InvalidArgument|valid encryption algorithm",
            "another algorithm|AES128|MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=|-|InvalidEncryptionAlgorithmError|AES256",
            "no key|AES256|-|-|InvalidArgument|appropriate secret key",
            "no MD5|AES256|MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=|-|InvalidArgument|MD5 of the secret key",
            "short key|AES256|c2hvcnQ=|c2hvcnQ=|InvalidArgument|secret key was invalid",
            "key not base64|AES256|not*base64|c2hvcnQ=|InvalidArgument|secret key was invalid",
            "wrong MD5|AES256|MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=|AAAAAAAAAAAAAAAAAAAAAA==|InvalidArgument|did not match"})
    void refusesMalformedCustomerKeysWithS3sErrors(String what, String algorithm, String key, String md5, String code,
            String message) {
        S3Request request = request(customerHeaders(algorithm, key, md5 == null && key != null && !what.equals("no MD5")
                ? KEY_MD5 : md5), true);

        var refused = assertS3Error(() -> overTlsOnly.requested(request), errorOf(code));

        assertThat(refused.getMessage()).contains(message);
    }

    private static S3Error errorOf(String code) {
        for (S3Error error : S3Error.values()) {
            if (error.code().equals(code)) {
                return error;
            }
        }
        throw new IllegalArgumentException(code);
    }

    private static RequestHeaders customerHeaders(String algorithm, String key, String md5) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        if (algorithm != null) {
            headers.put(CUSTOMER + "algorithm", List.of(algorithm));
        }
        if (key != null) {
            headers.put(CUSTOMER + "key", List.of(key));
        }
        if (md5 != null) {
            headers.put(CUSTOMER + "key-MD5", List.of(md5));
        }
        return new RequestHeaders(headers);
    }

    private static S3Request request(RequestHeaders headers, boolean secure) {
        return new S3Request("PUT", "bucket", "key", Map.of(), headers, "localhost", "id", secure);
    }
}
