package dev.hangar.s3api.semantics;

import org.jspecify.annotations.Nullable;

/**
 * A bucket's default encryption, as a write that asks for none gets it.
 *
 * @param algorithm {@code AES256} (SSE-S3) or {@code aws:kms} (SSE-KMS), as {@code x-amz-server-side-encryption}
 *     spells them
 * @param kmsKeyId the KMS key of {@code aws:kms}; null for the default key
 */
record DefaultEncryption(String algorithm, @Nullable String kmsKeyId) {}
