package dev.hangar.cluster.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.replication.BlockWire.Status;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class BlockWireTest {
    private final BlockId id = BlockId.random();

    @Test
    void messagesRoundTrip() {
        BlockWire.Put put = BlockWire.put(BlockWire.put(id, 0xcafebabe, 7L, new byte[] {1, 2, 3}));
        assertThat(put.id()).isEqualTo(id);
        assertThat(put.crc32c()).isEqualTo(0xcafebabe);
        assertThat(put.layoutVersion()).isEqualTo(7L);
        assertThat(put.data()).containsExactly(1, 2, 3);

        BlockWire.Get plain = new BlockWire.Get(id, 5, 7, null);
        assertThat(BlockWire.get(BlockWire.get(plain))).isEqualTo(plain);
        BlockWire.Get verified = new BlockWire.Get(id, 0, 10, new BlockRef(id, 10, -1));
        assertThat(BlockWire.get(BlockWire.get(verified))).isEqualTo(verified);

        BlockWire.GetReply reply = BlockWire.reply(BlockWire.reply(Status.FOUND, new byte[] {9}));
        assertThat(reply.status()).isEqualTo(Status.FOUND);
        assertThat(reply.data()).containsExactly(9);
        assertThat(BlockWire.reply(BlockWire.reply(Status.CORRUPT)).status()).isEqualTo(Status.CORRUPT);
        assertThat(BlockWire.id(BlockWire.id(id))).isEqualTo(id);
    }

    @Test
    void aQuorumCompletesAtTheNeededSuccessesAndFailsWhenThatIsImpossible() {
        CompletableFuture<Void> a = new CompletableFuture<>(), b = new CompletableFuture<>(), c = new CompletableFuture<>();
        CompletableFuture<Void> quorum = Quorum.of(java.util.List.of(a, b, c), 2);
        a.complete(null);
        assertThat(quorum).isNotDone();
        b.complete(null);
        assertThat(quorum).isCompleted();

        CompletableFuture<Void> d = new CompletableFuture<>(), e = new CompletableFuture<>(), f = new CompletableFuture<>();
        CompletableFuture<Void> lost = Quorum.of(java.util.List.of(d, e, f), 2);
        d.completeExceptionally(new RuntimeException("down"));
        assertThat(lost).isNotDone();
        e.completeExceptionally(new RuntimeException("down"));
        assertThat(lost).isCompletedExceptionally();
    }
}
