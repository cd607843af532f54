/**
 * Blocks as objects in a bucket of another S3 service (AWS, MinIO, Garage, another Hangar), so that
 * Hangar can front cloud object storage: one object per block under a configurable key prefix,
 * fanned out by the id's first two hex digits, written with one PutObject and read with ranged
 * GetObjects through the AWS SDK v2 async client.
 */
@NullMarked
package dev.hangar.blockstore.s3;

import org.jspecify.annotations.NullMarked;
