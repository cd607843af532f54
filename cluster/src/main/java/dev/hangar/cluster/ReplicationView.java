package dev.hangar.cluster;

import dev.hangar.blockstore.BlockStore;
import dev.hangar.cluster.replication.ReplicatedBlockStore;
import dev.hangar.cluster.table.AntiEntropy;
import dev.hangar.cluster.table.LocalTable;
import dev.hangar.cluster.table.ReplicatedTable;
import org.jspecify.annotations.Nullable;

/**
 * The replication machinery of a cluster node, for metrics, the admin API and tests: the replicated
 * metadata table and its anti-entropy, the replicated block store, and this node's own replicas.
 *
 * @param table the metadata table, whose round counts and read repairs are metrics
 * @param antiEntropy compares this node's partitions with their other replicas
 * @param blocks the replicated block store, with its resync queue
 * @param localTable this node's replica of the metadata table, as stored on its disk
 * @param localBlocks this node's copies of blocks; null on a gateway, which stores none
 */
public record ReplicationView(ReplicatedTable table, AntiEntropy antiEntropy, ReplicatedBlockStore blocks,
        LocalTable localTable, @Nullable BlockStore localBlocks) {}
