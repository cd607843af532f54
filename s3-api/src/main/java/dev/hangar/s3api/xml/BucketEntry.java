package dev.hangar.s3api.xml;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One bucket in ListBuckets: {@code Name}, {@code CreationDate}, then {@code BucketRegion} when present. */
public record BucketEntry(String name, Instant creationDate, @Nullable String bucketRegion) {
    public BucketEntry {
        Objects.requireNonNull(name, "bucket name is required");
        Objects.requireNonNull(creationDate, "creation date is required");
    }
}
