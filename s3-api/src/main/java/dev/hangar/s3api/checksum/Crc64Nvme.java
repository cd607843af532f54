package dev.hangar.s3api.checksum;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.zip.Checksum;

/**
 * CRC-64/NVME (the {@code CRC64NVME} of S3): reflected polynomial {@code 0x9A6C9329AC4BC9B5}, initial value
 * and final xor all ones; the check value of {@code "123456789"} is {@code 0xAE8B14860A799888}.
 *
 * <p>Slice-by-8: eight 256-entry tables let the loop consume eight bytes per step with one 64-bit load,
 * several times faster than the byte-at-a-time table, which is what matters on multi-GiB uploads.
 */
final class Crc64Nvme implements Checksum {
    private static final long REFLECTED_POLYNOMIAL = 0x9A6C9329AC4BC9B5L;
    private static final long[][] TABLES = buildTables();
    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The running register, kept inverted (initial value all ones) until {@link #getValue()}. */
    private long register = -1L;

    @Override
    public void update(int value) {
        register = TABLES[0][(int) (register ^ value) & 0xFF] ^ (register >>> 8);
    }

    @Override
    public void update(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        long crc = register;
        int index = offset;
        int end = offset + length;
        long[] table0 = TABLES[0];
        long[] table1 = TABLES[1];
        long[] table2 = TABLES[2];
        long[] table3 = TABLES[3];
        long[] table4 = TABLES[4];
        long[] table5 = TABLES[5];
        long[] table6 = TABLES[6];
        long[] table7 = TABLES[7];
        // Reflected CRCs consume bytes least significant first, hence the little-endian load.
        while (end - index >= 8) {
            crc ^= (long) LITTLE_ENDIAN_LONG.get(bytes, index);
            crc = table7[(int) crc & 0xFF]
                    ^ table6[(int) (crc >>> 8) & 0xFF]
                    ^ table5[(int) (crc >>> 16) & 0xFF]
                    ^ table4[(int) (crc >>> 24) & 0xFF]
                    ^ table3[(int) (crc >>> 32) & 0xFF]
                    ^ table2[(int) (crc >>> 40) & 0xFF]
                    ^ table1[(int) (crc >>> 48) & 0xFF]
                    ^ table0[(int) (crc >>> 56) & 0xFF];
            index += 8;
        }
        while (index < end) {
            crc = table0[(int) (crc ^ bytes[index]) & 0xFF] ^ (crc >>> 8);
            index++;
        }
        register = crc;
    }

    @Override
    public long getValue() {
        return ~register;
    }

    @Override
    public void reset() {
        register = -1L;
    }

    private static long[][] buildTables() {
        long[][] tables = new long[8][256];
        for (int value = 0; value < 256; value++) {
            long crc = value;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ REFLECTED_POLYNOMIAL : crc >>> 1;
            }
            tables[0][value] = crc;
        }
        // tables[k][v] is the CRC of byte v followed by k zero bytes.
        for (int slice = 1; slice < 8; slice++) {
            for (int value = 0; value < 256; value++) {
                long previous = tables[slice - 1][value];
                tables[slice][value] = (previous >>> 8) ^ tables[0][(int) previous & 0xFF];
            }
        }
        return tables;
    }
}
