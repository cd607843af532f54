package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;

/** Tagging, ACL, retention and legal hold of object versions. */
final class ObjectConfigurationOperations {
    private final ObjectOperations objects;
    private final BucketConfigurations configurations;

    ObjectConfigurationOperations(ObjectOperations objects, BucketConfigurations configurations) {
        this.objects = objects;
        this.configurations = configurations;
    }

    S3Response execute(S3Operation.ObjectConfiguration operation, S3Request request, Payload payload, Caller caller) {
        throw new S3Exception(S3Error.NOT_IMPLEMENTED, operation.name() + " is not implemented by Hangar yet.");
    }
}
