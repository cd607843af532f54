package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.metadata.MetadataStore;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The order of a node's sync round, with stores that only record their syncs. */
class NodeSyncTest {
    private static final Duration NEVER = Duration.ofHours(1);

    private final List<String> events = new CopyOnWriteArrayList<>();

    @Test
    void aRoundForcesTheBlocksBeforeItSyncsTheMetadata() throws IOException {
        try (NodeSync sync = new NodeSync(recordingBlocks(null), recordingMetadata(), NEVER)) {
            sync.runRound();
            sync.runRound();

            assertThat(events).containsExactly("blocks", "metadata", "blocks", "metadata");
        }
    }

    @Test
    void roundsRunEveryIntervalAndOnceMoreOnClose() throws Exception {
        NodeSync sync = new NodeSync(recordingBlocks(null), recordingMetadata(), Duration.ofMillis(10));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (events.size() < 6 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        sync.close();
        int afterClose = events.size();
        Thread.sleep(50);

        assertThat(events).hasSizeGreaterThanOrEqualTo(8).hasSize(afterClose);
        for (int i = 0; i < events.size(); i += 2) {
            assertThat(events.subList(i, i + 2)).containsExactly("blocks", "metadata");
        }
    }

    @Test
    void aRoundWhoseBlocksFailLeavesTheMetadataUnsynced() {
        NodeSync sync = new NodeSync(recordingBlocks(new IOException("disk gone")), recordingMetadata(), NEVER);

        assertThatThrownBy(sync::runRound).hasMessage("disk gone");
        assertThatThrownBy(sync::close).hasMessage("disk gone");
        assertThat(events).containsExactly("blocks", "blocks");
    }

    /** An in-memory block store that records its syncs, and fails them with {@code failure} if given. */
    private BlockStore recordingBlocks(@Nullable IOException failure) {
        BlockStore inMemory = BlockStores.inMemory();
        return new BlockStore() {
            @Override
            public BlockRef write(BlockId id, InputStream content)
                    throws IOException {
                return inMemory.write(id, content);
            }

            @Override
            public InputStream read(BlockId id, long offset, long length)
                    throws IOException {
                return inMemory.read(id, offset, length);
            }

            @Override
            public boolean exists(BlockId id) throws IOException {
                return inMemory.exists(id);
            }

            @Override
            public void delete(BlockId id) throws IOException {
                inMemory.delete(id);
            }

            @Override
            public void sync() throws IOException {
                events.add("blocks");
                if (failure != null) {
                    throw failure;
                }
            }

            @Override
            public void close() throws IOException {
                inMemory.close();
            }
        };
    }

    /** A metadata store that only records its syncs; any other call fails the test. */
    private MetadataStore recordingMetadata() {
        return (MetadataStore) Proxy.newProxyInstance(
                MetadataStore.class.getClassLoader(), new Class<?>[] {MetadataStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("sync")) {
                        events.add("metadata");
                        return null;
                    }
                    throw new AssertionError("unexpected call: " + method);
                });
    }
}
