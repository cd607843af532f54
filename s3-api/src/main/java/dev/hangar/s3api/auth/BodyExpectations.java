package dev.hangar.s3api.auth;

import dev.hangar.s3api.checksum.ChecksumAlgorithm;
import org.jspecify.annotations.Nullable;

/**
 * What a body must turn out to be, gathered from the headers before the first byte is read.
 *
 * @param length the decoded length: {@code x-amz-decoded-content-length} for aws-chunked bodies, else
 *     {@code Content-Length}; null when not declared
 * @param lengthHeader the header {@code length} came from, for messages
 * @param sha256 the hex SHA-256 of {@code x-amz-content-sha256}, or null
 * @param md5 the 16 bytes of {@code Content-MD5}, or null
 * @param checksumAlgorithm the additional checksum to compute, or null
 * @param checksum the value of the {@code x-amz-checksum-*} header, null when it comes in a trailer or
 *     when only {@code x-amz-sdk-checksum-algorithm} named the algorithm
 * @param checksumTrailer the trailer ({@code x-amz-trailer}) that carries the checksum, or null
 */
record BodyExpectations(
        @Nullable Long length,
        String lengthHeader,
        @Nullable String sha256,
        byte @Nullable [] md5,
        @Nullable ChecksumAlgorithm checksumAlgorithm,
        byte @Nullable [] checksum,
        @Nullable String checksumTrailer) {
}
