package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;

/** Get, Put and Delete of a bucket's configuration documents. */
final class BucketConfigurationOperations {
    private final BucketConfigurations configurations;
    private final ObjectOperations objects;

    BucketConfigurationOperations(BucketConfigurations configurations, ObjectOperations objects) {
        this.configurations = configurations;
        this.objects = objects;
    }

    S3Response execute(S3Operation.BucketConfiguration operation, S3Request request, Payload payload, Caller caller) {
        throw new S3Exception(S3Error.NOT_IMPLEMENTED, operation.name() + " is not implemented by Hangar yet.");
    }
}
