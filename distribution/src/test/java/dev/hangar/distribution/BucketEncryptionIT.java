package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.EncryptionType;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionByDefault;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionRule;

/**
 * Put/Get/DeleteBucketEncryption, the bucket's default encryption configuration: AES256 (SSE-S3) is
 * stored and read back; what Hangar does not implement (SSE-KMS, DSSE-KMS, S3 Bucket Keys, blocking
 * SSE-C) is NotImplemented and stores nothing; documents S3 refuses get S3's errors. Whether writes
 * apply the stored configuration is not tested here.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BucketEncryptionIT extends AbstractS3IT {
    private static final String NOT_FOUND = "ServerSideEncryptionConfigurationNotFoundError";
    private static final String AES256_DOCUMENT = """
            <ServerSideEncryptionConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Rule><ApplyServerSideEncryptionByDefault><SSEAlgorithm>AES256</SSEAlgorithm>\
            </ApplyServerSideEncryptionByDefault></Rule>
            </ServerSideEncryptionConfiguration>""";

    private AdminApi admin;

    @BeforeAll
    void connectAdmin() {
        admin = new AdminApi(managementEndpoint(), http);
    }

    @Test
    void putGetAndDeleteAes256() {
        String bucket = createBucket("enc-crud");
        S3Exception none = assertS3Error(() -> s3.getBucketEncryption(request -> request.bucket(bucket)), 404, NOT_FOUND);
        assertThat(none.awsErrorDetails().errorMessage()).isEqualTo("The server side encryption configuration was not found");

        encrypt(s3, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256()));
        ServerSideEncryptionRule stored = ruleOf(bucket);
        assertThat(stored.applyServerSideEncryptionByDefault().sseAlgorithm()).isEqualTo(ServerSideEncryption.AES256);
        assertThat(stored.applyServerSideEncryptionByDefault().kmsMasterKeyID()).isNull();
        assertThat(stored.bucketKeyEnabled()).isFalse();
        assertThat(stored.blockedEncryptionTypes()).isNull();

        // Everything a client may spell out without asking for more than SSE-S3 is taken, and read back.
        encrypt(s3, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256()).bucketKeyEnabled(false)
                .blockedEncryptionTypes(types -> types.encryptionType(EncryptionType.NONE)));
        assertThat(ruleOf(bucket).blockedEncryptionTypes().encryptionType()).containsExactly(EncryptionType.NONE);

        s3.deleteBucketEncryption(request -> request.bucket(bucket));
        assertS3Error(() -> s3.getBucketEncryption(request -> request.bucket(bucket)), 404, NOT_FOUND);
        s3.deleteBucketEncryption(request -> request.bucket(bucket));

        String missing = newBucketName("enc-missing");
        assertS3Error(() -> s3.getBucketEncryption(request -> request.bucket(missing)), 404, "NoSuchBucket");
        assertS3Error(() -> encrypt(s3, missing, rule -> rule.applyServerSideEncryptionByDefault(aes256())),
                404, "NoSuchBucket");
        assertS3Error(() -> s3.deleteBucketEncryption(request -> request.bucket(missing)), 404, "NoSuchBucket");
    }

    @Test
    void deleteAnswers204() {
        String bucket = createBucket("enc-delete");
        encrypt(s3, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256()));
        for (int attempt = 0; attempt < 2; attempt++) {
            RawS3.Response deleted = raw.send(raw.sign(raw.request(SdkHttpMethod.DELETE, "/" + bucket)
                    .putRawQueryParameter("encryption", "").build(), new byte[0], properties -> {
                    }));
            assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);
        }
    }

    @Test
    void whatHangarDoesNotImplementIsNotImplementedAndStoresNothing() {
        String bucket = createBucket("enc-kms");
        encrypt(s3, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256()));

        assertNotImplemented(bucket, rule -> rule.applyServerSideEncryptionByDefault(
                byDefault -> byDefault.sseAlgorithm(ServerSideEncryption.AWS_KMS_DSSE)), "DSSE-KMS");
        assertNotImplemented(bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256()).bucketKeyEnabled(true),
                "Bucket Keys");
        assertNotImplemented(bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256())
                .blockedEncryptionTypes(types -> types.encryptionType(EncryptionType.SSE_C)), "SSE-C");

        ServerSideEncryptionRule stored = ruleOf(bucket);
        assertThat(stored.applyServerSideEncryptionByDefault().sseAlgorithm()).isEqualTo(ServerSideEncryption.AES256);
        assertThat(stored.bucketKeyEnabled()).isFalse();
    }

    @Test
    void refusesDocumentsS3Refuses() {
        String bucket = createBucket("enc-malformed");
        assertS3Error(() -> encrypt(s3, bucket, rule -> rule.applyServerSideEncryptionByDefault(
                byDefault -> byDefault.sseAlgorithm("SSE-S3"))), 400, "MalformedXML");
        assertS3Error(() -> s3.putBucketEncryption(request -> request.bucket(bucket)
                .serverSideEncryptionConfiguration(configuration -> configuration.rules(List.of()))),
                400, "MalformedXML");
        assertS3Error(() -> s3.putBucketEncryption(request -> request.bucket(bucket)
                .serverSideEncryptionConfiguration(configuration -> configuration.rules(
                        ServerSideEncryptionRule.builder().applyServerSideEncryptionByDefault(aes256()).build(),
                        ServerSideEncryptionRule.builder().applyServerSideEncryptionByDefault(aes256()).build()))),
                400, "MalformedXML");
        assertS3Error(() -> encrypt(s3, bucket, rule -> rule.bucketKeyEnabled(false)), 400, "MalformedXML");
        assertS3Error(() -> encrypt(s3, bucket, rule -> rule.applyServerSideEncryptionByDefault(
                byDefault -> byDefault.sseAlgorithm(ServerSideEncryption.AES256).kmsMasterKeyID("alias/photos"))),
                400, "InvalidArgument");

        RawS3.Response empty = putRaw(bucket, "", null);
        assertThat(empty.status()).as(empty.toString()).isEqualTo(400);
        assertThat(empty.errorCode()).hasValue("MalformedXML");
        RawS3.Response notXml = putRaw(bucket, "<ServerSideEncryptionConfiguration><Rule>", null);
        assertThat(notXml.status()).as(notXml.toString()).isEqualTo(400);
        assertThat(notXml.errorCode()).hasValue("MalformedXML");
        assertS3Error(() -> s3.getBucketEncryption(request -> request.bucket(bucket)), 404, NOT_FOUND);
    }

    @Test
    void checksTheContentMd5AsEveryConfigurationPutDoes() {
        String bucket = createBucket("enc-md5");
        RawS3.Response wrong = putRaw(bucket, AES256_DOCUMENT, md5("something else"));
        assertThat(wrong.status()).as(wrong.toString()).isEqualTo(400);
        assertThat(wrong.errorCode()).hasValue("BadDigest");
        assertS3Error(() -> s3.getBucketEncryption(request -> request.bucket(bucket)), 404, NOT_FOUND);

        RawS3.Response right = putRaw(bucket, AES256_DOCUMENT, md5(AES256_DOCUMENT));
        assertThat(right.status()).as(right.toString()).isEqualTo(200);
        assertThat(ruleOf(bucket).applyServerSideEncryptionByDefault().sseAlgorithm())
                .isEqualTo(ServerSideEncryption.AES256);
    }

    @Test
    void readingNeedsReadAndChangingNeedsOwnerOfTheKey() {
        String bucket = createBucket("enc-access");
        encrypt(s3, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256()));
        AdminApi.Key key = admin.createKey();
        try (S3Client client = clientFor(key.id(), key.secret())) {
            assertS3Error(() -> client.getBucketEncryption(request -> request.bucket(bucket)), 403, "AccessDenied");

            admin.permit(key.id(), bucket, true, true, false);
            assertThat(client.getBucketEncryption(request -> request.bucket(bucket))
                    .serverSideEncryptionConfiguration().rules()).hasSize(1);
            assertS3Error(() -> encrypt(client, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256())),
                    403, "AccessDenied");
            assertS3Error(() -> client.deleteBucketEncryption(request -> request.bucket(bucket)), 403, "AccessDenied");

            admin.permit(key.id(), bucket, true, true, true);
            client.deleteBucketEncryption(request -> request.bucket(bucket));
            encrypt(client, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256()));
        }
    }

    @Test
    void aPolicyDenyingPutEncryptionConfigurationDeniesPutAndDelete() {
        String bucket = createBucket("enc-policy");
        AdminApi.Key key = admin.createKey();
        admin.permit(key.id(), bucket, true, true, true);
        s3.putBucketPolicy(request -> request.bucket(bucket).policy("""
                {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": {"AWS": ["%s"]},
                  "Action": "s3:PutEncryptionConfiguration", "Resource": "arn:aws:s3:::%s"}]}"""
                .formatted(key.id(), bucket)));
        try (S3Client client = clientFor(key.id(), key.secret())) {
            assertS3Error(() -> encrypt(client, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256())),
                    403, "AccessDenied");
            encrypt(s3, bucket, rule -> rule.applyServerSideEncryptionByDefault(aes256()));
            assertS3Error(() -> client.deleteBucketEncryption(request -> request.bucket(bucket)), 403, "AccessDenied");
            assertThat(client.getBucketEncryption(request -> request.bucket(bucket))
                    .serverSideEncryptionConfiguration().rules()).hasSize(1);
        }
    }

    // Helpers

    private static ServerSideEncryptionByDefault aes256() {
        return ServerSideEncryptionByDefault.builder().sseAlgorithm(ServerSideEncryption.AES256).build();
    }

    private static void encrypt(S3Client client, String bucket, Consumer<ServerSideEncryptionRule.Builder> rule) {
        client.putBucketEncryption(request -> request.bucket(bucket)
                .serverSideEncryptionConfiguration(configuration -> configuration.rules(
                        ServerSideEncryptionRule.builder().applyMutation(rule).build())));
    }

    private ServerSideEncryptionRule ruleOf(String bucket) {
        List<ServerSideEncryptionRule> rules = s3.getBucketEncryption(request -> request.bucket(bucket))
                .serverSideEncryptionConfiguration().rules();
        assertThat(rules).hasSize(1);
        return rules.getFirst();
    }

    private void assertNotImplemented(String bucket, Consumer<ServerSideEncryptionRule.Builder> rule, String named) {
        S3Exception refused = assertS3Error(() -> encrypt(s3, bucket, rule), 501, "NotImplemented");
        assertThat(refused.awsErrorDetails().errorMessage()).contains(named);
    }

    private RawS3.Response putRaw(String bucket, String document, @Nullable String contentMd5) {
        var request = raw.request(SdkHttpMethod.PUT, "/" + bucket).putRawQueryParameter("encryption", "");
        if (contentMd5 != null) {
            request.putHeader("Content-MD5", contentMd5);
        }
        return raw.send(raw.sign(request.build(), document.getBytes(StandardCharsets.UTF_8), properties -> {
        }));
    }

    private static String md5(String text) {
        try {
            return Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
