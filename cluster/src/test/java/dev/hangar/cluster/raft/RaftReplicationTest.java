package dev.hangar.cluster.raft;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.Applied;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.ReplicationMode;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.command.MetadataCommand;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Three nodes in the Raft mode: commands through every node are applied on every member. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RaftReplicationTest {
    @TempDir
    Path dir;

    @Test
    void aBucketCreatedThroughOneNodeIsSeenThroughEveryNode() {
        try (RaftCluster cluster = RaftCluster.start(dir, 3, RaftSettings.Reads.LEASE)) {
            ClusterNode first = cluster.node(0);
            assertThat(first.replication().mode()).isEqualTo(ReplicationMode.RAFT);
            Applied<Boolean> created = first.replication().submit(new MetadataCommand.CreateBucket(
                    new BucketRecord("photos", Instant.parse("2026-11-26T00:00:00Z"), "us-east-1")));
            assertThat(created.outcome().value()).isTrue();
            assertThat(created.exactlyOnce()).isTrue();
            for (ClusterNode node : cluster.nodes()) {
                assertThat(node.metadata().getBucket("photos")).as("through %s", node).isPresent();
                assertThat(node.metadata().listBuckets()).extracting(BucketRecord::name).containsExactly("photos");
            }
            Applied<Boolean> again = cluster.node(2).replication().submit(new MetadataCommand.CreateBucket(
                    new BucketRecord("photos", Instant.parse("2026-11-26T00:00:01Z"), "us-east-1")));
            assertThat(again.outcome().value()).isFalse();
        }
    }

    @Test
    void aServiceConfigurationPutThroughOneNodeIsSeenThroughEveryNodeRightAfter() {
        try (RaftCluster cluster = RaftCluster.start(dir, 3, RaftSettings.Reads.LEASE)) {
            for (int round = 0; round < 3; round++) {
                ClusterNode writer = cluster.node(round % 3);
                byte[] document = ("wrapped " + round).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                writer.metadata().putServiceConfig("kms-key", "key-" + round, document);
                for (ClusterNode node : cluster.nodes()) {
                    long before = node.replication().stats().reads().getOrDefault("getServiceConfig",
                            new dev.hangar.cluster.ReplicationStats.Totals(0, 0)).rounds();
                    assertThat(node.metadata().getServiceConfig("kms-key", "key-" + round))
                            .as("round %d, written through %s, read through %s", round, writer, node)
                            .hasValueSatisfying(found -> assertThat(found).isEqualTo(document));
                    long after = node.replication().stats().reads().get("getServiceConfig").rounds();
                    assertThat(after - before).as("a member reads settings from its own replica").isZero();
                    assertThat(node.metadata().listServiceConfigs("kms-key")).as("through %s", node)
                            .hasSize(round + 1);
                }
            }
            assertThat(cluster.node(1).metadata().deleteServiceConfig("kms-key", "key-0")).isTrue();
            for (ClusterNode node : cluster.nodes()) {
                assertThat(node.metadata().getServiceConfig("kms-key", "key-0")).as("through %s", node).isEmpty();
                assertThat(node.metadata().listServiceConfigs("kms-key")).as("through %s", node)
                        .containsOnlyKeys("key-1", "key-2");
            }
        }
    }

    @Test
    void aSettingsChangeIsSeenThroughEveryMemberWithoutARound() throws Exception {
        try (RaftCluster cluster = RaftCluster.start(dir, 3, RaftSettings.Reads.LEASE)) {
            Applied<Boolean> created = cluster.node(1).replication().submit(new MetadataCommand.CreateBucket(
                    new BucketRecord("settings", Instant.parse("2026-11-26T00:00:00Z"), "us-east-1")));
            // The command's round(s), then one while every member gets it committed.
            assertThat(created.rounds()).isBetween(2, 3);
            byte[] policy = "{\"Version\": \"2012-10-17\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            for (int round = 0; round < 5; round++) {
                int writer = round % 3;
                byte[] document = (round + ":" + new String(policy, java.nio.charset.StandardCharsets.UTF_8))
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                cluster.node(writer).metadata().putBucketConfig("settings", "policy", document);
                for (ClusterNode node : cluster.nodes()) {
                    long before = node.replication().stats().reads().getOrDefault("getBucketConfig",
                            new dev.hangar.cluster.ReplicationStats.Totals(0, 0)).rounds();
                    assertThat(node.metadata().getBucketConfig("settings", "policy"))
                            .as("round %d, written through n%d, read through %s", round, writer + 1, node)
                            .hasValueSatisfying(found -> assertThat(found).isEqualTo(document));
                    long after = node.replication().stats().reads().get("getBucketConfig").rounds();
                    assertThat(after - before).as("a member reads settings from its own replica").isZero();
                }
            }
        }
    }
}
