package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Request;

/** POST Object: browser uploads authorized by a signed policy document. */
final class PostObjectOperations {
    private final ObjectOperations objects;

    PostObjectOperations(ObjectOperations objects) {
        this.objects = objects;
    }

    S3Response upload(S3Request request, PostForm form) {
        throw new S3Exception(S3Error.NOT_IMPLEMENTED, "PostObject is not implemented by Hangar yet.");
    }
}
