package dev.hangar.s3api.semantics;

import dev.hangar.s3api.encryption.MasterKeys;
import java.util.Optional;

/**
 * What the S3 semantics need to know about this deployment.
 *
 * @param region the region this service is in, and the only one it accepts in signatures
 * @param inlineThreshold objects of at most this many bytes are stored inside their metadata record
 * @param chunkSize larger objects are cut into blocks of this many bytes
 * @param signatureV2 whether requests and browser uploads signed with Signature Version 2 are taken
 * @param customerKeysOverHttp whether customer-provided encryption keys (SSE-C) are taken over plain HTTP, which
 *     S3 refuses: for a deployment behind a TLS-terminating proxy that does not say so, or for tests
 * @param masterKeys the key service's master keys, which wrap the data keys of SSE-S3 objects; without them
 *     SSE-S3 is refused
 */
public record S3Settings(String region, int inlineThreshold, int chunkSize, boolean signatureV2,
        boolean customerKeysOverHttp, Optional<MasterKeys> masterKeys) {
    public S3Settings {
        if (region == null || region.isBlank()) {
            throw new IllegalArgumentException("region is required");
        }
        if (inlineThreshold < 0) {
            throw new IllegalArgumentException("inline threshold must not be negative");
        }
        if (chunkSize < 4096) {
            throw new IllegalArgumentException("chunk size must be at least 4 KiB");
        }
    }
}
