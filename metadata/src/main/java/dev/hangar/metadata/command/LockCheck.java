package dev.hangar.metadata.command;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Whether a command that removes or replaces a version must respect its Object Lock, and at which
 * instant: a legal hold forbids removal, an active retention forbids it too, except a GOVERNANCE
 * one when the request bypasses governance. Checked when the command is applied, atomically with
 * the removal, so that a hold set meanwhile is never ignored.
 *
 * @param at the instant retention dates are judged at (the coordinator's clock when it made the
 *     command); null for {@link #NONE}
 * @param bypassGovernance whether the request carried {@code x-amz-bypass-governance-retention}
 */
public record LockCheck(@Nullable Instant at, boolean bypassGovernance) {
    /** No check: for removals that Object Lock does not govern (an unversioned bucket never has it). */
    public static final LockCheck NONE = new LockCheck(null, false);

    public LockCheck {
        if (at == null && bypassGovernance) {
            throw new IllegalArgumentException("a bypass needs an instant to judge retention at");
        }
    }

    /** A check at {@code at}, bypassing GOVERNANCE retention or not. */
    public static LockCheck at(Instant at, boolean bypassGovernance) {
        return new LockCheck(at, bypassGovernance);
    }

    /** Whether this checks anything. */
    public boolean checks() {
        return at != null;
    }
}
