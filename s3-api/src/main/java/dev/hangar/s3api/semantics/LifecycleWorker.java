package dev.hangar.s3api.semantics;

import java.time.Instant;

/** Applies the buckets' lifecycle rules: expirations, noncurrent versions, delete markers, stale uploads. */
public final class LifecycleWorker {
    private final ObjectOperations objects;
    private final BucketConfigurations configurations;

    LifecycleWorker(ObjectOperations objects, BucketConfigurations configurations) {
        this.objects = objects;
        this.configurations = configurations;
    }

    /** One pass over every bucket as of {@code now}; returns how many actions it took. */
    public long runOnce(Instant now) {
        return 0;
    }
}
