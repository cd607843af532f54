package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.RequestHeaders;

/**
 * Server-side encryption, which Hangar does not implement yet: a request that asks for it in any form is
 * answered {@code 501 NotImplemented} naming the header, never served as if its data were encrypted. That
 * matters most for SSE-C, where the client believes that without its key nobody can read the object: stored
 * in the clear, a later GET without the key would hand the data to anyone allowed to read it.
 *
 * <p>The headers, by feature: SSE-S3 and SSE-KMS ({@code x-amz-server-side-encryption}, {@code
 * ...-aws-kms-key-id}, {@code ...-context}, {@code ...-bucket-key-enabled}), SSE-C on the object ({@code
 * x-amz-server-side-encryption-customer-algorithm}, {@code -key}, {@code -key-md5}) and on a copy's source
 * ({@code x-amz-copy-source-server-side-encryption-customer-*}). Every header with these prefixes is taken
 * for one, so a new one S3 adds is refused too rather than ignored. POST Object form fields of the same
 * names are refused alike.
 */
final class ServerSideEncryption {
    private static final String PREFIX = "x-amz-server-side-encryption";
    private static final String COPY_SOURCE_PREFIX = "x-amz-copy-source-server-side-encryption";

    private ServerSideEncryption() {}

    /** @throws S3Exception NotImplemented naming the first encryption header and its feature */
    static void refuse(RequestHeaders headers) {
        for (String name : headers.values().keySet()) {
            if (name.startsWith(PREFIX) || name.startsWith(COPY_SOURCE_PREFIX)) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, feature(name) + " is not implemented by Hangar yet "
                        + "(the request has " + name + "): Hangar stores objects unencrypted, so it refuses "
                        + "requests that ask for encryption.");
            }
        }
    }

    private static String feature(String header) {
        if (header.contains("-customer-")) {
            return header.startsWith(COPY_SOURCE_PREFIX)
                    ? "Server-side encryption with customer-provided keys (SSE-C) of a copy source"
                    : "Server-side encryption with customer-provided keys (SSE-C)";
        }
        if (header.contains("-aws-kms-") || header.endsWith("-context")) {
            return "Server-side encryption with AWS KMS keys (SSE-KMS)";
        }
        if (header.endsWith("-bucket-key-enabled")) {
            return "S3 Bucket Keys for server-side encryption";
        }
        return "Server-side encryption (SSE-S3, SSE-KMS)";
    }
}
