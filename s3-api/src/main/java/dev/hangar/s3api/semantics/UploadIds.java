package dev.hangar.s3api.semantics;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Multipart upload ids that sort in initiation order, as S3 lists uploads of one key: a strictly
 * increasing microsecond stamp, then random bits so ids cannot be guessed.
 */
final class UploadIds {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private final Clock clock;
    private final AtomicLong last = new AtomicLong();

    UploadIds(Clock clock) {
        this.clock = clock;
    }

    String next() {
        long now = clock.millis() * 1000;
        long stamp = last.accumulateAndGet(now, (previous, current) -> Math.max(previous + 1, current));
        byte[] random = new byte[12];
        RANDOM.nextBytes(random);
        return String.format("%016x", stamp) + HEX.formatHex(random);
    }
}
