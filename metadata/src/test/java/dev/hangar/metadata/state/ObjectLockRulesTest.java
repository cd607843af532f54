package dev.hangar.metadata.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.VersionChange;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ObjectLockRulesTest {
    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");
    private static final Instant YESTERDAY = NOW.minusSeconds(86_400);
    private static final Instant TOMORROW = NOW.plusSeconds(86_400);
    private static final Instant NEXT_WEEK = NOW.plusSeconds(7 * 86_400);

    @Test
    void removalIsRefusedUnderLegalHoldAndActiveRetention() {
        assertThat(ObjectLockRules.removable(null, LockCheck.at(NOW, false))).isTrue();
        assertThat(ObjectLockRules.removable(new ObjectLock(RetentionMode.COMPLIANCE, YESTERDAY, false),
                LockCheck.at(NOW, false))).isTrue();
        assertThat(ObjectLockRules.removable(new ObjectLock(RetentionMode.GOVERNANCE, TOMORROW, false),
                LockCheck.at(NOW, true))).isTrue();

        assertThat(ObjectLockRules.removable(new ObjectLock(RetentionMode.GOVERNANCE, TOMORROW, false),
                LockCheck.at(NOW, false))).isFalse();
        assertThat(ObjectLockRules.removable(new ObjectLock(RetentionMode.COMPLIANCE, TOMORROW, false),
                LockCheck.at(NOW, true))).isFalse();
        assertThat(ObjectLockRules.removable(new ObjectLock(null, null, true), LockCheck.at(NOW, true))).isFalse();
        // No check: a bucket without Object Lock.
        assertThat(ObjectLockRules.removable(new ObjectLock(null, null, true), LockCheck.NONE)).isTrue();
    }

    @Test
    void complianceRetentionOnlyGrowsWhileActive() {
        ObjectLock compliance = new ObjectLock(RetentionMode.COMPLIANCE, TOMORROW, true);

        assertThat(ObjectLockRules.withRetention(compliance, retention(RetentionMode.COMPLIANCE, NEXT_WEEK, false)))
                .isEqualTo(new ObjectLock(RetentionMode.COMPLIANCE, NEXT_WEEK, true));
        assertThat(ObjectLockRules.withRetention(compliance,
                retention(RetentionMode.COMPLIANCE, TOMORROW.minusSeconds(1), true))).isNull();
        assertThat(ObjectLockRules.withRetention(compliance, retention(RetentionMode.GOVERNANCE, NEXT_WEEK, true)))
                .isNull();
        assertThat(ObjectLockRules.withRetention(compliance, retention(null, null, true))).isNull();
        // Once it has passed, anything goes.
        ObjectLock expired = new ObjectLock(RetentionMode.COMPLIANCE, YESTERDAY, false);
        assertThat(ObjectLockRules.withRetention(expired, retention(null, null, false)))
                .isEqualTo(new ObjectLock(null, null, false));
    }

    @Test
    void governanceRetentionShrinksOnlyWithTheBypass() {
        ObjectLock governance = new ObjectLock(RetentionMode.GOVERNANCE, NEXT_WEEK, false);

        assertThat(ObjectLockRules.withRetention(governance,
                retention(RetentionMode.GOVERNANCE, NEXT_WEEK.plusSeconds(1), false)).retainUntil())
                .isEqualTo(NEXT_WEEK.plusSeconds(1));
        assertThat(ObjectLockRules.withRetention(governance, retention(RetentionMode.COMPLIANCE, NEXT_WEEK, false))
                .retentionMode()).isEqualTo(RetentionMode.COMPLIANCE);
        assertThat(ObjectLockRules.withRetention(governance, retention(RetentionMode.GOVERNANCE, TOMORROW, false)))
                .isNull();
        assertThat(ObjectLockRules.withRetention(governance, retention(null, null, false))).isNull();
        assertThat(ObjectLockRules.withRetention(governance, retention(RetentionMode.GOVERNANCE, TOMORROW, true))
                .retainUntil()).isEqualTo(TOMORROW);
        assertThat(ObjectLockRules.withRetention(governance, retention(null, null, true)).retentionMode()).isNull();
    }

    @Test
    void legalHoldKeepsTheRetention() {
        ObjectLock governance = new ObjectLock(RetentionMode.GOVERNANCE, NEXT_WEEK, false);

        assertThat(ObjectLockRules.withLegalHold(governance, true))
                .isEqualTo(new ObjectLock(RetentionMode.GOVERNANCE, NEXT_WEEK, true));
        assertThat(ObjectLockRules.withLegalHold(null, false)).isEqualTo(new ObjectLock(null, null, false));
    }

    private static VersionChange.SetRetention retention(RetentionMode mode, Instant until, boolean bypass) {
        return new VersionChange.SetRetention(mode, until, NOW, bypass);
    }
}
