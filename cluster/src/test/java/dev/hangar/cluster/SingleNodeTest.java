package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.blockstore.packed.PackedBlockStore;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MetadataStore;
import java.io.ByteArrayInputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A batch-mode node syncs blocks and metadata in one round, blocks first. */
class SingleNodeTest {
    /** Long enough that no scheduled round runs during a test: only syncNow() and close() sync. */
    private static final Duration NEVER = Duration.ofHours(1);

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final AtomicReference<PackedBlockStore> localBlocks = new AtomicReference<>();

    @Test
    void aBatchNodeForcesEveryPendingBlockBeforeItSyncsTheWriteAheadLog(@TempDir Path dataDirectory)
            throws Exception {
        NodeConfig config = new NodeConfig(dataDirectory, SyncPolicy.batch(NEVER), 8L << 20, NEVER);
        try (SingleNode node = new SingleNode(config, this::recordBlocks, this::recordMetadata)) {
            // The stores run no sync threads of their own: the node's round is the only one.
            assertThat(Thread.getAllStackTraces().keySet())
                    .extracting(Thread::getName)
                    .noneMatch(name -> name.startsWith("hangar-block-sync " + dataDirectory.toAbsolutePath())
                            || name.startsWith("hangar-wal-sync " + dataDirectory));

            for (int i = 0; i < 3; i++) {
                node.blocks().write(BlockId.random(), new ByteArrayInputStream(new byte[] {1, 2, 3}));
            }
            node.metadata().createBucket(new BucketRecord("photos", Instant.EPOCH, "us-east-1"));
            assertThat(localBlocks.get().pendingSyncs()).isEqualTo(3);

            node.syncNow();

            assertThat(events).containsExactly("blocks", "metadata with 0 block writes pending");
            assertThat(localBlocks.get().pendingSyncs()).isZero();

            node.blocks().write(BlockId.random(), new ByteArrayInputStream(new byte[] {4}));
            events.clear();
        }
        // Close runs a last round, blocks first, before it closes the stores.
        assertThat(events.subList(0, 2)).containsExactly("blocks", "metadata with 0 block writes pending");
    }

    private BlockStore recordBlocks(BlockStore real) {
        localBlocks.set((PackedBlockStore) real);
        return (BlockStore) Proxy.newProxyInstance(
                BlockStore.class.getClassLoader(), new Class<?>[] {BlockStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("sync")) {
                        events.add("blocks");
                    }
                    return invoke(real, method, args);
                });
    }

    private MetadataStore recordMetadata(MetadataStore real) {
        return (MetadataStore) Proxy.newProxyInstance(
                MetadataStore.class.getClassLoader(), new Class<?>[] {MetadataStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("sync")) {
                        events.add("metadata with " + localBlocks.get().pendingSyncs() + " block writes pending");
                    }
                    return invoke(real, method, args);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
