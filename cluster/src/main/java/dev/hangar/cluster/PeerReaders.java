package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.layout.NodeId;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Which of the blocks this node's reclaimer is about to free the reads of <em>other</em> nodes hold: a GET
 * served by one node may read blocks whose version another node overwrote, and the freeing node's own
 * {@link ReaderLeases} know nothing of it. A single node has no peers ({@link #NONE}).
 */
@FunctionalInterface
interface PeerReaders {
    /** No other node: nothing is held elsewhere, and every peer (there is none) answered. */
    PeerReaders NONE = candidates -> new Answer(Set.of(), List.of());

    /**
     * Asks every peer whose readers may hold a block which of {@code candidates} they hold. Each peer answers
     * only once its reads that began before the question have looked up their metadata, as the local check
     * waits for local ones, so a block it does not name is one its readers cannot still be about to read.
     */
    Answer held(Collection<BlockId> candidates);

    /**
     * @param held the candidates some peer's reads hold
     * @param unreachable the peers that should have been asked and did not answer: what they hold is unknown
     */
    record Answer(Set<BlockId> held, List<NodeId> unreachable) {
        public Answer {
            held = Set.copyOf(held);
            unreachable = List.copyOf(unreachable);
        }

        /** Whether every peer that should have been asked answered. */
        public boolean complete() {
            return unreachable.isEmpty();
        }
    }
}
