package dev.hangar.distribution.support;

import java.util.zip.Checksum;

/**
 * CRC-64/NVME (reflected polynomial 0x9A6C9329AC4BC9B5, initial and final XOR all ones), the
 * checksum S3 calls {@code CRC64NVME}. The AWS SDK computes it only with the native CRT library,
 * which the test classpath does not carry, so the tests compute it themselves.
 */
public final class Crc64Nvme implements Checksum {

    private static final long POLYNOMIAL = 0x9A6C9329AC4BC9B5L;
    private static final long[] TABLE = new long[256];

    static {
        for (int i = 0; i < 256; i++) {
            long crc = i;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ POLYNOMIAL : crc >>> 1;
            }
            TABLE[i] = crc;
        }
    }

    private long crc = ~0L;

    @Override
    public void update(int b) {
        crc = TABLE[(int) ((crc ^ b) & 0xff)] ^ (crc >>> 8);
    }

    @Override
    public void update(byte[] bytes, int offset, int length) {
        long value = crc;
        for (int i = offset; i < offset + length; i++) {
            value = TABLE[(int) ((value ^ bytes[i]) & 0xff)] ^ (value >>> 8);
        }
        crc = value;
    }

    @Override
    public long getValue() {
        return ~crc;
    }

    @Override
    public void reset() {
        crc = ~0L;
    }
}
