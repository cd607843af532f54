package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.checksum.ChecksumAlgorithm;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Opens a request body for reading as the object's bytes, verified as they stream.
 *
 * <p>{@link #open} checks, before any byte is read, every header that can be wrong on its own
 * ({@code Content-MD5}, {@code x-amz-checksum-*}, {@code x-amz-trailer},
 * {@code x-amz-sdk-checksum-algorithm}, the lengths) and throws {@link S3Exception}. What can only be known
 * from the bytes is checked by the returned {@link VerifiedBody}, which throws
 * {@link PayloadVerificationException} from {@code read}. Stateless and thread-safe.
 */
public final class PayloadDecoder {
    private static final String TRAILER = "x-amz-trailer";
    private static final String SDK_CHECKSUM_ALGORITHM = "x-amz-sdk-checksum-algorithm";
    private static final String SINGLE_CHECKSUM_MESSAGE =
            "Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.";

    /**
     * @param authentication the result of {@link SigV4Verifier#verify} for the same request
     * @param headers the request headers (any letter case of names)
     * @param rawBody the body as received; the returned stream reads it to its end and closes it on close
     * @return the decoded object bytes, verified by the time {@code read} returns -1
     * @throws S3Exception when a header is invalid on its own ({@code InvalidDigest} for a malformed
     *     {@code Content-MD5}, {@code InvalidRequest} for a malformed or duplicated checksum, ...)
     */
    public VerifiedBody open(Authentication authentication, Map<String, List<String>> headers, InputStream rawBody) {
        Map<String, List<String>> lowerCase = SignedRequest.lowerCaseNames(headers);
        PayloadMode mode = authentication.payloadMode();
        byte[] md5 = contentMd5(lowerCase);
        String lengthHeader = mode.isChunked() ? "x-amz-decoded-content-length" : "content-length";
        Long length = declaredLength(lowerCase, lengthHeader);

        Optional<ChecksumAlgorithm> headerAlgorithm = headerChecksumAlgorithm(lowerCase);
        Optional<ChecksumAlgorithm> trailerAlgorithm = trailerChecksumAlgorithm(lowerCase, mode);
        if (headerAlgorithm.isPresent() && trailerAlgorithm.isPresent()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, SINGLE_CHECKSUM_MESSAGE);
        }
        Optional<ChecksumAlgorithm> declared = headerAlgorithm.or(() -> trailerAlgorithm);
        Optional<ChecksumAlgorithm> sdkAlgorithm = sdkChecksumAlgorithm(lowerCase);
        if (sdkAlgorithm.isPresent() && declared.isPresent() && sdkAlgorithm.get() != declared.get()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Value for " + SDK_CHECKSUM_ALGORITHM
                    + " header is invalid: it names " + sdkAlgorithm.get() + " but the checksum sent is "
                    + declared.get() + ".");
        }
        ChecksumAlgorithm algorithm = declared.or(() -> sdkAlgorithm).orElse(null);
        byte[] checksum = headerAlgorithm.map(value -> checksumValue(lowerCase, value)).orElse(null);
        String checksumTrailer = trailerAlgorithm.map(ChecksumAlgorithm::headerName).orElse(null);

        BodyExpectations expectations = new BodyExpectations(length, lengthHeader, authentication.payloadSha256(),
                md5, algorithm, checksum, checksumTrailer);
        AwsChunkedInputStream chunked = mode.isChunked()
                ? new AwsChunkedInputStream(rawBody, mode, chain(authentication))
                : null;
        return new VerifiedBody(chunked == null ? rawBody : chunked, chunked, expectations);
    }

    private static @Nullable ChunkSignatureChain chain(Authentication authentication) {
        if (!authentication.payloadMode().hasChunkSignatures()) {
            return null;
        }
        // The Authentication constructor guarantees these for a signed request, the only kind with this mode.
        return new ChunkSignatureChain(
                Objects.requireNonNull(authentication.signingKey()),
                Objects.requireNonNull(authentication.timestamp()),
                Objects.requireNonNull(authentication.credentialScope()),
                Objects.requireNonNull(authentication.seedSignature()));
    }

    private static byte @Nullable [] contentMd5(Map<String, List<String>> headers) {
        Optional<String> value = HeaderValues.first(headers, "content-md5");
        if (value.isEmpty()) {
            return null;
        }
        byte[] md5 = decodeBase64(value.get());
        if (md5 == null || md5.length != 16) {
            throw new S3Exception(S3Error.INVALID_DIGEST, "The Content-MD5 you specified is not valid.");
        }
        return md5;
    }

    private static @Nullable Long declaredLength(Map<String, List<String>> headers, String name) {
        Optional<String> value = HeaderValues.first(headers, name);
        if (value.isEmpty()) {
            return null;
        }
        try {
            long length = Long.parseLong(value.get().strip());
            if (length >= 0) {
                return length;
            }
        } catch (NumberFormatException e) {
            // Answered below, like a negative length.
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, name + " must be a non-negative integer.");
    }

    private static Optional<ChecksumAlgorithm> headerChecksumAlgorithm(Map<String, List<String>> headers) {
        List<ChecksumAlgorithm> present = new ArrayList<>();
        for (ChecksumAlgorithm algorithm : ChecksumAlgorithm.values()) {
            if (headers.containsKey(algorithm.headerName())) {
                present.add(algorithm);
            }
        }
        if (present.size() > 1) {
            throw new S3Exception(S3Error.INVALID_REQUEST, SINGLE_CHECKSUM_MESSAGE);
        }
        return present.stream().findFirst();
    }

    private static byte[] checksumValue(Map<String, List<String>> headers, ChecksumAlgorithm algorithm) {
        String value = HeaderValues.first(headers, algorithm.headerName()).orElse("");
        byte[] checksum = decodeBase64(value);
        if (checksum == null || checksum.length != algorithm.digestLength()) {
            throw new S3Exception(S3Error.INVALID_REQUEST,
                    "Value for " + algorithm.headerName() + " header is invalid.");
        }
        return checksum;
    }

    private static Optional<ChecksumAlgorithm> trailerChecksumAlgorithm(Map<String, List<String>> headers,
            PayloadMode mode) {
        List<String> names = new ArrayList<>();
        for (String value : headers.getOrDefault(TRAILER, List.of())) {
            for (String name : value.split(",")) {
                if (!name.isBlank()) {
                    names.add(name.strip().toLowerCase(Locale.ROOT));
                }
            }
        }
        if (names.isEmpty()) {
            return Optional.empty();
        }
        if (!mode.hasTrailer()) {
            // A trailer can only follow an aws-chunked body; silently skipping a declared checksum would
            // store data the client asked to have verified.
            throw new S3Exception(S3Error.INVALID_REQUEST, "x-amz-trailer requires x-amz-content-sha256 "
                    + "STREAMING-UNSIGNED-PAYLOAD-TRAILER or STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER.");
        }
        if (names.size() > 1) {
            throw new S3Exception(S3Error.INVALID_REQUEST, SINGLE_CHECKSUM_MESSAGE);
        }
        return Optional.of(ChecksumAlgorithm.fromHeaderName(names.getFirst()).orElseThrow(() -> new S3Exception(
                S3Error.INVALID_REQUEST, "The value specified in the x-amz-trailer header is not supported")));
    }

    private static Optional<ChecksumAlgorithm> sdkChecksumAlgorithm(Map<String, List<String>> headers) {
        return HeaderValues.first(headers, SDK_CHECKSUM_ALGORITHM).map(value -> ChecksumAlgorithm.fromName(value)
                .orElseThrow(() -> new S3Exception(S3Error.INVALID_REQUEST,
                        "Value for " + SDK_CHECKSUM_ALGORITHM + " header is invalid.")));
    }

    static byte @Nullable [] decodeBase64(String value) {
        try {
            return Base64.getDecoder().decode(value.strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
