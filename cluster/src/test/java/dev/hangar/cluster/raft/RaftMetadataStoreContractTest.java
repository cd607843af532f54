package dev.hangar.cluster.raft;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.meta.RoundRobinStore;
import dev.hangar.metadata.AbstractMetadataStoreContractTest;
import dev.hangar.metadata.MetadataStore;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole metadata store contract on three nodes in the Raft mode, each operation through a different node than
 * the one before ({@link RoundRobinStore}), with nothing left out: every command is applied at one point of its
 * group's log, so the conditions that the leaderless mode can only check against a coordinator's quorum read
 * (If-None-Match, Object Lock, parts, concurrent changes of one version or one access key) hold across nodes.
 *
 * <p>Before a whole-store view of one node (statistics, block references), {@code catchUp} puts a ReadIndex barrier
 * on each of its groups: its replicas then hold every committed command, even on a follower in lease mode, whose
 * reads go to the leader.
 *
 * <p>Settings are read linearizably here: by default a member reads them from its own replica, which a settings
 * change waits (at most a second) to reach every member; on a machine too loaded for that second, the contract's
 * read-your-writes across nodes would not hold. The S3 suite on Raft nodes runs the default, and {@code
 * RaftReplicationTest} tests it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RaftMetadataStoreContractTest extends AbstractMetadataStoreContractTest {
    @TempDir
    Path dir;

    private RaftCluster cluster;

    @Override
    protected MetadataStore openStore() {
        if (cluster == null) {
            cluster = RaftCluster.start(dir, 3, RaftSettings.Reads.LEASE);
            cluster.nodes().forEach(node -> RaftCluster.raft(node).linearizableSettings(true));
        }
        return new RoundRobinStore(cluster.nodes().stream()
                .map(node -> ((RaftReplication) node.replication()).newView()).toList(),
                index -> RaftCluster.raft(cluster.node(index)).catchUp());
    }

    // Runs before the contract's own @AfterEach closes the store: closing it twice is harmless.
    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
