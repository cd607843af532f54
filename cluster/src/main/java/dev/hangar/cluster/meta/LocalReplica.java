package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockRef;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.LocalTable;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.MetadataStateMachine;
import java.util.List;
import java.util.function.Consumer;

/**
 * The block references of this node's replica, read partition by partition (the scrub and the
 * reclamation of this node's blocks need what this node holds, not the cluster's view), and the
 * versions an entry of the objects partition holds. They show what
 * this replica holds, which is the whole store only when the node replicates every partition (a
 * replication factor equal to the node count) and has caught up: a write acknowledged by two other
 * replicas may land here a moment later, or after anti-entropy if this node was away.
 *
 * <p>Each partition is read with one RocksDB iterator, so within a partition a view is a snapshot;
 * across partitions it is not.
 */
final class LocalReplica {
    private LocalReplica() {}

    /** Visits the blocks of every version and every part this replica holds, one entry at a time. */
    static void forEachBlockReference(LocalTable local, Consumer<? super BlockRef> visitor) {
        for (int partition = 0; partition < local.partitions(); partition++) {
            local.forEachInPartition(partition, entry -> {
                if (entry.isTombstone()) {
                    return;
                }
                switch (entry.partitionKey()[0]) {
                    case MetaKeys.OBJECT_TAG -> {
                        for (ObjectVersion version : versionsOf(entry)) {
                            MetadataStateMachine.blocksOf(version).forEach(visitor);
                        }
                    }
                    case MetaKeys.PART_TAG -> RecordFormat.decodePart(
                                    MetaKeys.scope(entry.partitionKey()),
                                    MetaKeys.partNumber(entry.sortKey()),
                                    entry.value())
                            .blocks()
                            .forEach(visitor);
                    default -> {}
                }
            });
        }
    }

    /**
     * The live versions one entry of an objects partition holds: none for an index or a dead
     * version, one for a version entry, the whole stack for a legacy entry. (A legacy entry whose
     * migration a crash interrupted may count some versions twice until the key's next mutation.)
     */
    static List<ObjectVersion> versionsOf(Entry entry) {
        String bucket = MetaKeys.scope(entry.partitionKey());
        ObjectSlots.Slot slot = ObjectSlots.parse(entry.sortKey());
        byte[] value = entry.value();
        return switch (slot) {
            case ObjectSlots.Slot.Legacy legacy -> LegacyStack.decode(bucket, legacy.key(), value).stream()
                    .map(LegacyStack.Placed::version)
                    .toList();
            case ObjectSlots.Slot.NullVersion version -> live(bucket, version.key(), value);
            case ObjectSlots.Slot.IdVersion version -> live(bucket, version.key(), value);
            case ObjectSlots.Slot.Index index -> List.of();
        };
    }

    private static List<ObjectVersion> live(String bucket, String key, byte[] value) {
        if (!VersionValue.isVersion(value)) {
            return List.of();
        }
        VersionValue version = VersionValue.decode(value);
        return version.dead() ? List.of() : List.of(RecordFormat.decodeObject(bucket, key, version.record()));
    }
}
