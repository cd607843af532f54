package dev.hangar.cluster.raft;

import dev.hangar.metadata.command.MetadataCommand;

/**
 * Which group a command goes to: the route {@link GroupPlan#groupOf} takes (a bucket, or the access keys). Service
 * configurations go with the access keys: both are the service's own records, named by no bucket.
 */
final class Routes {
    private Routes() {}

    static String of(MetadataCommand<?> command) {
        return switch (command) {
            case MetadataCommand.CreateBucket create -> create.record().name();
            case MetadataCommand.DeleteBucket delete -> delete.bucket();
            case MetadataCommand.PutBucketConfig put -> put.bucket();
            case MetadataCommand.DeleteBucketConfig delete -> delete.bucket();
            case MetadataCommand.PutVersion put -> put.version().bucket();
            case MetadataCommand.DeleteVersion delete -> delete.bucket();
            case MetadataCommand.ChangeVersion change -> change.bucket();
            case MetadataCommand.CreateUpload create -> create.upload().bucket();
            case MetadataCommand.PutPart put -> put.upload().bucket();
            case MetadataCommand.CompleteUpload complete -> complete.upload().bucket();
            case MetadataCommand.AbortUpload abort -> abort.upload().bucket();
            case MetadataCommand.PutAccessKey ignored -> GroupPlan.ACCESS_KEYS;
            case MetadataCommand.DeleteAccessKey ignored -> GroupPlan.ACCESS_KEYS;
            case MetadataCommand.ChangeAccessKey ignored -> GroupPlan.ACCESS_KEYS;
            case MetadataCommand.PutServiceConfig ignored -> GroupPlan.ACCESS_KEYS;
            case MetadataCommand.DeleteServiceConfig ignored -> GroupPlan.ACCESS_KEYS;
        };
    }
}
