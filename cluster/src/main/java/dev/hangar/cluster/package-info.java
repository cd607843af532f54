/**
 * The storage service behind the S3 API. Today a node is a cluster of one ({@link
 * dev.hangar.cluster.Cluster#singleNode}); replication policies will plug in behind {@link
 * dev.hangar.cluster.ClusterNode} without the S3 layer noticing.
 */
@NullMarked
package dev.hangar.cluster;

import org.jspecify.annotations.NullMarked;
