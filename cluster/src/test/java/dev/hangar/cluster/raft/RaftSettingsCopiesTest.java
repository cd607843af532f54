package dev.hangar.cluster.raft;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.ReplicationStats;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.command.MetadataCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four nodes, so that each bucket's group (three members) leaves one node out: that node keeps copies of the
 * settings it reads from the group's leader, and a change through any node, itself included, is seen through it at
 * once.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RaftSettingsCopiesTest {
    private static final String BUCKET = "copies";

    @TempDir
    Path dir;

    @Test
    void aNodeOutsideTheGroupReadsSettingsFromItsCopyAndSeesEveryChangeAtOnce() throws Exception {
        try (RaftCluster cluster = RaftCluster.start(dir, 4, RaftSettings.Reads.LEASE)) {
            GroupPlan.Group group = cluster.plan().groupOf(BUCKET);
            ClusterNode outside = cluster.nodes().stream()
                    .filter(node -> !group.hasMember(RaftCluster.id(node))).findFirst().orElseThrow();
            cluster.node(group.members().getFirst()).replication().submit(new MetadataCommand.CreateBucket(
                    new BucketRecord(BUCKET, Instant.parse("2026-11-26T00:00:00Z"), "us-east-1")));

            assertThat(outside.metadata().getBucketConfig(BUCKET, "policy")).isEmpty();
            long first = rounds(outside);
            assertThat(outside.metadata().getBucketConfig(BUCKET, "policy")).isEmpty();
            assertThat(rounds(outside) - first).as("the second read of an absent setting is the copy's").isZero();

            int round = 0;
            for (ClusterNode writer : cluster.nodes()) {
                byte[] document = ("{\"round\": " + round++ + "}").getBytes(StandardCharsets.UTF_8);
                writer.metadata().putBucketConfig(BUCKET, "policy", document);
                NodeId by = RaftCluster.id(writer);
                assertThat(outside.metadata().getBucketConfig(BUCKET, "policy"))
                        .as("read through %s right after a change through %s", RaftCluster.id(outside), by)
                        .hasValueSatisfying(found -> assertThat(found).isEqualTo(document));
                long before = rounds(outside);
                assertThat(outside.metadata().getBucketConfig(BUCKET, "policy"))
                        .hasValueSatisfying(found -> assertThat(found).isEqualTo(document));
                assertThat(rounds(outside) - before).as("read again from the copy, after a change through %s", by)
                        .isZero();
            }
            outside.metadata().getBucketConfig(BUCKET, "policy").orElseThrow()[0] = 'X';
            assertThat(outside.metadata().getBucketConfig(BUCKET, "policy").orElseThrow()[0])
                    .as("a caller that changes its array does not change the copy").isEqualTo((byte) '{');
        }
    }

    private static long rounds(ClusterNode node) {
        return node.replication().stats().reads()
                .getOrDefault("getBucketConfig", new ReplicationStats.Totals(0, 0)).rounds();
    }
}
