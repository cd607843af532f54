package dev.hangar.s3api.xml;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An object version's Object Lock retention, the document of Put/GetObjectRetention: {@code Mode}
 * then {@code RetainUntilDate}, both or neither. An empty {@code <Retention/>} is a valid request:
 * with governance bypass, it removes a governance-mode retention. Whether the date lies in the
 * future, and whether the change is allowed, is the caller's to judge.
 */
public record Retention(@Nullable RetentionMode mode, @Nullable Instant retainUntilDate) {
    private static final Retention NONE = new Retention(null, null);

    public Retention {
        if ((mode == null) != (retainUntilDate == null)) {
            throw new IllegalArgumentException("a retention has both a mode and a date, or neither");
        }
    }

    /** The empty retention. */
    public static Retention none() {
        return NONE;
    }
}
