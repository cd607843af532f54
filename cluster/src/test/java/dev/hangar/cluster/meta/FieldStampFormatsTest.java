package dev.hangar.cluster.meta;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The encodings of values with field stamps stay readable both ways: values the previous release
 * wrote (version values in format 2, access keys as the bare record), captured as bytes from its
 * encoders, decode, merge with values of the stamped formats, and are still what a new version or
 * a key put whole is written as; stamped values decode to what was encoded.
 */
class FieldStampFormatsTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
    private static final NodeId NODE = new NodeId("a");

    /**
     * Version v1 of photos/cat.jpg at order 7 (tags colour=black, GOVERNANCE until NOW + 60 s,
     * legal hold, public-read, owner GK1), as the previous release's VersionValue.encode wrote it.
     */
    private static final String FORMAT_2_VERSION = "0200000000000000070002027631fef6bd9a0d00030522616263220003010203010c636f"
            + "6e74656e742d747970650a696d6167652f6a7065670000000106636f6c6f757205626c61636b0101f6f7bd9a0d0001010b7075626c"
            + "69632d726561640103474b31";
    /** The same version deleted, at the same order. */
    private static final String FORMAT_2_DEAD = "02000000000000000701";
    /**
     * Access key GK1 (secret "secret", created NOW, not root, read on photos, all on logs, may
     * create buckets), as the previous release wrote it into the metadata table: the bare record.
     */
    private static final String RECORD_ACCESS_KEY = "0306736563726574fef6bd9a0d000002046c6f6773070670686f746f730101";

    private static final ObjectVersion V1 = new ObjectVersion("photos", "cat.jpg", "v1", NOW, 3, "\"abc\"",
            new ObjectContent.Inline(new byte[] {1, 2, 3}), Map.of("content-type", "image/jpeg"), Map.of(), null,
            List.of(), Map.of("colour", "black"), new ObjectLock(RetentionMode.GOVERNANCE, NOW.plusSeconds(60), true),
            "public-read", "GK1");
    private static final AccessKey GK1 = new AccessKey("GK1", "secret", NOW, false, Map.of(
            "photos", new BucketPermission(true, false, false), "logs", new BucketPermission(true, true, true)), true);

    @Test
    void versionValuesOfThePreviousFormatDecode() {
        VersionValue live = VersionValue.decode(hex(FORMAT_2_VERSION));
        assertThat(live.order()).isEqualTo(7);
        assertThat(live.dead()).isFalse();
        assertThat(live.stamps()).isEmpty();
        assertThat(RecordFormat.decodeObject("photos", "cat.jpg", live.record())).isEqualTo(V1);
        assertThat(VersionValue.decode(hex(FORMAT_2_DEAD))).isEqualTo(VersionValue.dead(7));
        // A version as first written, and a deleted one, are still written in the previous format.
        assertThat(VersionValue.live(7, RecordFormat.encodeObject(V1)).encode()).isEqualTo(hex(FORMAT_2_VERSION));
        assertThat(VersionValue.dead(7).encode()).isEqualTo(hex(FORMAT_2_DEAD));
    }

    @Test
    void aVersionOfThePreviousFormatMergesWithAChangeOfOneField() {
        byte[] slot = ObjectSlots.version(ByteKeys.utf8("cat.jpg"), 7, "v1");
        Entry old = Entry.of(MetaKeys.objects("photos"), slot, hex(FORMAT_2_VERSION), at(10));
        // A change of the ACL that read the old entry: the other fields keep the old entry's stamps.
        ObjectVersion privateAcl = V1.withAcl("private");
        Map<VersionField, Timestamp> kept = Map.of(VersionField.TAGS, at(10), VersionField.LEGAL_HOLD, at(10),
                VersionField.RETENTION, at(10));
        Entry change = Entry.of(MetaKeys.objects("photos"), slot,
                VersionValue.live(7, RecordFormat.encodeObject(privateAcl), kept).encode(), at(20));

        Entry merged = MetadataMergeRule.INSTANCE.merge(old, change);

        assertThat(merged).isEqualTo(change);
        VersionValue decoded = VersionValue.decode(merged.value());
        assertThat(decoded.stamps()).isEqualTo(kept);
        assertThat(RecordFormat.decodeObject("photos", "cat.jpg", decoded.record())).isEqualTo(privateAcl);
    }

    @Test
    void stampedVersionValuesDecodeToWhatWasEncoded() {
        VersionValue value = VersionValue.live(7, RecordFormat.encodeObject(V1),
                Map.of(VersionField.TAGS, at(3), VersionField.ACL, new Timestamp(4, 2, new NodeId("node-b"))));
        byte[] encoded = value.encode();
        assertThat(encoded[0]).isEqualTo(VersionValue.STAMPED_FORMAT);
        assertThat(VersionValue.isVersion(encoded)).isTrue();
        assertThat(VersionValue.order(encoded)).isEqualTo(7);
        assertThat(VersionValue.isDead(encoded)).isFalse();
        assertThat(VersionValue.decode(encoded)).isEqualTo(value);
    }

    @Test
    void accessKeysOfThePreviousFormatDecode() {
        AccessKeyValue value = AccessKeyValue.decode("GK1", hex(RECORD_ACCESS_KEY));
        assertThat(value).isEqualTo(AccessKeyValue.put(GK1));
        assertThat(AccessKeyValue.decodeKey("GK1", hex(RECORD_ACCESS_KEY))).isEqualTo(GK1);
        // A key put whole is still written as the bare record.
        assertThat(AccessKeyValue.put(GK1).encode()).isEqualTo(hex(RECORD_ACCESS_KEY));
    }

    @Test
    void aChangeOfAnAccessKeyOfThePreviousFormatKeepsTheStampsItRead() {
        AccessKeyValue.Resolved read = AccessKeyValue.decode("GK1", hex(RECORD_ACCESS_KEY)).resolve(at(10));
        AccessKeyValue changed = AccessKeyValue.changed(read, GK1.withBucketPermission("photos", null));

        assertThat(changed.key()).isEqualTo(GK1.withBucketPermission("photos", null));
        assertThat(changed.incarnation()).isEqualTo(at(10));
        assertThat(changed.secret()).isEqualTo(at(10));
        assertThat(changed.createBuckets()).isEqualTo(at(10));
        assertThat(changed.grants()).isEqualTo(Map.of("logs", at(10)));
        assertThat(changed.revoked()).isEqualTo(Set.of("photos"));
        byte[] encoded = changed.encode();
        assertThat(encoded[0]).isEqualTo(AccessKeyValue.FORMAT);
        assertThat(AccessKeyValue.decode("GK1", encoded)).isEqualTo(changed);

        Entry old = Entry.of(MetaKeys.accessKeys(), ByteKeys.utf8("GK1"), hex(RECORD_ACCESS_KEY), at(10));
        Entry change = Entry.of(MetaKeys.accessKeys(), ByteKeys.utf8("GK1"), encoded, at(20));
        assertThat(MetadataMergeRule.INSTANCE.merge(old, change)).isEqualTo(change);
    }

    private static Timestamp at(long wall) {
        return new Timestamp(wall, 0, NODE);
    }

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
