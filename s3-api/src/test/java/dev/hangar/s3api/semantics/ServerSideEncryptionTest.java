package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.encryption.KmsKey;
import dev.hangar.s3api.encryption.KmsKeys;
import dev.hangar.s3api.encryption.MasterKeys;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ServerSideEncryptionTest {
    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final String KEY_BASE64 = Base64.getEncoder().encodeToString(KEY);
    private static final String KEY_MD5 = Base64.getEncoder().encodeToString(Etags.md5().digest(KEY));
    private static final String CUSTOMER = "x-amz-server-side-encryption-customer-";

    private static final MasterKeys MASTER_KEYS = MasterKeys.of(new byte[32], List.of());

    private final ServerSideEncryption overTlsOnly = encryption(false);

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path folder;

    private dev.hangar.metadata.@org.jspecify.annotations.Nullable MetadataStore store;

    private static ServerSideEncryption encryption(boolean customerKeysOverHttp) {
        return new ServerSideEncryption(customerKeysOverHttp, Optional.of(MASTER_KEYS), Optional.empty(), bucket -> Optional.empty());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "X-Amz-Server-Side-Encryption-Aws-Kms-Key-Id|SSE-KMS",
            "x-amz-server-side-encryption-context|SSE-KMS",
            "x-amz-server-side-encryption-bucket-key-enabled|Bucket Keys",
            "x-amz-copy-source-server-side-encryption-customer-algorithm|(SSE-C) of a copy source",
            "x-amz-server-side-encryption-customer-some-future-header|(SSE-C)",
            "x-amz-server-side-encryption-some-future-header|Server-side encryption"})
    void refusesTheEncryptionHeadersNotImplementedNamingThemAndTheirFeature(String header, String feature) {
        RequestHeaders headers = new RequestHeaders(Map.of(header, List.of("value"), "Content-Type", List.of("a/b")));

        // On a read: the KMS headers are a write's (PutObject takes them), and the others nobody's.
        var refused = assertS3Error(() -> ServerSideEncryption.refuseUnsupported(new S3Operation.GetObject(), headers),
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
        assertThat(overTlsOnly.forWrite(request(headers, true), "bucket")).isEmpty();
    }

    @Test
    void readsACustomerKeyOverTlsAndEchoesItsMd5() {
        Sealing sealing = overTlsOnly.forWrite(request(customerHeaders("AES256", KEY_BASE64, KEY_MD5), true), "bucket")
                .orElseThrow();

        assertThat(sealing.responseHeaders()).containsEntry(CUSTOMER + "algorithm", "AES256")
                .containsEntry(CUSTOMER + "key-MD5", KEY_MD5);
        assertThat(sealing.keyedEtag()).isTrue();
        assertThat(sealing.stored()).containsEntry(ServerSideEncryption.MODE, "SSE-C")
                .containsKey(ServerSideEncryption.KEY_CHECK).doesNotContainKey(ServerSideEncryption.DATA_KEY);
        assertThat(sealing.toString()).doesNotContain(KEY_BASE64);
    }

    @Test
    void refusesACustomerKeyOverPlainHttpUnlessTheOperatorAllowsIt() {
        S3Request plain = request(customerHeaders("AES256", KEY_BASE64, KEY_MD5), false);

        var refused = assertS3Error(() -> overTlsOnly.forWrite(plain, "bucket"), S3Error.INVALID_REQUEST);

        assertThat(refused.getMessage()).contains("secure connection");
        assertThat(encryption(true).forWrite(plain, "bucket")).isPresent();
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

        var refused = assertS3Error(() -> overTlsOnly.forWrite(request, "bucket"), errorOf(code));

        assertThat(refused.getMessage()).contains(message);
    }

    @Test
    void sseS3GivesEachWriteAFreshDataKeyWrappedByTheMasterKey() {
        S3Request aes = request(new RequestHeaders(Map.of("x-amz-server-side-encryption", List.of("AES256"))), false);

        Sealing first = overTlsOnly.forWrite(aes, "bucket").orElseThrow();
        Sealing second = overTlsOnly.forWrite(aes, "bucket").orElseThrow();

        assertThat(first.keyedEtag()).as("SSE-S3's ETag is the MD5, as AWS's").isFalse();
        assertThat(first.responseHeaders()).containsExactly(Map.entry("x-amz-server-side-encryption", "AES256"));
        assertThat(first.stored()).containsEntry(ServerSideEncryption.MODE, "AES256")
                .containsKey(ServerSideEncryption.DATA_KEY);
        assertThat(first.stored().get(ServerSideEncryption.DATA_KEY)).startsWith(MASTER_KEYS.currentId() + ":")
                .isNotEqualTo(second.stored().get(ServerSideEncryption.DATA_KEY));
    }

    @Test
    void sseS3WithoutAMasterKeyOrSseKmsIsNotImplementedAndAnotherAlgorithmIsRefused() {
        ServerSideEncryption keyless = new ServerSideEncryption(false, Optional.empty(), Optional.empty(), bucket -> Optional.empty());
        assertThat(assertS3Error(() -> keyless.forWrite(withAlgorithm("AES256"), "b"), S3Error.NOT_IMPLEMENTED)
                .getMessage()).contains("hangar.encryption.master-key-file");
        assertThat(assertS3Error(() -> overTlsOnly.forWrite(withAlgorithm("aws:kms"), "b"), S3Error.NOT_IMPLEMENTED)
                .getMessage()).contains("SSE-KMS");
        assertS3Error(() -> overTlsOnly.forWrite(withAlgorithm("AES512"), "b"), S3Error.INVALID_ARGUMENT);
        Map<String, List<String>> both = new LinkedHashMap<>(customerHeaders("AES256", KEY_BASE64, KEY_MD5).values());
        both.put("x-amz-server-side-encryption", List.of("AES256"));
        assertS3Error(() -> overTlsOnly.forWrite(request(new RequestHeaders(both), true), "b"), S3Error.INVALID_ARGUMENT);
    }

    @Test
    void theBucketsDefaultAppliesToWritesThatAskForNothing() {
        ServerSideEncryption defaults = new ServerSideEncryption(false, Optional.of(MASTER_KEYS), Optional.empty(),
                bucket -> bucket.equals("encrypted") ? Optional.of(new DefaultEncryption("AES256", null)) : Optional.empty());
        S3Request plain = request(new RequestHeaders(Map.of()), false);

        assertThat(defaults.forWrite(plain, "encrypted")).hasValueSatisfying(
                sealing -> assertThat(sealing.stored()).containsEntry(ServerSideEncryption.MODE, "AES256"));
        assertThat(defaults.forWrite(plain, "other")).isEmpty();
        assertThat(defaults.forWrite(request(customerHeaders("AES256", KEY_BASE64, KEY_MD5), true), "encrypted"))
                .as("an explicit customer key wins over the default").hasValueSatisfying(
                        sealing -> assertThat(sealing.stored()).containsEntry(ServerSideEncryption.MODE, "SSE-C"));
    }

    @Test
    void sseKmsWrapsAFreshDataKeyWithTheNamedKeyOrTheDefaultOne() {
        KmsKeys kms = kmsKeys();
        KmsKey named = kms.create("named");
        ServerSideEncryption encryption = new ServerSideEncryption(false, Optional.of(MASTER_KEYS), Optional.of(kms),
                bucket -> Optional.empty());
        String context = Base64.getEncoder().encodeToString("{\"purpose\":\"test\"}".getBytes(StandardCharsets.UTF_8));

        Sealing withKey = encryption.forWrite(kmsRequest("aws:kms", kms.arn(named.id()), context), "b").orElseThrow();
        Sealing withDefault = encryption.forWrite(kmsRequest("aws:kms", null, null), "b").orElseThrow();

        assertThat(withKey.keyedEtag()).as("SSE-KMS's ETag is not the MD5, as AWS's").isTrue();
        assertThat(withKey.stored()).containsEntry(ServerSideEncryption.MODE, "aws:kms")
                .containsEntry(ServerSideEncryption.KMS_KEY_ID, named.id())
                .containsEntry(ServerSideEncryption.KMS_CONTEXT, context).containsKey(ServerSideEncryption.DATA_KEY);
        assertThat(withKey.responseHeaders()).containsEntry("x-amz-server-side-encryption", "aws:kms")
                .containsEntry("x-amz-server-side-encryption-aws-kms-key-id", kms.arn(named.id()))
                .containsEntry("x-amz-server-side-encryption-context", context);
        assertThat(withDefault.stored()).containsEntry(ServerSideEncryption.KMS_KEY_ID, kms.defaultKey().id());
        // What a GET unwraps is the key the PUT sealed with
        Sealing read = encryption.forRead(request(new RequestHeaders(Map.of()), false), version(withKey.stored()))
                .orElseThrow();
        assertThat(read.key().matches(withKey.key().check())).isTrue();
        assertThat(read.responseHeaders()).isEqualTo(withKey.responseHeaders());
    }

    @Test
    void sseKmsRefusesUnknownAndDisabledKeysBadContextsAndKmsHeadersWithoutAwsKms() {
        KmsKeys kms = kmsKeys();
        KmsKey disabled = kms.setEnabled(kms.create("off").id(), false).orElseThrow();
        ServerSideEncryption encryption = new ServerSideEncryption(false, Optional.of(MASTER_KEYS), Optional.of(kms),
                bucket -> Optional.empty());

        assertS3Error(() -> encryption.forWrite(kmsRequest("aws:kms", "no-such-key", null), "b"), S3Error.KMS_NOT_FOUND);
        assertS3Error(() -> encryption.forWrite(kmsRequest("aws:kms", disabled.id(), null), "b"), S3Error.KMS_DISABLED);
        assertS3Error(() -> encryption.forWrite(kmsRequest("aws:kms", null, "not-json"), "b"), S3Error.INVALID_ARGUMENT);
        assertS3Error(() -> encryption.forWrite(kmsRequest("AES256", disabled.id(), null), "b"), S3Error.INVALID_ARGUMENT);
        assertS3Error(() -> encryption.forWrite(kmsRequest("aws:kms:dsse", null, null), "b"), S3Error.NOT_IMPLEMENTED);
        Map<String, List<String>> bucketKey = new LinkedHashMap<>(kmsRequest("aws:kms", null, null).headers().values());
        bucketKey.put("x-amz-server-side-encryption-bucket-key-enabled", List.of("true"));
        assertS3Error(() -> encryption.forWrite(request(new RequestHeaders(bucketKey), false), "b"),
                S3Error.NOT_IMPLEMENTED);
    }

    /** KMS keys on a real RocksDB store in a temporary folder, closed after the test. */
    private KmsKeys kmsKeys() {
        store = dev.hangar.metadata.rocksdb.RocksDbMetadataStore.open(
                dev.hangar.metadata.rocksdb.RocksDbConfig.defaults(folder));
        return new KmsKeys(store, MASTER_KEYS, "us-east-1", java.time.Clock.systemUTC());
    }

    @org.junit.jupiter.api.AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    private static dev.hangar.metadata.ObjectVersion version(Map<String, String> stored) {
        return new dev.hangar.metadata.ObjectVersion("b", "k", "null", java.time.Instant.now(), 0, "\"\"",
                new dev.hangar.metadata.ObjectContent.Inline(new byte[0]), stored, Map.of(), null, List.of());
    }

    private static S3Request kmsRequest(String algorithm, String keyId, String context) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("x-amz-server-side-encryption", List.of(algorithm));
        if (keyId != null) {
            headers.put("x-amz-server-side-encryption-aws-kms-key-id", List.of(keyId));
        }
        if (context != null) {
            headers.put("x-amz-server-side-encryption-context", List.of(context));
        }
        return request(new RequestHeaders(headers), false);
    }

    private static S3Request withAlgorithm(String algorithm) {
        return request(new RequestHeaders(Map.of("x-amz-server-side-encryption", List.of(algorithm))), false);
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
