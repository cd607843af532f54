package dev.hangar.distribution.support;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Locale;
import java.util.function.Function;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The five S3 "additional checksums" ({@code x-amz-checksum-*}), computed by the test itself so
 * that an expected value never comes from the code path under test.
 */
public enum FlexibleChecksum {

    CRC32(ChecksumAlgorithm.CRC32, DefaultChecksumAlgorithm.CRC32, HeadObjectResponse::checksumCRC32) {
        @Override
        public byte[] compute(byte[] data) {
            return crc(new CRC32(), data, Integer.BYTES);
        }
    },
    CRC32C(ChecksumAlgorithm.CRC32_C, DefaultChecksumAlgorithm.CRC32C, HeadObjectResponse::checksumCRC32C) {
        @Override
        public byte[] compute(byte[] data) {
            return crc(new CRC32C(), data, Integer.BYTES);
        }
    },
    CRC64NVME(ChecksumAlgorithm.CRC64_NVME, DefaultChecksumAlgorithm.CRC64NVME, HeadObjectResponse::checksumCRC64NVME) {
        @Override
        public byte[] compute(byte[] data) {
            return crc(new Crc64Nvme(), data, Long.BYTES);
        }
    },
    SHA1(ChecksumAlgorithm.SHA1, DefaultChecksumAlgorithm.SHA1, HeadObjectResponse::checksumSHA1) {
        @Override
        public byte[] compute(byte[] data) {
            return Digests.digest("SHA-1").digest(data);
        }
    },
    SHA256(ChecksumAlgorithm.SHA256, DefaultChecksumAlgorithm.SHA256, HeadObjectResponse::checksumSHA256) {
        @Override
        public byte[] compute(byte[] data) {
            return Digests.sha256().digest(data);
        }
    };

    private final ChecksumAlgorithm s3Algorithm;
    private final software.amazon.awssdk.checksums.spi.ChecksumAlgorithm signerAlgorithm;
    private final Function<HeadObjectResponse, String> headValue;

    FlexibleChecksum(ChecksumAlgorithm s3Algorithm,
                     software.amazon.awssdk.checksums.spi.ChecksumAlgorithm signerAlgorithm,
                     Function<HeadObjectResponse, String> headValue) {
        this.s3Algorithm = s3Algorithm;
        this.signerAlgorithm = signerAlgorithm;
        this.headValue = headValue;
    }

    public abstract byte[] compute(byte[] data);

    /** The value as S3 carries it in a header or trailer: base64 of the big-endian bytes. */
    public String base64(byte[] data) {
        return Base64.getEncoder().encodeToString(compute(data));
    }

    /** {@code x-amz-checksum-crc32}, ... */
    public String headerName() {
        return "x-amz-checksum-" + name().toLowerCase(Locale.ROOT);
    }

    public ChecksumAlgorithm s3Algorithm() {
        return s3Algorithm;
    }

    /** The algorithm as the SigV4 signer names it (the SDK can compute all but CRC64NVME without CRT). */
    public software.amazon.awssdk.checksums.spi.ChecksumAlgorithm signerAlgorithm() {
        return signerAlgorithm;
    }

    /** The SDK can compute this checksum itself (CRC64NVME needs the native CRT library). */
    public boolean sdkComputable() {
        return this != CRC64NVME;
    }

    public String valueIn(HeadObjectResponse response) {
        return headValue.apply(response);
    }

    private static byte[] crc(Checksum checksum, byte[] data, int width) {
        checksum.update(data, 0, data.length);
        ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES).putLong(checksum.getValue());
        byte[] all = buffer.array();
        byte[] result = new byte[width];
        System.arraycopy(all, Long.BYTES - width, result, 0, width);
        return result;
    }
}
