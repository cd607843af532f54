package dev.hangar.metadata.command;

import dev.hangar.metadata.RetentionMode;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A change of one version's metadata, as a value; never of its content, size or ETag. */
public sealed interface VersionChange {

    /** Replaces the tag set (empty removes every tag). */
    record SetTags(Map<String, String> tags) implements VersionChange {
        public SetTags {
            tags = Map.copyOf(tags);
        }
    }

    /** Sets the ACL (a canned ACL's name or a grant list, as the S3 API stores it); null means private. */
    record SetAcl(@Nullable String acl) implements VersionChange {}

    /** Turns the legal hold on or off; the retention stays. */
    record SetLegalHold(boolean on) implements VersionChange {}

    /**
     * Sets or removes the retention; the legal hold stays. While the current retention is active
     * (its date after {@code at}), COMPLIANCE can be neither shortened, removed nor relaxed to
     * GOVERNANCE, and GOVERNANCE only with {@code bypassGovernance}; such a change is refused with
     * {@code OBJECT_LOCKED}.
     *
     * @param mode null, with {@code retainUntil} null, to remove the retention
     */
    record SetRetention(@Nullable RetentionMode mode, @Nullable Instant retainUntil, Instant at,
            boolean bypassGovernance) implements VersionChange {
        public SetRetention {
            if ((mode == null) != (retainUntil == null)) {
                throw new IllegalArgumentException("retention mode and retain-until date go together");
            }
            Objects.requireNonNull(at, "at");
        }
    }
}
