package dev.hangar.s3api.lifecycle;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * When a lifecycle action falls due, and the rule that sets it: what the {@code x-amz-expiration} header
 * ({@code expiry-date="...", rule-id="..."}) and the {@code x-amz-abort-date} and {@code x-amz-abort-rule-id}
 * headers report.
 *
 * @param at the instant the action becomes due; for a day count, always a midnight UTC
 * @param ruleId the {@link LifecycleRule#id() id} of the rule, {@code null} if it has none
 */
public record Due(Instant at, @Nullable String ruleId) {
    public Due {
        Objects.requireNonNull(at, "at");
    }
}
