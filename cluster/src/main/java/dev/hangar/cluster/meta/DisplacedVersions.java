package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.state.MetadataStateMachine;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Queues the blocks of a version that this node's replica saw displaced in a merge ({@link
 * dev.hangar.cluster.table.LocalTable#watchLosers}): a live version of a slot beaten by another
 * version value — of a higher order (an overwrite of the {@code "null"} slot, a blind delete), or
 * live at the same order (two overwrites through two nodes can get the same stamp) — less the
 * blocks the winner still holds (a change of the version's metadata, the version placed again at a
 * higher order). A version deleted by id (dead at its own order) is left to its deleter, which read
 * all of the key's versions and freed exactly.
 *
 * <p>The price: each displaced version is queued, checked and freed by each node of its replicas
 * that saw it lose (up to three), where its writer alone did it before; freeing a block twice is
 * harmless.
 *
 * <p>Why here and not only by the writer: a writer frees what its write replaced as the replicas
 * answered it, and two overwrites through two nodes can both be answered from before the other
 * (each coordinator reads its own copy before its round): both then free the version they both
 * replaced, and neither the one between them, which stays an orphan. Every version written reached
 * a write quorum, and every later version too; the two quorums share a replica, which merged both
 * and saw the earlier lose. So among the nodes of its replicas, some node queues every displaced
 * version: the queues are keyed by block id, so seen twice is queued once, and what each node hands
 * out has been checked against its key's versions first ({@link GarbageCheck}), so the current
 * version's blocks (or one sharing them) never go.
 */
final class DisplacedVersions implements BiConsumer<Entry, Entry> {
    private final GarbageCheck garbage;

    DisplacedVersions(GarbageCheck garbage) {
        this.garbage = garbage;
    }

    @Override
    public void accept(Entry loser, Entry winner) {
        Set<BlockId> freed = freedBy(loser, winner);
        if (!freed.isEmpty()) {
            ObjectSlots.Slot slot = ObjectSlots.parse(loser.sortKey());
            garbage.add(List.copyOf(freed), new GarbageQueue.Owner(MetaKeys.scope(loser.partitionKey()), slot.key()));
        }
    }

    /** The blocks that {@code loser} held and {@code winner}, which beat it in a merge, does not: see the class. */
    static Set<BlockId> freedBy(Entry loser, Entry winner) {
        byte[] lost = loser.value();
        byte[] won = winner.value();
        if (lost == null || won == null || !MetadataMergeRule.isVersionSlot(loser) || !VersionValue.isVersion(lost)
                || !VersionValue.isVersion(won) || VersionValue.isDead(lost)
                || (VersionValue.isDead(won) && VersionValue.order(won) == VersionValue.order(lost))) {
            // A deletion of this very version: its deleter read all the key's versions and freed exactly.
            return Set.of();
        }
        Set<BlockId> freed = blocksOf(loser);
        freed.removeAll(blocksOf(winner));
        return freed;
    }

    private static Set<BlockId> blocksOf(Entry entry) {
        Set<BlockId> ids = new HashSet<>();
        for (ObjectVersion version : LocalReplica.versionsOf(entry)) {
            MetadataStateMachine.blocksOf(version).forEach(block -> ids.add(block.id()));
        }
        return ids;
    }
}
