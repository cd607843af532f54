package dev.hangar.s3api.semantics;

import dev.hangar.s3api.encryption.ContentKey;

/**
 * A customer-provided key (SSE-C) from a request's headers, checked against the MD5 the request sent with it.
 *
 * @param md5 the base64 MD5 of the key, as the request sent it and S3 echoes it
 */
record CustomerKey(ContentKey key, String md5) {}
