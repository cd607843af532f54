package dev.hangar.s3api.semantics;

import dev.hangar.s3api.encryption.ContentKey;
import java.util.Map;

/**
 * How a version's or a part's content is sealed, as a request resolved it ({@link ServerSideEncryption}): the key,
 * and how the sealing shows.
 *
 * @param key the content's key: the customer's (SSE-C) or a data key of the key service (SSE-S3)
 * @param keyedEtag whether the entity tag is keyed rather than the plaintext's MD5 (SSE-C: as AWS's, it is not
 *     an MD5; SSE-S3's is)
 * @param stored the facts a new version or upload keeps of it ({@link ObjectHeaders#isStoredFact})
 * @param responseHeaders what S3 answers about it
 */
record Sealing(ContentKey key, boolean keyedEtag, Map<String, String> stored, Map<String, String> responseHeaders) {
    Sealing {
        stored = Map.copyOf(stored);
        responseHeaders = Map.copyOf(responseHeaders);
    }
}
