/**
 * The consensus lab's JMH benchmarks: small-object S3 requests ({@code SmallObjectRequests}, the metadata calls the
 * S3 layer makes) on whole cluster nodes in one JVM ({@code InProcessCluster}), leaderless and Raft, coordinated by
 * the leader, a follower or a gateway ({@code Placement}), under a one-way delay on every link; latency in
 * sample-time mode and the rounds the coordinator counted ({@code RoundsCounters}), tabulated by {@code
 * ConsensusTable}. docs/consensus-lab.md explains the parameters and the expected rounds.
 */
@NullMarked
package dev.hangar.bench.consensus;

import org.jspecify.annotations.NullMarked;
