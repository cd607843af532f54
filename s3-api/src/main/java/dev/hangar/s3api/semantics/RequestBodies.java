package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.InputStream;

/** Small request documents (XML), read whole and verified before they are parsed. */
final class RequestBodies {
    private RequestBodies() {}

    /**
     * Reads a document body to its end, which is when the payload's signature and digests are
     * verified, refusing anything longer than {@code limit}.
     */
    static byte[] readDocument(Payload payload, int limit) {
        return Failures.io(() -> {
            InputStream in = payload.stream();
            byte[] document = in.readNBytes(limit);
            if (in.read() != -1) {
                throw new S3Exception(S3Error.MALFORMED_XML, "The XML document is larger than " + limit + " bytes.");
            }
            return document;
        });
    }
}
