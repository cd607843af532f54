package dev.hangar.s3api.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sealed format's laws, over seeded random cases: lengths invert, every range of every stream decrypts to the
 * plaintext's bytes, and no change to the stored bytes (a flipped bit, a cut, two segments swapped, another key)
 * yields plaintext.
 */
class SealedFormatTest {
    private static final int SEGMENT = SealedFormat.SEGMENT;
    private static final long[] EDGES = {0, 1, 15, 16, SEGMENT - 1, SEGMENT, SEGMENT + 1, 2L * SEGMENT, 3L * SEGMENT - 7};

    @Test
    void storedLengthAndPlainLengthAreInverses() {
        Random random = new Random(20261127);
        for (int i = 0; i < 100_000; i++) {
            long plain = i < EDGES.length ? EDGES[i] : (long) (random.nextDouble() * (5L << 30));
            long stored = SealedFormat.storedLength(plain);
            assertThat(SealedFormat.plainLength(stored)).as("plain length of %d", plain).isEqualTo(plain);
        }
        assertThat(SealedFormat.storedLength(0)).isEqualTo(SealedFormat.SALT + SealedFormat.TAG);
        assertThat(SealedFormat.storedLength(SEGMENT)).isEqualTo(SealedFormat.SALT + SEGMENT + SealedFormat.TAG);
        assertThat(SealedFormat.storedLength(SEGMENT + 1)).isEqualTo(SealedFormat.SALT + SEGMENT + 1 + 2L * SealedFormat.TAG);
    }

    @Test
    void lengthsNoPlaintextSealsToAreRefused() {
        assertThatThrownBy(() -> SealedFormat.plainLength(SealedFormat.SALT + SealedFormat.TAG - 1))
                .isInstanceOf(IllegalArgumentException.class);
        // A full segment and then a last segment of no plaintext: never written (a full segment is then the last).
        long impossible = SealedFormat.storedLength(SEGMENT) + SealedFormat.TAG;
        assertThatThrownBy(() -> SealedFormat.plainLength(impossible)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyRangeOfEveryStreamUnsealsToItsPlaintext() throws IOException {
        Random random = new Random(7);
        ContentKey key = randomKey(random);
        for (int i = 0; i < 60; i++) {
            int length = i < EDGES.length ? (int) EDGES[i] : random.nextInt(4 * SEGMENT);
            byte[] plain = bytes(random, length);
            byte[] stored = seal(plain, key);
            assertThat((long) stored.length).isEqualTo(SealedFormat.storedLength(length));
            assertThat(unsealRange(stored, key, length, 0, length)).isEqualTo(plain);
            for (int r = 0; r < 20 && length > 0; r++) {
                int offset = random.nextInt(length);
                int count = 1 + random.nextInt(length - offset);
                assertThat(unsealRange(stored, key, length, offset, count))
                        .as("%d+%d of %d", offset, count, length)
                        .isEqualTo(Arrays.copyOfRange(plain, offset, offset + count));
            }
        }
    }

    @Test
    void sealingTheSameBytesTwiceGivesDifferentStreamsAndTags() throws IOException {
        Random random = new Random(11);
        ContentKey key = randomKey(random);
        byte[] plain = bytes(random, 1000);
        SealingStream first = new SealingStream(new ByteArrayInputStream(plain), key);
        SealingStream second = new SealingStream(new ByteArrayInputStream(plain), key);
        assertThat(first.readAllBytes()).isNotEqualTo(second.readAllBytes());
        byte[] md5 = new byte[16];
        assertThat(first.etag(md5)).hasSize(16).isNotEqualTo(second.etag(md5)).isNotEqualTo(md5);
    }

    @Test
    void aFlippedBitAnywhereFailsTheRead() throws IOException {
        Random random = new Random(13);
        ContentKey key = randomKey(random);
        int length = 2 * SEGMENT + 100;
        byte[] stored = seal(bytes(random, length), key);
        for (int i = 0; i < 200; i++) {
            byte[] damaged = stored.clone();
            int at = random.nextInt(damaged.length);
            damaged[at] ^= (byte) (1 << random.nextInt(8));
            assertThatThrownBy(() -> unsealRange(damaged, key, length, 0, length))
                    .as("bit flipped at %d", at)
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void aStreamCutAtASegmentBoundaryFailsTheRead() throws IOException {
        Random random = new Random(17);
        ContentKey key = randomKey(random);
        int length = 3 * SEGMENT;
        byte[] stored = seal(bytes(random, length), key);
        byte[] cut = Arrays.copyOf(stored, (int) SealedFormat.segmentOffset(2));
        // Read as if it were the whole stream: its last whole segment is not sealed as a last one.
        assertThatThrownBy(() -> unsealAll(cut, key, 2L * SEGMENT)).isInstanceOf(IOException.class);
        // Read as the stream it claims to be: a segment is missing.
        assertThatThrownBy(() -> unsealAll(cut, key, length)).isInstanceOf(IOException.class);
    }

    @Test
    void swappedSegmentsFailTheRead() throws IOException {
        Random random = new Random(19);
        ContentKey key = randomKey(random);
        int length = 3 * SEGMENT;
        byte[] stored = seal(bytes(random, length), key);
        byte[] swapped = stored.clone();
        int a = (int) SealedFormat.segmentOffset(0);
        int b = (int) SealedFormat.segmentOffset(1);
        System.arraycopy(stored, b, swapped, a, SealedFormat.SEALED_SEGMENT);
        System.arraycopy(stored, a, swapped, b, SealedFormat.SEALED_SEGMENT);
        assertThatThrownBy(() -> unsealAll(swapped, key, length)).isInstanceOf(IOException.class);
    }

    @Test
    void anotherKeyReadsNothingAndItsCheckFails() throws IOException {
        Random random = new Random(23);
        ContentKey key = randomKey(random);
        ContentKey other = randomKey(random);
        byte[] stored = seal(bytes(random, 5000), key);
        assertThatThrownBy(() -> unsealAll(stored, other, 5000)).isInstanceOf(IOException.class);
        String check = key.check();
        assertThat(key.matches(check)).isTrue();
        assertThat(other.matches(check)).isFalse();
        assertThat(key.check()).isNotEqualTo(check);
        assertThat(key.matches("not a check")).isFalse();
        assertThat(key.toString()).isEqualTo("ContentKey[redacted]");
    }

    private static byte[] seal(byte[] plain, ContentKey key) throws IOException {
        // Through one-byte and odd-sized reads as well as whole ones, as a copying loop would read it.
        try (InputStream in = new SealingStream(new ByteArrayInputStream(plain), key)) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int first = in.read();
            if (first >= 0) {
                out.write(first);
            }
            byte[] buffer = new byte[8191];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        }
    }

    private static byte[] unsealAll(byte[] stored, ContentKey key, long plainLength) throws IOException {
        return unsealRange(stored, key, plainLength, 0, plainLength);
    }

    /** What a ranged GET does: reads the salt and the touched segments only, skips to the range, stops at its end. */
    private static byte[] unsealRange(byte[] stored, ContentKey key, long plainLength, long offset, long count)
            throws IOException {
        if (count == 0) {
            return new byte[0];
        }
        SegmentRun run = SegmentRun.of(plainLength, offset, count);
        byte[] salt = Arrays.copyOf(stored, SealedFormat.SALT);
        long available = Math.max(0, Math.min(run.storedLength(), stored.length - run.storedOffset()));
        InputStream segments = new ByteArrayInputStream(stored, (int) run.storedOffset(), (int) available);
        try (InputStream in = new UnsealingStream(segments, key, salt, run)) {
            assertThat(in.skip(run.skip())).isEqualTo(run.skip());
            byte[] out = in.readNBytes((int) count);
            if (out.length < count) {
                throw new IOException("short: " + out.length + " of " + count);
            }
            return out;
        }
    }

    private static ContentKey randomKey(Random random) {
        return new ContentKey(bytes(random, 32));
    }

    private static byte[] bytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }
}
