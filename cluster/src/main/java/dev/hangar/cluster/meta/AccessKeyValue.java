package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The value of an access key's entry, with the timestamps that let {@link AccessKeyJoin} merge
 * concurrent changes of one key field by field: its secret, whether it may create buckets, and each
 * bucket's grant on its own (a grant taken away is a stamped revocation, not an absence, so that
 * it wins over an older grant of that bucket wherever they meet). Two formats, both read:
 *
 * <ul>
 *   <li>the access key record of {@link RecordFormat} (formats 1 to 3): every field written at the
 *       entry's timestamp, which is also the key's incarnation. What {@code PutAccessKey} writes,
 *       and what the previous release wrote.
 *   <li>format {@value #FORMAT}: a flags byte (1: incarnation, 2: secret, 4: create-buckets
 *       stamps follow), those timestamps ({@link StampCodec}), the count (4 bytes) of stamped
 *       buckets, each as its name (2-byte length, UTF-8), a flags byte (1: revoked, 2: stamp
 *       follows) and its stamp, then the key's record in {@link RecordFormat}, with the grants that
 *       are not revoked. Written by a change of the key and by the merge.
 * </ul>
 *
 * <p>A stamp the value does not carry is the entry's timestamp. The incarnation is when the key was
 * put whole: a later put replaces every field, and a deletion removes the incarnations before it.
 * Revocations stay in the value until the key is put again or deleted: a few bytes per bucket a
 * grant was ever taken away from, the price of never letting an older grant come back.
 *
 * @param key the key as readers see it: its grants without the revoked ones
 * @param incarnation when the key was put, null: the entry's timestamp
 * @param secret when the secret was written, null: the entry's timestamp
 * @param createBuckets when the create-buckets permission was written, null: the entry's timestamp
 * @param grants when each bucket's grant or revocation was written, for those not at the entry's timestamp
 * @param revoked the buckets whose grant was taken away
 */
record AccessKeyValue(AccessKey key, @Nullable Timestamp incarnation, @Nullable Timestamp secret,
        @Nullable Timestamp createBuckets, Map<String, Timestamp> grants, Set<String> revoked) {
    static final byte FORMAT = 16;
    private static final int INCARNATION = 1;
    private static final int SECRET = 2;
    private static final int CREATE_BUCKETS = 4;
    private static final int REVOKED = 1;
    private static final int STAMPED = 2;

    AccessKeyValue {
        Objects.requireNonNull(key, "key");
        grants = Map.copyOf(grants);
        revoked = Set.copyOf(revoked);
        for (String bucket : revoked) {
            if (key.buckets().containsKey(bucket)) {
                throw new IllegalArgumentException("bucket " + bucket + " is both granted and revoked");
            }
        }
    }

    /** A key put whole: every field at the entry's timestamp. */
    static AccessKeyValue put(AccessKey key) {
        return new AccessKeyValue(key, null, null, null, Map.of(), Set.of());
    }

    /** A bucket's grant as merged: its permission (null: revoked) and when it was written. */
    record Grant(Timestamp stamp, @Nullable BucketPermission permission) {}

    /** The value with every stamp spelled out, for an entry of timestamp {@code entry}. */
    record Resolved(AccessKey key, Timestamp incarnation, Timestamp secret, Timestamp createBuckets,
            Map<String, Grant> grants) {}

    Resolved resolve(Timestamp entry) {
        Map<String, Grant> all = new HashMap<>();
        key.buckets().forEach((bucket, permission) ->
                all.put(bucket, new Grant(grants.getOrDefault(bucket, entry), permission)));
        revoked.forEach(bucket -> all.put(bucket, new Grant(grants.getOrDefault(bucket, entry), null)));
        return new Resolved(key, orElse(incarnation, entry), orElse(secret, entry), orElse(createBuckets, entry), all);
    }

    /** The value of {@code resolved} held by an entry of timestamp {@code entry}: the stamps equal to it left out. */
    static AccessKeyValue of(Resolved resolved, Timestamp entry) {
        Map<String, BucketPermission> live = new HashMap<>();
        Map<String, Timestamp> stamps = new HashMap<>();
        Set<String> revoked = new TreeSet<>();
        resolved.grants().forEach((bucket, grant) -> {
            if (grant.permission() == null) {
                revoked.add(bucket);
            } else {
                live.put(bucket, grant.permission());
            }
            if (!grant.stamp().equals(entry)) {
                stamps.put(bucket, grant.stamp());
            }
        });
        AccessKey key = resolved.key();
        return new AccessKeyValue(
                new AccessKey(key.accessKeyId(), key.secretKey(), key.created(), key.root(), live, key.createBuckets()),
                unless(resolved.incarnation(), entry), unless(resolved.secret(), entry),
                unless(resolved.createBuckets(), entry), stamps, revoked);
    }

    /**
     * What a change that read {@code before} and left the key as {@code after} writes: the fields
     * it changed at the write's timestamp (no stamp), a grant it took away as a revocation, the rest
     * with the stamps it read, so that a change of another field through another node, newer than
     * those, wins over them.
     */
    static AccessKeyValue changed(Resolved before, AccessKey after) {
        AccessKey was = before.key();
        Map<String, Timestamp> stamps = new HashMap<>();
        Set<String> revoked = new TreeSet<>();
        before.grants().forEach((bucket, grant) -> {
            BucketPermission now = after.buckets().get(bucket);
            if (Objects.equals(now, grant.permission())) {
                stamps.put(bucket, grant.stamp());
                if (now == null) {
                    revoked.add(bucket);
                }
            } else if (now == null) {
                revoked.add(bucket);
            }
        });
        return new AccessKeyValue(after, before.incarnation(),
                was.secretKey().equals(after.secretKey()) ? before.secret() : null,
                was.createBuckets() == after.createBuckets() ? before.createBuckets() : null, stamps, revoked);
    }

    /** The key an access key entry holds, in either format. */
    static AccessKey decodeKey(String accessKeyId, byte[] value) {
        return decode(accessKeyId, value).key();
    }

    static AccessKeyValue decode(String accessKeyId, byte[] value) {
        if (value.length == 0 || value[0] != FORMAT) {
            return put(RecordFormat.decodeAccessKey(accessKeyId, value));
        }
        ByteBuffer in = ByteBuffer.wrap(value, 1, value.length - 1);
        int flags = in.get();
        Timestamp incarnation = (flags & INCARNATION) != 0 ? StampCodec.read(in) : null;
        Timestamp secret = (flags & SECRET) != 0 ? StampCodec.read(in) : null;
        Timestamp createBuckets = (flags & CREATE_BUCKETS) != 0 ? StampCodec.read(in) : null;
        int count = in.getInt();
        Map<String, Timestamp> grants = new HashMap<>();
        Set<String> revoked = new TreeSet<>();
        for (int i = 0; i < count; i++) {
            byte[] name = new byte[Short.toUnsignedInt(in.getShort())];
            in.get(name);
            String bucket = new String(name, StandardCharsets.UTF_8);
            int grantFlags = in.get();
            if ((grantFlags & REVOKED) != 0) {
                revoked.add(bucket);
            }
            if ((grantFlags & STAMPED) != 0) {
                grants.put(bucket, StampCodec.read(in));
            }
        }
        AccessKey key = RecordFormat.decodeAccessKey(accessKeyId, Arrays.copyOfRange(value, in.position(), value.length));
        return new AccessKeyValue(key, incarnation, secret, createBuckets, grants, revoked);
    }

    /**
     * The record alone when every field is at the entry's timestamp (readable by the previous
     * release), else format {@value #FORMAT}.
     */
    byte[] encode() {
        byte[] record = RecordFormat.encodeAccessKey(key);
        if (incarnation == null && secret == null && createBuckets == null && grants.isEmpty() && revoked.isEmpty()) {
            return record;
        }
        TreeSet<String> listed = new TreeSet<>(grants.keySet());
        listed.addAll(revoked);
        int size = 1 + 1 + Integer.BYTES + record.length;
        for (Timestamp stamp : new Timestamp[] {incarnation, secret, createBuckets}) {
            size += stamp == null ? 0 : StampCodec.size(stamp);
        }
        Map<String, byte[]> names = new TreeMap<>();
        for (String bucket : listed) {
            byte[] name = bucket.getBytes(StandardCharsets.UTF_8);
            names.put(bucket, name);
            Timestamp stamp = grants.get(bucket);
            size += Short.BYTES + name.length + 1 + (stamp == null ? 0 : StampCodec.size(stamp));
        }
        ByteBuffer out = ByteBuffer.allocate(size).put(FORMAT).put((byte) ((incarnation != null ? INCARNATION : 0)
                | (secret != null ? SECRET : 0) | (createBuckets != null ? CREATE_BUCKETS : 0)));
        for (Timestamp stamp : new Timestamp[] {incarnation, secret, createBuckets}) {
            if (stamp != null) {
                StampCodec.write(out, stamp);
            }
        }
        out.putInt(listed.size());
        names.forEach((bucket, name) -> {
            Timestamp stamp = grants.get(bucket);
            out.putShort((short) name.length).put(name)
                    .put((byte) ((revoked.contains(bucket) ? REVOKED : 0) | (stamp != null ? STAMPED : 0)));
            if (stamp != null) {
                StampCodec.write(out, stamp);
            }
        });
        return out.put(record).array();
    }

    private static Timestamp orElse(@Nullable Timestamp stamp, Timestamp entry) {
        return stamp == null ? entry : stamp;
    }

    private static @Nullable Timestamp unless(Timestamp stamp, Timestamp entry) {
        return stamp.equals(entry) ? null : stamp;
    }
}
