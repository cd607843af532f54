/**
 * The metadata store of a cluster: {@link dev.hangar.cluster.meta.ReplicatedMetadataStore} keeps
 * every bucket, object version stack, upload, part, bucket configuration and access key as one
 * entry of the leaderless replicated table {@value dev.hangar.cluster.meta.ReplicatedMetadataStore#TABLE}
 * ({@link dev.hangar.cluster.table.ReplicatedTable}), in the single-node store's record format.
 *
 * <p>Partition keys are chosen so that every listing is a range of one partition key, on one
 * replica set ({@code MetaKeys}); an object key's versions are one entry ({@code VersionStack}), so
 * a mutation of a key is one quorum read and one quorum write, under a lock of this node. Writers
 * through different nodes resolve by last-writer-wins on hybrid timestamps, which is weaker than
 * the single-node store (see the store's documentation for what can be lost and what is left as
 * orphans). The queue of blocks to free is local to each node ({@code GarbageQueue}), as are the
 * whole-store views, read from this node's replica ({@code LocalReplica}). Listings page through
 * quorum range reads ({@code RangeCursor}) and roll keys up at the delimiter ({@code Rollup}).
 *
 * <p>Bucket records, bucket configurations and access keys, which every request consults, are kept
 * for a second by each node ({@code SettingsCache}); a node that changes one tells every other node
 * to drop its copy before the change returns ({@link dev.hangar.cluster.meta.SettingsInvalidation}).
 */
@NullMarked
package dev.hangar.cluster.meta;

import org.jspecify.annotations.NullMarked;
