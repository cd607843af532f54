package dev.hangar.s3api.access;

import java.util.Objects;

/**
 * The answer of {@link AccessControl}: whether the request may go ahead, and which rule said so, for
 * logs and for the tests (the client only ever sees AccessDenied).
 *
 * @param allowed whether the request is allowed
 * @param reason the rule that decided
 */
public record Decision(boolean allowed, String reason) {
    public Decision {
        Objects.requireNonNull(reason, "reason");
    }

    static Decision allow(String reason) {
        return new Decision(true, reason);
    }

    static Decision deny(String reason) {
        return new Decision(false, reason);
    }
}
