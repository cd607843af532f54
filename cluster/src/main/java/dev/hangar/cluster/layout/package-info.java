/**
 * The partition layout: which nodes hold which part of the key space.
 *
 * <p>The key space is split into a fixed number of partitions (256 by default); an object key or a
 * block id maps to a partition through a stable hash ({@link dev.hangar.cluster.layout.Partitioning}),
 * and a versioned {@link dev.hangar.cluster.layout.ClusterLayout} names the ordered replicas of every
 * partition. Partitions rather than a hash ring of virtual nodes, as in Garage: the layout is a small
 * table that every node can hold, compare by version and exchange as bytes ({@link
 * dev.hangar.cluster.layout.LayoutCodec}).
 *
 * <p>{@link dev.hangar.cluster.layout.LayoutPlanner} computes a new layout from the previous one and
 * the node roles: replicas spread over as many zones as there are, partition counts in proportion to
 * capacity, and as few moved replicas as those two constraints allow, because every moved replica is
 * data copied across the network.
 */
@NullMarked
package dev.hangar.cluster.layout;

import org.jspecify.annotations.NullMarked;
