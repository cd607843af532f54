package dev.hangar.metadata.state;

import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.VersionChange;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What S3 Object Lock forbids, as the state machine checks it when a command is applied. A
 * retention is active while its date lies after the command's instant. A legal hold forbids
 * removal; so does an active retention, except GOVERNANCE with a bypass. An active COMPLIANCE
 * retention can be neither shortened nor removed nor relaxed to GOVERNANCE; an active GOVERNANCE
 * one only with a bypass. Lengthening, or turning GOVERNANCE into COMPLIANCE, is always allowed.
 */
final class ObjectLockRules {
    private ObjectLockRules() {}

    /** Whether a version with this lock may be removed under {@code check}. */
    static boolean removable(@Nullable ObjectLock lock, LockCheck check) {
        if (lock == null || !check.checks()) {
            return true;
        }
        if (lock.legalHold()) {
            return false;
        }
        return !active(lock, check.at()) || (lock.retentionMode() == RetentionMode.GOVERNANCE && check.bypassGovernance());
    }

    /** The lock after {@code change}; null if the current retention forbids it. */
    static @Nullable ObjectLock withRetention(@Nullable ObjectLock current, VersionChange.SetRetention change) {
        Instant until = change.retainUntil();
        RetentionMode mode = change.mode();
        if (current != null && active(current, change.at())) {
            boolean removesOrShortens = until == null || until.isBefore(current.retainUntil());
            boolean relaxesMode = current.retentionMode() == RetentionMode.COMPLIANCE && mode == RetentionMode.GOVERNANCE;
            boolean allowed = switch (current.retentionMode()) {
                case COMPLIANCE -> !removesOrShortens && !relaxesMode;
                case GOVERNANCE -> !removesOrShortens || change.bypassGovernance();
            };
            if (!allowed) {
                return null;
            }
        }
        return new ObjectLock(mode, until, current != null && current.legalHold());
    }

    /** The lock after a legal hold change; the retention stays. */
    static ObjectLock withLegalHold(@Nullable ObjectLock current, boolean on) {
        return current == null
                ? new ObjectLock(null, null, on)
                : new ObjectLock(current.retentionMode(), current.retainUntil(), on);
    }

    private static boolean active(ObjectLock lock, @Nullable Instant at) {
        return lock.retentionMode() != null && lock.retainUntil() != null && at != null && lock.retainUntil().isAfter(at);
    }
}
