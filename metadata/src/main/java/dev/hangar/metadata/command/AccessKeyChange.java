package dev.hangar.metadata.command;

import dev.hangar.metadata.BucketPermission;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A change of one access key, as a value; never of its id. */
public sealed interface AccessKeyChange {

    /** Grants {@code permission} on a bucket, or takes every permission there away if it is null. */
    record SetBucketPermission(String bucket, @Nullable BucketPermission permission) implements AccessKeyChange {
        public SetBucketPermission {
            Objects.requireNonNull(bucket, "bucket");
        }
    }

    /** Allows the key to create buckets, or not. */
    record SetCreateBuckets(boolean allowed) implements AccessKeyChange {}

    /**
     * Replaces the stored secret, only if it still is {@code expected}: sealing a plain-text secret
     * must not overwrite a secret rotated meanwhile.
     */
    record ReplaceSecret(String expected, String secret) implements AccessKeyChange {
        public ReplaceSecret {
            Objects.requireNonNull(expected, "expected");
            Objects.requireNonNull(secret, "secret");
        }

        @Override
        public String toString() {
            return "ReplaceSecret[redacted]";
        }
    }

    /** Several changes applied in order, atomically. */
    record All(List<AccessKeyChange> changes) implements AccessKeyChange {
        public All {
            changes = List.copyOf(changes);
        }
    }
}
