package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.request.RequestHeaders;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerSideEncryptionTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "x-amz-server-side-encryption|SSE-S3, SSE-KMS",
            "X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id|SSE-KMS",
            "x-amz-server-side-encryption-context|SSE-KMS",
            "x-amz-server-side-encryption-bucket-key-enabled|Bucket Keys",
            "x-amz-server-side-encryption-customer-algorithm|(SSE-C)",
            "x-amz-server-side-encryption-customer-key|(SSE-C)",
            "x-amz-server-side-encryption-customer-key-MD5|(SSE-C)",
            "x-amz-copy-source-server-side-encryption-customer-algorithm|(SSE-C) of a copy source",
            "x-amz-copy-source-server-side-encryption-customer-key|(SSE-C) of a copy source",
            "x-amz-server-side-encryption-some-future-header|Server-side encryption"})
    void refusesEveryEncryptionHeaderNamingItAndItsFeature(String header, String feature) {
        RequestHeaders headers = new RequestHeaders(Map.of(header, List.of("value"), "Content-Type", List.of("a/b")));

        var refused = assertS3Error(() -> ServerSideEncryption.refuse(headers), S3Error.NOT_IMPLEMENTED);

        assertThat(refused.getMessage()).contains(feature).contains(header.toLowerCase(java.util.Locale.ROOT));
    }

    @Test
    void takesRequestsWithoutEncryptionHeaders() {
        RequestHeaders headers = new RequestHeaders(Map.of("x-amz-copy-source", List.of("b/k"),
                "x-amz-checksum-crc32", List.of("AAAAAA=="), "x-amz-meta-server-side-encryption", List.of("none")));

        assertThatCode(() -> ServerSideEncryption.refuse(headers)).doesNotThrowAnyException();
    }
}
