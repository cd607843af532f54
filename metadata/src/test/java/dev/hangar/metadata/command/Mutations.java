package dev.hangar.metadata.command;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Damages an encoding the ways logs and networks do, and the ways that find decoder bugs: flipped
 * bits, bytes set to varint edges, bytes inserted, dropped or swapped, a length overwritten with a
 * huge varint, bytes appended.
 */
final class Mutations {
    private static final int[] EDGE_BYTES = {0x00, 0x01, 0x02, 0x03, 0x7F, 0x80, 0xFE, 0xFF};
    private static final byte[][] HUGE_VARINTS = {
        {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}, // 2^32 - 1
        {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07}, // Integer.MAX_VALUE
        {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
            (byte) 0xFF, 0x01}, // 2^64 - 1
        {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, 0x00}, // longer than 64 bits
    };

    private Mutations() {}

    /** {@code bytes} with one to three mutations; {@code bytes} itself is left alone. */
    static byte[] mutate(byte[] bytes, RandomGenerator random) {
        byte[] mutated = bytes;
        for (int i = random.nextInt(1, 4); i > 0; i--) {
            mutated = mutateOnce(mutated, random);
        }
        return mutated;
    }

    private static byte[] mutateOnce(byte[] bytes, RandomGenerator random) {
        if (bytes.length == 0) {
            return new byte[] {(byte) random.nextInt(256)};
        }
        int at = random.nextInt(bytes.length);
        byte[] copy = bytes.clone();
        switch (random.nextInt(8)) {
            case 0 -> copy[at] ^= (byte) (1 << random.nextInt(8));
            case 1 -> copy[at] = (byte) random.nextInt(256);
            case 2 -> copy[at] = (byte) EDGE_BYTES[random.nextInt(EDGE_BYTES.length)];
            case 3 -> {
                copy = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, copy, 0, at);
                copy[at] = (byte) random.nextInt(256);
                System.arraycopy(bytes, at, copy, at + 1, bytes.length - at);
            }
            case 4 -> {
                copy = new byte[bytes.length - 1];
                System.arraycopy(bytes, 0, copy, 0, at);
                System.arraycopy(bytes, at + 1, copy, at, bytes.length - at - 1);
            }
            case 5 -> {
                byte[] huge = HUGE_VARINTS[random.nextInt(HUGE_VARINTS.length)];
                copy = Arrays.copyOf(bytes, Math.max(bytes.length, at + huge.length));
                System.arraycopy(huge, 0, copy, at, huge.length);
            }
            case 6 -> {
                int other = random.nextInt(bytes.length);
                copy[at] = bytes[other];
                copy[other] = bytes[at];
            }
            default -> {
                copy = Arrays.copyOf(bytes, bytes.length + random.nextInt(1, 4));
                for (int i = bytes.length; i < copy.length; i++) {
                    copy[i] = (byte) random.nextInt(256);
                }
            }
        }
        return copy;
    }
}
