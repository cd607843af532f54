package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.listing.ByteKeys;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Merges two entries of one access key ({@link AccessKeyValue}), so that changes of one key through
 * different nodes — grants to different buckets, a grant and a secret rotation — are all kept, where
 * whole-value last writer wins kept only the later.
 *
 * <p>In order:
 *
 * <ol>
 *   <li>a deletion (tombstone) beats a value of an incarnation at or before it, and loses to a
 *       later one (a key put again); two tombstones by last writer wins. A change racing a deletion
 *       through another node therefore cannot bring the key back;
 *   <li>of two values, the later incarnation wins whole (a put replaces the whole key); at one
 *       incarnation, the greater creation time, then the root flag, wins whole (two puts stamped
 *       alike, which one clock never gives);
 *   <li>otherwise the values are copies of one key and merge field by field: the secret, the
 *       create-buckets permission and each bucket's grant (or revocation) take the value with the
 *       greater timestamp, ties broken by the value; the merged entry has the greater entry
 *       timestamp.
 * </ol>
 *
 * <p>Each step is a total order on what it compares, and the last a maximum per field: so merge is
 * commutative, associative and idempotent ({@code AccessKeyMergeTest} checks it). A value that does
 * not decode counts as an incarnation at its entry's timestamp, below one that decodes at the same.
 */
final class AccessKeyJoin {
    private static final Comparator<@Nullable BucketPermission> PERMISSIONS = Comparator.nullsFirst(
            Comparator.comparing(BucketPermission::read).thenComparing(BucketPermission::write)
                    .thenComparing(BucketPermission::owner));

    private AccessKeyJoin() {}

    /** Whether the entry is an access key's. */
    static boolean isAccessKey(Entry entry) {
        return Arrays.equals(entry.partitionKey(), MetaKeys.accessKeys());
    }

    /**
     * The merge of two entries of one access key; null when last writer wins decides (two
     * tombstones, two undecodable values of one timestamp).
     */
    static @Nullable Entry merge(Entry first, Entry second) {
        String id = ByteKeys.string(first.sortKey(), 0, first.sortKey().length);
        AccessKeyValue left = first.isTombstone() ? null : decode(id, first.value());
        AccessKeyValue right = second.isTombstone() ? null : decode(id, second.value());
        if (first.isTombstone() || second.isTombstone()) {
            if (first.isTombstone() && second.isTombstone()) {
                return null;
            }
            Entry tombstone = first.isTombstone() ? first : second;
            Entry value = first.isTombstone() ? second : first;
            AccessKeyValue decoded = first.isTombstone() ? right : left;
            Timestamp incarnation = decoded == null ? value.timestamp() : decoded.resolve(value.timestamp()).incarnation();
            return tombstone.timestamp().compareTo(incarnation) >= 0 ? tombstone : value;
        }
        Timestamp leftIncarnation = left == null ? first.timestamp() : left.resolve(first.timestamp()).incarnation();
        Timestamp rightIncarnation = right == null ? second.timestamp() : right.resolve(second.timestamp()).incarnation();
        int whole = leftIncarnation.compareTo(rightIncarnation);
        if (whole == 0 && (left == null || right == null)) {
            if (left == right) {
                return null;
            }
            whole = left != null ? 1 : -1;
        }
        if (whole != 0) {
            return whole > 0 ? first : second;
        }
        AccessKeyValue.Resolved a = left.resolve(first.timestamp());
        AccessKeyValue.Resolved b = right.resolve(second.timestamp());
        whole = a.key().created().compareTo(b.key().created());
        if (whole == 0) {
            whole = Boolean.compare(a.key().root(), b.key().root());
        }
        if (whole != 0) {
            return whole > 0 ? first : second;
        }
        Timestamp timestamp = first.timestamp().compareTo(second.timestamp()) >= 0 ? first.timestamp() : second.timestamp();
        int bySecret = a.secret().compareTo(b.secret());
        boolean secretLeft = bySecret > 0 || (bySecret == 0 && a.key().secretKey().compareTo(b.key().secretKey()) >= 0);
        int byCreate = a.createBuckets().compareTo(b.createBuckets());
        boolean createLeft = byCreate > 0
                || (byCreate == 0 && Boolean.compare(a.key().createBuckets(), b.key().createBuckets()) >= 0);
        Map<String, AccessKeyValue.Grant> grants = new HashMap<>(a.grants());
        b.grants().forEach((bucket, grant) -> grants.merge(bucket, grant, AccessKeyJoin::later));
        AccessKey key = new AccessKey(id, (secretLeft ? a : b).key().secretKey(), a.key().created(), a.key().root(),
                Map.of(), (createLeft ? a : b).key().createBuckets());
        AccessKeyValue.Resolved merged = new AccessKeyValue.Resolved(key, a.incarnation(),
                secretLeft ? a.secret() : b.secret(), createLeft ? a.createBuckets() : b.createBuckets(), grants);
        return Entry.of(first.partitionKey(), first.sortKey(), AccessKeyValue.of(merged, timestamp).encode(), timestamp);
    }

    private static AccessKeyValue.Grant later(AccessKeyValue.Grant a, AccessKeyValue.Grant b) {
        int byStamp = a.stamp().compareTo(b.stamp());
        return byStamp > 0 || (byStamp == 0 && PERMISSIONS.compare(a.permission(), b.permission()) >= 0) ? a : b;
    }

    private static @Nullable AccessKeyValue decode(String id, byte[] value) {
        try {
            return AccessKeyValue.decode(id, value);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
