/**
 * Replicated key-value tables: the storage that replicated metadata (buckets, object versions) is
 * built on, after Garage's table layer.
 *
 * <p>A table holds {@link dev.hangar.cluster.table.Entry entries} addressed by a partition key and a
 * sort key. The partition key alone picks the partition, so every entry of one partition key (e.g.
 * every object of a bucket) lives on one replica set and a listing is a range scan on one node.
 * Entries are state-based CRDTs: a replica merges whatever it receives by the table's {@link
 * dev.hangar.cluster.table.MergeRule} — by default last writer wins on a {@link
 * dev.hangar.cluster.table.Timestamp hybrid logical timestamp} — a total order or a join (a rule may
 * build a new entry from two), commutative, associative and idempotent either way, so replicas
 * converge whatever the order in which writes, read repairs and anti-entropy exchanges reach them. Timestamps
 * decide where values tie (and everywhere under last writer wins), so one entry stamped far in the
 * future would win every later write of its key:
 * every way an entry arrives from another node (a write, an answer to a read, anti-entropy) refuses
 * timestamps further ahead of the local clock than the {@link
 * dev.hangar.cluster.table.HybridLogicalClock}'s bound, with {@link
 * dev.hangar.cluster.table.FutureTimestampException}.
 *
 * <p>{@link dev.hangar.cluster.table.ReplicatedTable} writes to every replica and answers at write
 * quorum, reads at read quorum and repairs the stale replicas it met; {@link
 * dev.hangar.cluster.table.AntiEntropy} compares per-partition hash summaries and exchanges only the
 * entries of differing leaves, for replicas that missed writes no read has repaired.
 */
@NullMarked
package dev.hangar.cluster.table;

import org.jspecify.annotations.NullMarked;
