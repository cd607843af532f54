package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.MergeRule;

/**
 * The metadata table's merge rule. The entries of versions (the {@code "null"} slot and the
 * versions with an id, {@link ObjectSlots}) merge by their content, as below; access keys field by
 * field ({@link AccessKeyJoin}); every other entry (buckets, configurations, uploads, parts,
 * version indexes, legacy stacks) by last writer wins.
 *
 * <p>Two entries of a version slot compare lexicographically by:
 *
 * <ol>
 *   <li>presence: a value beats a tombstone (versions are never tombstoned: a deleted one is
 *       written back dead, so a tombstone there can only be older than any value);
 *   <li>format: a {@link VersionValue} beats anything else written there;
 *   <li>order: the higher wins, so overwrites of the {@code "null"} slot converge on the newest
 *       version whatever the order in which replicas receive them;
 *   <li>deadness: at one order dead beats live, so a version's state only moves forward: a
 *       metadata change racing its deletion through another node cannot bring it back, and blocks
 *       queued when it was deleted are never referenced again;
 *   <li>then, for two live values (two copies of one version), {@link #merge} does not pick one:
 *       {@link VersionJoin} merges their changeable fields (tags, legal hold, retention,
 *       ACL) each by its own timestamp, so that changes of different fields through different
 *       nodes are all kept; {@link #compare} orders them by last writer wins;
 *   <li>otherwise last writer wins: the hybrid timestamp, then the value bytes.
 * </ol>
 *
 * <p>Each of those is a total order and ties fall through to the next, and the join of the last
 * step is a join within one version: so merge is commutative, associative and idempotent ({@code
 * VersionMergeRuleLawsTest} checks it over random live, dead and tombstoned entries, and random
 * field changes delivered in random orders with duplicates).
 *
 * <p>Dead version values count as deletions: a replica purges them with the tombstones, once older
 * than the tombstone delay.
 */
final class MetadataMergeRule implements MergeRule {
    static final MetadataMergeRule INSTANCE = new MetadataMergeRule();

    private MetadataMergeRule() {}

    @Override
    public int compare(Entry first, Entry second) {
        if (!isVersionSlot(first)) {
            return MergeRule.lastWriterWins(first, second);
        }
        byte[] a = first.value();
        byte[] b = second.value();
        if (a == null || b == null) {
            return a == null && b == null ? MergeRule.lastWriterWins(first, second) : (a == null ? -1 : 1);
        }
        boolean aIsVersion = VersionValue.isVersion(a);
        boolean bIsVersion = VersionValue.isVersion(b);
        if (aIsVersion != bIsVersion) {
            return aIsVersion ? 1 : -1;
        }
        if (aIsVersion) {
            int byOrder = Long.compare(VersionValue.order(a), VersionValue.order(b));
            if (byOrder != 0) {
                return byOrder;
            }
            int byDeath = Boolean.compare(VersionValue.isDead(a), VersionValue.isDead(b));
            if (byDeath != 0) {
                return byDeath;
            }
        }
        return MergeRule.lastWriterWins(first, second);
    }

    /**
     * The winner under {@link #compare}, except for two live copies of one version (one slot, one
     * order), which {@link VersionJoin} merges field by field.
     */
    @Override
    public Entry merge(Entry first, Entry second) {
        if (first.equals(second)) {
            return first;
        }
        if (first.sameKey(second)) {
            Entry joined = isVersionSlot(first) ? VersionJoin.join(first, second)
                    : AccessKeyJoin.isAccessKey(first) ? AccessKeyJoin.merge(first, second) : null;
            if (joined != null) {
                return joined;
            }
        }
        return MergeRule.super.merge(first, second);
    }

    @Override
    public boolean isDeletion(Entry entry) {
        byte[] value = entry.value();
        return value == null || (isVersionSlot(entry) && VersionValue.isVersion(value) && VersionValue.isDead(value));
    }

    /** Whether the entry is a version's: the {@code "null"} slot or a version with an id, in an objects partition. */
    static boolean isVersionSlot(Entry entry) {
        byte[] partitionKey = entry.partitionKey();
        if (partitionKey.length < 2 || partitionKey[0] != MetaKeys.OBJECT_TAG || partitionKey[1] != MetaKeys.SEPARATOR) {
            return false;
        }
        byte[] sortKey = entry.sortKey();
        int end = ObjectSlots.keyEnd(sortKey);
        return end < sortKey.length && (end + 1 == sortKey.length || sortKey[end + 1] == ObjectSlots.VERSION_TAG);
    }
}
