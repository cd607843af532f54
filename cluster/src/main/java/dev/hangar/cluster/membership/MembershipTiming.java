package dev.hangar.cluster.membership;

import java.time.Duration;
import java.util.Objects;

/**
 * How often nodes ping each other and how many missed intervals make a peer suspect, then down.
 *
 * <p>A peer's state follows the time since it last answered: more than {@code suspectAfter}
 * intervals makes it SUSPECT, more than {@code downAfter} DOWN. Each ping may take up to one
 * interval, so a single slow answer does not count as two misses.
 */
public record MembershipTiming(Duration pingInterval, int suspectAfter, int downAfter) {
    public MembershipTiming {
        Objects.requireNonNull(pingInterval, "pingInterval");
        if (pingInterval.isNegative() || pingInterval.isZero()) {
            throw new IllegalArgumentException("ping interval must be positive: " + pingInterval);
        }
        if (suspectAfter < 1 || downAfter <= suspectAfter) {
            throw new IllegalArgumentException(
                    "need 1 <= suspectAfter < downAfter: " + suspectAfter + ", " + downAfter);
        }
    }

    /** 1 s pings, suspect after 3 s, down after 10 s: DOWN is what routing acts on, so it must not flap. */
    public static MembershipTiming defaults() {
        return new MembershipTiming(Duration.ofSeconds(1), 3, 10);
    }

    public Duration suspectTimeout() {
        return pingInterval.multipliedBy(suspectAfter);
    }

    public Duration downTimeout() {
        return pingInterval.multipliedBy(downAfter);
    }
}
