package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Which blocks a scrub may take for orphans: those written before its cut-off. */
class ScrubTest {
    private static final Instant STARTED = Instant.parse("2026-11-26T12:00:00Z");

    @Test
    void theCutOffIsTheGraceBeforeTheStart() {
        assertThat(Scrub.orphanCutoff(STARTED, Duration.ofHours(24), null)).isEqualTo(STARTED.minus(Duration.ofHours(24)));
    }

    @Test
    void aGraceShorterThanAMinuteStillSparesTheLastMinute() {
        assertThat(Scrub.orphanCutoff(STARTED, Duration.ZERO, null)).isEqualTo(STARTED.minus(Scrub.MINIMUM_ORPHAN_AGE));
        assertThat(Scrub.orphanCutoff(STARTED, Duration.ofSeconds(5), null))
                .isEqualTo(STARTED.minus(Scrub.MINIMUM_ORPHAN_AGE));
    }

    @Test
    void aWriteInFlightKeepsEveryBlockWrittenSinceItBeganWhateverTheGrace() {
        Instant writeBegan = STARTED.minus(Duration.ofHours(30));

        assertThat(Scrub.orphanCutoff(STARTED, Duration.ZERO, writeBegan))
                .isEqualTo(writeBegan.minus(Scrub.MINIMUM_ORPHAN_AGE));
        assertThat(Scrub.orphanCutoff(STARTED, Duration.ofHours(24), writeBegan))
                .isEqualTo(writeBegan.minus(Scrub.MINIMUM_ORPHAN_AGE));
    }

    @Test
    void aWriteThatBeganWithinTheGraceChangesNothing() {
        assertThat(Scrub.orphanCutoff(STARTED, Duration.ofHours(24), STARTED.minusSeconds(10)))
                .isEqualTo(STARTED.minus(Duration.ofHours(24)));
    }
}
