package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The document of PutBucketEncryption and GetBucketEncryption: the bucket's default encryption, the
 * one {@code Rule} S3 takes, which says how a new object is encrypted when its write asks for no
 * server-side encryption.
 *
 * @param algorithm the {@code SSEAlgorithm} of {@code ApplyServerSideEncryptionByDefault}
 * @param kmsMasterKeyId its {@code KMSMasterKeyID}, which only a KMS algorithm may have; null when left out
 * @param bucketKeyEnabled the rule's {@code BucketKeyEnabled}; false when left out
 * @param blockedEncryptionTypes the {@code EncryptionType}s of the rule's {@code BlockedEncryptionTypes};
 *     empty when left out
 */
public record ServerSideEncryptionConfiguration(
        Algorithm algorithm,
        @Nullable String kmsMasterKeyId,
        boolean bucketKeyEnabled,
        List<EncryptionType> blockedEncryptionTypes) {

    public ServerSideEncryptionConfiguration {
        Objects.requireNonNull(algorithm, "algorithm");
        blockedEncryptionTypes = List.copyOf(blockedEncryptionTypes);
    }

    /** SSE-S3 by default, nothing else: the configuration Hangar can apply. */
    public static ServerSideEncryptionConfiguration aes256() {
        return new ServerSideEncryptionConfiguration(Algorithm.AES256, null, false, List.of());
    }

    /** The server-side encryption a bucket may apply by default. */
    public enum Algorithm {
        /** SSE-S3: keys S3 (here, Hangar) manages. */
        AES256("AES256"),
        /** SSE-KMS. */
        AWS_KMS("aws:kms"),
        /** DSSE-KMS: two layers of encryption with KMS keys. */
        AWS_KMS_DSSE("aws:kms:dsse");

        private final String wireName;

        Algorithm(String wireName) {
            this.wireName = wireName;
        }

        /** The value as {@code SSEAlgorithm} and the {@code x-amz-server-side-encryption} header spell it. */
        public String wireName() {
            return wireName;
        }

        /** Whether the algorithm takes a KMS key, and so may name one in {@code KMSMasterKeyID}. */
        public boolean usesKms() {
            return this != AES256;
        }
    }

    /** The kinds of encryption a write to the bucket may be refused for using. */
    public enum EncryptionType {
        /** Nothing is blocked. */
        NONE("NONE"),
        /** Writes with customer-provided keys are refused. */
        SSE_C("SSE-C");

        private final String wireName;

        EncryptionType(String wireName) {
            this.wireName = wireName;
        }

        public String wireName() {
            return wireName;
        }
    }
}
