package dev.hangar.metadata.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;

/**
 * Damages an encoding the ways logs and networks do, and the ways that find decoder bugs: flipped
 * bits, bytes set to varint edges, bytes inserted, dropped or swapped, a length overwritten with a
 * huge varint, bytes appended; and checks that a decoder refuses damaged bytes as a codec must.
 */
public final class Mutations {
    /** Prefixes of an encoding longer than this are sampled rather than all tried. */
    private static final int ALL_PREFIXES_UP_TO = 1_024;

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
    public static byte[] mutate(byte[] bytes, RandomGenerator random) {
        byte[] mutated = bytes;
        for (int i = random.nextInt(1, 4); i > 0; i--) {
            mutated = mutateOnce(mutated, random);
        }
        return mutated;
    }

    /**
     * The lengths of the strict prefixes of an encoding of {@code length} bytes to try: every one, or,
     * for long encodings, the first and last 256 and a sample.
     */
    public static int[] prefixLengths(int length, RandomGenerator random) {
        if (length <= ALL_PREFIXES_UP_TO) {
            return IntStream.range(0, length).toArray();
        }
        return IntStream.concat(IntStream.concat(IntStream.range(0, 256), IntStream.range(length - 256, length)),
                random.ints(256, 0, length)).toArray();
    }

    /**
     * Checks that decoding {@code bytes} failed as a codec must: with an {@link
     * IllegalArgumentException} that says what the bytes were meant to be. The bytes are shown only
     * on failure (as hex, which costs as much as the decoding of a long encoding).
     */
    public static void assertRefused(Throwable failure, String what, byte[] bytes) {
        assertThat(failure)
                .as(() -> "decoding " + HexFormat.of().formatHex(bytes))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid encoded " + what + ": ");
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
