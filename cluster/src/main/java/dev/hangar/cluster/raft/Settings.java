package dev.hangar.cluster.raft;

import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.query.ReadQuery;

/**
 * Which commands and reads concern settings: buckets, their configuration, access keys and service configurations. Every S3 request reads
 * some (the bucket, its policy, the caller's key), so in the Raft mode a member reads them from its own replica
 * without a round, and a change of them waits until every member has it committed (one more round) before it is
 * acknowledged: the same bargain as the leaderless mode's settings cache and its invalidation.
 */
final class Settings {
    private Settings() {}

    static boolean changes(MetadataCommand<?> command) {
        return switch (command) {
            case MetadataCommand.CreateBucket ignored -> true;
            case MetadataCommand.DeleteBucket ignored -> true;
            case MetadataCommand.PutBucketConfig ignored -> true;
            case MetadataCommand.DeleteBucketConfig ignored -> true;
            case MetadataCommand.PutAccessKey ignored -> true;
            case MetadataCommand.DeleteAccessKey ignored -> true;
            case MetadataCommand.ChangeAccessKey ignored -> true;
            case MetadataCommand.PutServiceConfig ignored -> true;
            case MetadataCommand.DeleteServiceConfig ignored -> true;
            default -> false;
        };
    }

    static boolean isRead(ReadQuery<?> query) {
        return query instanceof ReadQuery.GetBucket || query instanceof ReadQuery.GetBucketConfig
                || query instanceof ReadQuery.GetAccessKey || query instanceof ReadQuery.GetServiceConfig;
    }
}
