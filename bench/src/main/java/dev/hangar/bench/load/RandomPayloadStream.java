package dev.hangar.bench.load;

import java.io.InputStream;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * The bytes of {@link Payloads#bytes} for one object, made as they are read rather than held in an
 * array, with the CRC32C of what was read so far: a large body streams in a few KiB of memory and
 * its digest is known once it has been sent.
 */
final class RandomPayloadStream extends InputStream {

    /** A multiple of 8, so that generating chunk by chunk gives the same bytes as one whole array. */
    private static final int CHUNK = 64 * 1024;

    private final SplittableRandom random;
    private final long size;
    private final byte[] chunk = new byte[CHUNK];
    private final CRC32C crc = new CRC32C();
    private int chunkLength;
    private int chunkPosition;
    private long produced;

    RandomPayloadStream(long seed, long index, long size) {
        this.random = Payloads.payloadRandom(seed, index);
        this.size = size;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] target, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        if (chunkPosition == chunkLength) {
            if (produced == size) {
                return -1;
            }
            chunkLength = (int) Math.min(CHUNK, size - produced);
            if (chunkLength == CHUNK) {
                random.nextBytes(chunk);
            } else {
                byte[] last = new byte[chunkLength];
                random.nextBytes(last);
                System.arraycopy(last, 0, chunk, 0, chunkLength);
            }
            crc.update(chunk, 0, chunkLength);
            produced += chunkLength;
            chunkPosition = 0;
        }
        int count = Math.min(length, chunkLength - chunkPosition);
        System.arraycopy(chunk, chunkPosition, target, offset, count);
        chunkPosition += count;
        return count;
    }

    @Override
    public int available() {
        return chunkLength - chunkPosition;
    }

    /** Whether every byte has been read. */
    boolean finished() {
        return produced == size && chunkPosition == chunkLength;
    }

    /** The CRC32C of the bytes made so far: of the whole object once {@link #finished()}. */
    long crc32c() {
        return crc.getValue();
    }
}
