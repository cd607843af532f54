package dev.hangar.s3api.semantics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VersionIdsTest {
    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");

    @Test
    void areThirtyTwoUrlSafeCharactersThatSortInTheOrderTheyWereMade() {
        VersionIds ids = new VersionIds(Clock.fixed(NOW, ZoneOffset.UTC));
        List<String> issued = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            issued.add(ids.next());
        }

        assertThat(issued).allSatisfy(id -> assertThat(id).matches("[A-Za-z0-9_-]{32}"));
        assertThat(new HashSet<>(issued)).hasSize(issued.size());
        for (int i = 1; i < issued.size(); i++) {
            assertThat(issued.get(i)).as("id %d", i).isGreaterThan(issued.get(i - 1));
        }
        String later = new VersionIds(Clock.fixed(NOW.plusSeconds(1), ZoneOffset.UTC)).next();
        assertThat(later).isGreaterThan(issued.getLast());
    }

    @Test
    void neverStartWithAHyphenThatCommandLineClientsWouldReadAsAnOption() {
        VersionIds ids = new VersionIds(Clock.fixed(NOW, ZoneOffset.UTC));
        for (int i = 0; i < 1000; i++) {
            assertThat(ids.next()).matches("[A-Za-z].*");
        }
        assertThat(new VersionIds(Clock.fixed(java.time.Instant.EPOCH, ZoneOffset.UTC)).next()).matches("[A-Za-z].*");
    }

    @Test
    void acceptsTheirOwnFormAndTheNullVersion() {
        VersionIds ids = new VersionIds(Clock.fixed(NOW, ZoneOffset.UTC));
        String id = ids.next();

        assertThat(VersionIds.wellFormed(id)).isTrue();
        assertThat(VersionIds.parameter(id)).isEqualTo(id);
        assertThat(VersionIds.parameter("null")).isEqualTo("null");
        assertThat(VersionIds.parameter(null)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "0123456789abcdefghijABCDEFGHIJ_-x", "0123456789abcdefghijABCDEFGHIJ_+",
        "NULL"})
    void refusesAnythingElseAsInvalidArgument(String versionId) {
        assertThat(VersionIds.wellFormed(versionId)).isFalse();
        S3Assertions.assertS3Error(() -> VersionIds.parameter(versionId), S3Error.INVALID_ARGUMENT);
    }
}
