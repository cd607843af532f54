package dev.hangar.s3api.auth;

import dev.hangar.metadata.Checksum;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.checksum.ChecksumHasher;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The decoded bytes of a request body, verified while they stream.
 *
 * <p><b>Contract: nothing read from this stream may be committed before {@code read} has returned -1.</b>
 * Verification that needs a whole unit of data happens when that unit ends: a chunk's signature when the
 * chunk's last byte is read, and the lengths, {@code x-amz-content-sha256}, {@code Content-MD5} and
 * additional checksum at the end of the body. Bytes of a forged chunk or of a corrupted body have therefore
 * already been returned when the {@link PayloadVerificationException} is thrown. That is the price of
 * streaming chunks of several MiB without holding them; it is safe because the caller writes blocks
 * provisionally and makes the object visible only once this stream ended without an exception.
 *
 * <p>Once a verification has failed, every later {@code read} throws the same exception. After the end,
 * {@link #decodedLength()}, {@link #md5()} and {@link #checksum()} give what the S3 layer stores, so it does
 * not hash the body a second time. Not thread-safe, like any stream.
 */
public final class VerifiedBody extends InputStream {
    private static final HexFormat HEX = HexFormat.of();

    private final InputStream source;
    private final @Nullable AwsChunkedInputStream chunked;
    private final BodyExpectations expectations;
    private final MessageDigest md5 = Signatures.newMd5();
    private final @Nullable MessageDigest sha256;
    private final @Nullable ChecksumHasher checksumHasher;
    private final byte[] single = new byte[1];

    private long length;
    private boolean complete;
    private @Nullable PayloadVerificationException failure;
    private byte @Nullable [] md5Digest;
    private @Nullable Checksum checksum;

    VerifiedBody(InputStream source, @Nullable AwsChunkedInputStream chunked, BodyExpectations expectations) {
        this.source = source;
        this.chunked = chunked;
        this.expectations = expectations;
        this.sha256 = expectations.sha256() == null ? null : Signatures.newSha256();
        this.checksumHasher = expectations.checksumAlgorithm() == null
                ? null
                : expectations.checksumAlgorithm().newHasher();
    }

    @Override
    public int read() throws IOException {
        int count = read(single, 0, 1);
        return count < 0 ? -1 : single[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) throws IOException {
        Objects.checkFromIndexSize(offset, count, buffer.length);
        if (failure != null) {
            throw failure;
        }
        if (complete) {
            return -1;
        }
        if (count == 0) {
            return 0;
        }
        try {
            int read = source.read(buffer, offset, count);
            if (read < 0) {
                finish();
                return -1;
            }
            md5.update(buffer, offset, read);
            if (sha256 != null) {
                sha256.update(buffer, offset, read);
            }
            if (checksumHasher != null) {
                checksumHasher.update(buffer, offset, read);
            }
            length += read;
            Long expected = expectations.length();
            if (expected != null && length > expected) {
                // Stop at once rather than store an unbounded body and reject it at the end.
                throw new PayloadVerificationException(S3Error.INCOMPLETE_BODY,
                        "The body is longer than the " + expected + " bytes of " + expectations.lengthHeader() + ".");
            }
            return read;
        } catch (PayloadVerificationException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        source.close();
    }

    /** Whether the body has been read to its end and passed every verification. */
    public boolean isComplete() {
        return complete;
    }

    /** The number of decoded (object) bytes; available once {@link #isComplete()}. */
    public long decodedLength() {
        requireComplete();
        return length;
    }

    /** The MD5 of the decoded bytes, which is the ETag of a single-part object; once {@link #isComplete()}. */
    public byte[] md5() {
        requireComplete();
        return Objects.requireNonNull(md5Digest).clone();
    }

    /** {@link #md5()} as lower-case hex, the ETag form. */
    public String md5Hex() {
        return HEX.formatHex(md5());
    }

    /**
     * The additional checksum of the decoded bytes, when the request sent one (header or trailer, then
     * verified) or named one in {@code x-amz-sdk-checksum-algorithm} (then computed); once
     * {@link #isComplete()}.
     */
    public Optional<Checksum> checksum() {
        requireComplete();
        return Optional.ofNullable(checksum);
    }

    private void finish() throws PayloadVerificationException {
        Long expectedLength = expectations.length();
        if (expectedLength != null && length != expectedLength) {
            throw new PayloadVerificationException(S3Error.INCOMPLETE_BODY, "You did not provide the number of "
                    + "bytes specified by the " + expectations.lengthHeader() + " HTTP header: expected "
                    + expectedLength + ", received " + length + ".");
        }
        if (sha256 != null && !HEX.formatHex(sha256.digest()).equals(expectations.sha256())) {
            throw new PayloadVerificationException(S3Error.X_AMZ_CONTENT_SHA256_MISMATCH,
                    "The provided 'x-amz-content-sha256' header does not match what was computed.");
        }
        byte[] computedMd5 = md5.digest();
        byte[] expectedMd5 = expectations.md5();
        if (expectedMd5 != null && !MessageDigest.isEqual(computedMd5, expectedMd5)) {
            throw new PayloadVerificationException(S3Error.BAD_DIGEST,
                    "The Content-MD5 you specified did not match what we received.");
        }
        if (checksumHasher != null) {
            checksum = verifyChecksum(checksumHasher.digest());
        }
        md5Digest = computedMd5;
        complete = true;
    }

    private Checksum verifyChecksum(byte[] computed) throws PayloadVerificationException {
        var algorithm = Objects.requireNonNull(expectations.checksumAlgorithm());
        byte[] expected = expectations.checksum();
        String trailer = expectations.checksumTrailer();
        if (trailer != null) {
            String value = chunked == null ? null : chunked.trailers().get(trailer);
            if (value == null) {
                throw new PayloadVerificationException(S3Error.INCOMPLETE_BODY,
                        "The trailing header " + trailer + " declared in x-amz-trailer was not sent.");
            }
            expected = PayloadDecoder.decodeBase64(value);
            if (expected == null || expected.length != algorithm.digestLength()) {
                throw new PayloadVerificationException(S3Error.INVALID_REQUEST,
                        "Value for " + trailer + " trailing header is invalid.");
            }
        }
        if (expected != null && !MessageDigest.isEqual(computed, expected)) {
            throw new PayloadVerificationException(S3Error.BAD_DIGEST,
                    "The " + algorithm.name() + " you specified did not match the calculated checksum.");
        }
        return new Checksum(algorithm.name(), Base64.getEncoder().encodeToString(computed));
    }

    private void requireComplete() {
        if (!complete) {
            throw new IllegalStateException("the body has not been read to its end and verified");
        }
    }
}
