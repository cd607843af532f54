package dev.hangar.metadata;

import java.time.Instant;

/** A bucket: its name, when it was created, and the region it was created in. */
public record BucketRecord(String name, Instant created, String region) {
    public BucketRecord {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("bucket name is required");
        }
        if (created == null || region == null) {
            throw new IllegalArgumentException("bucket creation time and region are required");
        }
    }
}
