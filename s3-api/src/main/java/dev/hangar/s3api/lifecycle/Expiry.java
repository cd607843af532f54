package dev.hangar.s3api.lifecycle;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An action lifecycle takes on the current version of an object now.
 *
 * @param action what to do
 * @param dueAt when it became due
 * @param ruleId the {@link LifecycleRule#id() id} of the rule that asks for it, {@code null} if it has none
 */
public record Expiry(Action action, Instant dueAt, @Nullable String ruleId) {

    public Expiry {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(dueAt, "dueAt");
    }

    /** What expiring the current version means, by the bucket's versioning and the version's kind. */
    public enum Action {
        /** In a bucket that was never versioned: delete the object for good. */
        DELETE,
        /**
         * In a versioning-enabled or -suspended bucket: do what {@code DeleteObject} without a version id does,
         * which puts a delete marker on top (one with the {@code null} version id, replacing a {@code null}
         * version, when versioning is suspended).
         */
        ADD_DELETE_MARKER,
        /** Remove the current delete marker for good: no noncurrent version is left beneath it. */
        REMOVE_DELETE_MARKER
    }
}
