package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.TableConfig;
import dev.hangar.metadata.AbstractMetadataStoreContractTest;
import dev.hangar.metadata.MetadataStore;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadata store contract on three nodes on loopback with quorums of 2 of 3 (consistent mode),
 * every operation through node a: what one coordinator guarantees, which is everything the
 * contract asks, atomicity of concurrent conditional writes and changes included (commands through
 * one node are serialised per key). Reopening gives a new store on the same table and garbage
 * queue. {@link ReplicatedMetadataStoreContractTest} runs the same contract across coordinators.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ReplicatedMetadataStoreSameNodeContractTest extends AbstractMetadataStoreContractTest {
    @TempDir
    Path dir;

    private MetaCluster cluster;

    @Override
    protected MetadataStore openStore() {
        if (cluster == null) {
            try {
                cluster = new MetaCluster(dir, TableConfig.consistent(ReplicatedMetadataStore.TABLE), "a", "b", "c");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return cluster.node("a").openStore();
    }

    // Runs before the contract's own @AfterEach closes the store: closing it twice is harmless.
    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
