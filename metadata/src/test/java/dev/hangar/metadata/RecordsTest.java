package dev.hangar.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The records' own rules: defaults of the compatibility constructors, validation, preconditions. */
class RecordsTest {
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

    @Test
    void versionOfElevenFieldsHasNoTagsLockAclOrOwner() {
        ObjectVersion version = new ObjectVersion(
                "b", "k", ObjectVersion.NULL_VERSION, NOW, 1, "\"e\"", new ObjectContent.Inline(new byte[1]), Map.of(),
                Map.of(), null, List.of());

        assertThat(version.tags()).isEmpty();
        assertThat(version.lock()).isNull();
        assertThat(version.acl()).isNull();
        assertThat(version.ownerKeyId()).isNull();
        assertThat(version.isDeleteMarker()).isFalse();
        assertThat(version.withTags(Map.of("a", "b")).withTags(Map.of())).isEqualTo(version);
    }

    @Test
    void retentionModeAndDateGoTogether() {
        assertThatThrownBy(() -> new ObjectLock(RetentionMode.GOVERNANCE, null, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ObjectLock(null, NOW, false)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new ObjectLock(null, null, true).legalHold()).isTrue();
    }

    @Test
    void keyOfThreeFieldsIsRoot() {
        AccessKey key = new AccessKey("GK1", "secret", NOW);

        assertThat(key.root()).isTrue();
        assertThat(key.buckets()).isEmpty();
        assertThat(key.withBucketPermission("b", new BucketPermission(true, false, false)).buckets())
                .containsOnlyKeys("b");
    }

    @Test
    void preconditionsJudgeTheCurrentVersion() {
        ObjectVersion live = new ObjectVersion(
                "b", "k", "v1", NOW, 0, "\"abc\"", new ObjectContent.Inline(new byte[0]), Map.of(), Map.of(), null,
                List.of());
        ObjectVersion marker = new ObjectVersion(
                "b", "k", "v2", NOW, 0, "\"abc\"", new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null,
                List.of());

        assertThat(new Precondition.None().isMetBy(live)).isTrue();
        assertThat(new Precondition.IfAbsent().isMetBy(null)).isTrue();
        assertThat(new Precondition.IfAbsent().isMetBy(marker)).isTrue();
        assertThat(new Precondition.IfAbsent().isMetBy(live)).isFalse();
        assertThat(new Precondition.IfEtagMatches("abc").isMetBy(live)).isTrue();
        assertThat(new Precondition.IfEtagMatches("\"abc\"").isMetBy(live)).isTrue();
        assertThat(new Precondition.IfEtagMatches("\"ab\"").isMetBy(live)).isFalse();
        assertThat(new Precondition.IfEtagMatches("abc").isMetBy(marker)).isFalse();
        assertThat(new Precondition.IfEtagMatches("abc").isMetBy(null)).isFalse();
    }

    @Test
    void versionQueryTreatsEmptyMarkersAsAbsent() {
        VersionQuery query = new VersionQuery(null, "", "", "", 5);

        assertThat(query).isEqualTo(new VersionQuery("", null, null, null, 5));
        assertThatThrownBy(() -> new VersionQuery("", null, null, null, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
