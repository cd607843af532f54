/**
 * Leaderless replication of blocks (chunks): each block lives on the replicas of its partition
 * ({@code Partitioning.partitionOfBlock}), is written at a write quorum in one round of parallel
 * calls, and is read from the closest replica that membership believes up, falling back to the next
 * one (replicas believed down come last: {@link dev.hangar.cluster.membership.ReplicaOrder}).
 *
 * <p><b>Wire messages</b> (all on {@link dev.hangar.cluster.rpc.RpcServer}; ids travel as their 16
 * raw bytes, integers big-endian):
 *
 * <ul>
 *   <li>{@code blocks.put}: id(16) crc32c(4) layout version(8) data(rest) → empty. The replica checks
 *       the CRC32C before storing, and a block it already holds is acknowledged without being
 *       rewritten, so a put can be retried or sent by two resync workers at once. The layout version
 *       is the one under which the writer chose the block's replicas: a replica that has moved to a
 *       newer layout passes the copy on to that layout's owners (see {@code ResyncQueue.landedLate}).
 *   <li>{@code blocks.get}: id(16) offset(8) length(8) verified(1) [size(8) crc32c(4) if verified]
 *       → status(1) data(rest). Status: 0 found, 1 missing, 2 corrupt, 3 range outside the block.
 *       A verified get checks the whole block on the replica and ships only the range.
 *   <li>{@code blocks.exists}: id(16) → status(1) (0 found, 1 missing).
 *   <li>{@code blocks.delete}: id(16) → empty.
 * </ul>
 *
 * <p>Missing and corrupt copies are answers, not errors, so that a coordinator can tell "this
 * replica does not have it" (fall back, and maybe the block is gone) from "this replica could not be
 * asked" (fall back, and queue a repair).
 */
@NullMarked
package dev.hangar.cluster.replication;

import org.jspecify.annotations.NullMarked;
