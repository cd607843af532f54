package dev.hangar.s3api.semantics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class UploadIdsTest {
    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");

    @Test
    void increasesStrictlyInStringOrderWhileTheClockStandsStill() {
        UploadIds ids = new UploadIds(Clock.fixed(NOW, ZoneOffset.UTC));

        List<String> issued = issue(ids, 10_000);

        for (int i = 1; i < issued.size(); i++) {
            assertThat(issued.get(i)).as("id %d", i).isGreaterThan(issued.get(i - 1));
        }
    }

    @Test
    void isUniqueOverTenThousandIds() {
        UploadIds ids = new UploadIds(Clock.fixed(NOW, ZoneOffset.UTC));

        assertThat(new HashSet<>(issue(ids, 10_000))).hasSize(10_000);
    }

    @Test
    void isLowerCaseHexOfFixedLength() {
        UploadIds ids = new UploadIds(Clock.fixed(NOW, ZoneOffset.UTC));

        assertThat(issue(ids, 100)).allSatisfy(id -> assertThat(id).matches("[0-9a-f]{40}"));
    }

    @Test
    void keepsIncreasingWhenTheClockGoesBack() {
        SettableClock clock = new SettableClock(NOW);
        UploadIds ids = new UploadIds(clock);
        String before = ids.next();

        clock.instant = NOW.minus(Duration.ofHours(1));
        String after = ids.next();

        assertThat(after).isGreaterThan(before);
    }

    @Test
    void sortsIdsOfALaterMillisecondAfterManyIdsOfAnEarlierOne() {
        SettableClock clock = new SettableClock(NOW);
        UploadIds ids = new UploadIds(clock);
        List<String> earlier = issue(ids, 500);

        clock.instant = NOW.plusMillis(1);
        String later = ids.next();

        assertThat(earlier).allSatisfy(id -> assertThat(id).isLessThan(later));
    }

    @Test
    void sortsIdsOfDifferentInstancesByTime() {
        String earlier = new UploadIds(Clock.fixed(NOW, ZoneOffset.UTC)).next();
        String later = new UploadIds(Clock.fixed(NOW.plusSeconds(1), ZoneOffset.UTC)).next();

        assertThat(later).isGreaterThan(earlier);
    }

    private static List<String> issue(UploadIds ids, int count) {
        List<String> issued = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            issued.add(ids.next());
        }
        return issued;
    }

    /** A clock a test moves by hand, in either direction. */
    private static final class SettableClock extends Clock {
        private Instant instant;

        SettableClock(Instant instant) {
            this.instant = instant;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return instant;
        }
    }
}
