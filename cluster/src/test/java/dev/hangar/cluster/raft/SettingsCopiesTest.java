package dev.hangar.cluster.raft;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.query.ReadQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The copies' clock rules, on a clock the test moves: fresh, refreshed in the background, expired, dropped. */
class SettingsCopiesTest {
    private static final Duration TTL = Duration.ofSeconds(1);
    private static final SettingsCopies.Key KEY = new SettingsCopies.Key(new ReadQuery.GetBucket("photos"), "photos");

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicInteger reads = new AtomicInteger();
    private final List<Runnable> background = new ArrayList<>();
    private final SettingsCopies copies = new SettingsCopies(TTL, now::get,
            key -> "read " + reads.incrementAndGet(), background::add);

    @Test
    void aCopyIsUsedUntilItsTimeWithoutARead() {
        copies.keep(KEY, "first", copies.epoch());
        now.addAndGet(TTL.toNanos() - 1);
        assertThat(copies.<String>get(KEY)).contains("first");
        assertThat(background).isEmpty();
    }

    @Test
    void aCopyPastItsTimeIsStillUsedOnceWhileOneReadRefreshesIt() {
        copies.keep(KEY, "first", copies.epoch());
        now.addAndGet(TTL.toNanos());
        assertThat(copies.<String>get(KEY)).contains("first");
        assertThat(copies.<String>get(KEY)).as("the second caller does not start a second refresh").contains("first");
        assertThat(background).hasSize(1);
        background.getFirst().run();
        assertThat(copies.<String>get(KEY)).contains("read 1");
    }

    @Test
    void aCopyTwiceItsTimeOldIsNotUsed() {
        copies.keep(KEY, "first", copies.epoch());
        now.addAndGet(2 * TTL.toNanos());
        assertThat(copies.<String>get(KEY)).isEmpty();
    }

    @Test
    void aReadSentBeforeADropIsNotKept() {
        long before = copies.epoch();
        copies.dropAll();
        copies.keep(KEY, "from before the change", before);
        assertThat(copies.<String>get(KEY)).isEmpty();
        copies.keep(KEY, "after", copies.epoch());
        assertThat(copies.<String>get(KEY)).contains("after");
    }

    @Test
    void aRefreshUnderWayWhenTheCopiesAreDroppedIsNotKept() {
        copies.keep(KEY, "first", copies.epoch());
        now.addAndGet(TTL.toNanos());
        assertThat(copies.<String>get(KEY)).contains("first");
        copies.dropAll();
        background.getFirst().run();
        assertThat(copies.<Optional<String>>get(KEY)).isEmpty();
    }

    @Test
    void aDocumentKeptOrReadIsTheCopysOwn() {
        byte[] document = {'{', '}'};
        copies.keep(KEY, Optional.of(document), copies.epoch());
        document[0] = 'X';
        Optional<byte[]> read = copies.<Optional<byte[]>>get(KEY).orElseThrow();
        assertThat(read).hasValueSatisfying(bytes -> assertThat(bytes).containsExactly('{', '}'));
        read.orElseThrow()[0] = 'Y';
        assertThat(copies.<Optional<byte[]>>get(KEY).orElseThrow())
                .hasValueSatisfying(bytes -> assertThat(bytes).containsExactly('{', '}'));
    }
}
