package dev.hangar.s3api.checksum;

import java.util.zip.Checksum;

/** Adapts a {@link Checksum} of 32 or 64 bits to S3's big-endian byte form. */
final class ZipChecksumHasher implements ChecksumHasher {
    private final Checksum checksum;
    private final int digestLength;

    ZipChecksumHasher(Checksum checksum, int digestLength) {
        this.checksum = checksum;
        this.digestLength = digestLength;
    }

    @Override
    public void update(byte[] bytes, int offset, int length) {
        checksum.update(bytes, offset, length);
    }

    @Override
    public byte[] digest() {
        long value = checksum.getValue();
        byte[] digest = new byte[digestLength];
        for (int index = digestLength - 1; index >= 0; index--) {
            digest[index] = (byte) value;
            value >>>= 8;
        }
        return digest;
    }
}
