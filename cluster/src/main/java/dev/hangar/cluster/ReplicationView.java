package dev.hangar.cluster;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.cluster.replication.ReplicatedBlockStore;
import dev.hangar.cluster.table.LocalTable;
import org.jspecify.annotations.Nullable;

/**
 * The replicated stores of a cluster node, for metrics, the admin API and tests: the block store
 * that keeps chunks at write quorum in every replication mode, and this node's own replicas. The
 * metadata's replication is {@link ClusterNode#replication()}.
 *
 * @param blocks the replicated block store, with its resync queue
 * @param localTable this node's replica of the metadata records, as stored on its disk
 * @param localBlocks this node's copies of blocks; null on a gateway, which stores none
 */
public record ReplicationView(ReplicatedBlockStore blocks, LocalTable localTable, @Nullable BlockStore localBlocks) {}
