/**
 * The metadata store of a leaderless cluster: {@link dev.hangar.cluster.meta.ReplicatedMetadataStore}
 * applies every command with the metadata module's state machine over {@code ReplicatedState}, a
 * state whose reads are quorum reads of the replicated table {@value
 * dev.hangar.cluster.meta.ReplicatedMetadataStore#TABLE} and whose writes go out as one multi-entry
 * write when the command is done.
 *
 * <p>Every bucket, configuration, upload, part and access key is one entry ({@code MetaKeys}), every
 * object version one entry and its index ({@code ObjectSlots}), in the single-node store's record
 * format. Version entries merge by {@code MetadataMergeRule} (order, then deletion, then two copies
 * of one version field by field, {@code VersionJoin}), access keys field by field ({@code
 * AccessKeyJoin}), the rest by last writer wins, so versions written through different nodes all
 * survive, and so do changes of different fields of one version or access key, while conditions
 * checked through different nodes can race (see the store's documentation). Partition
 * keys are chosen so that every listing is a range of one partition key, on one replica set. The
 * queue of blocks to free is local to each node ({@code GarbageQueue}, {@code GarbageCheck}), fed by
 * the commands it coordinates and by what its replica sees displaced ({@code DisplacedVersions}), as
 * are the whole-store views, read from this node's replica ({@code LocalReplica}). A bucket's
 * deletion and writes into it through other nodes are kept apart by a mark and a read back
 * ({@code BucketDeletion}).
 *
 * <p>Bucket records, bucket configurations and access keys, which every request consults, are kept
 * for a second by each node ({@code SettingsCache}); a node that changes one tells every other node
 * to drop its copy before the change returns ({@link dev.hangar.cluster.meta.SettingsInvalidation}).
 */
@NullMarked
package dev.hangar.cluster.meta;

import org.jspecify.annotations.NullMarked;
