package dev.hangar.metadata;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The object lock state of one version: a retention (mode and date, set together or not at all)
 * and a legal hold, independent of each other. The store records them; the S3 layer decides what
 * they forbid.
 *
 * @param retentionMode null when the version has no retention
 * @param retainUntil null exactly when {@code retentionMode} is
 */
public record ObjectLock(@Nullable RetentionMode retentionMode, @Nullable Instant retainUntil, boolean legalHold) {
    public ObjectLock {
        if ((retentionMode == null) != (retainUntil == null)) {
            throw new IllegalArgumentException("retention mode and retain-until date go together");
        }
    }
}
