package dev.hangar.s3api.xml;

import org.jspecify.annotations.Nullable;

/**
 * A parsed CreateBucket request body.
 *
 * @param locationConstraint the region asked for, or null when the body was empty or named none
 *     (both of which mean us-east-1 on AWS)
 */
public record CreateBucketConfiguration(@Nullable String locationConstraint) {}
