/**
 * The S3 load generator behind {@link dev.hangar.bench.LoadGenerator}: one picocli command per
 * benchmark of the seeds ({@link dev.hangar.bench.load.MixedCommand}, {@link
 * dev.hangar.bench.load.BillionCommand}, {@link dev.hangar.bench.load.SmallFilesCommand}, {@link
 * dev.hangar.bench.load.LatencyCommand}, {@link dev.hangar.bench.load.TimeToFirstByteCommand}), and
 * {@link dev.hangar.bench.load.EncryptionCommand}: plain against SSE-C and SSE-S3 objects in one run.
 *
 * <p>Every command talks to any S3 endpoint through the AWS SDK v2 async client ({@code
 * S3Options}), bounds its load in count and in time ({@code BoundedLoad}, {@code Deadline}), sends
 * payloads that are random per object and reproducible from the seed ({@code Payloads}), records
 * latencies in HdrHistograms ({@code OperationStats}) and reports through {@code Table}, {@code
 * Csv} and {@code Plots}.
 */
@NullMarked
package dev.hangar.bench.load;

import org.jspecify.annotations.NullMarked;
