package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Object version ids of versioning-enabled buckets: 32 URL-safe characters, opaque to clients. They
 * start with a letter, because command-line clients read an argument that starts with {@code -} as
 * an option; the next nine encode a strictly increasing microsecond stamp (good for five centuries)
 * in an alphabet in ASCII order, so ids sort in the order they were made; the other 22 are random
 * (132 bits), so ids cannot be guessed. Buckets without versioning use the id {@code "null"}.
 */
final class VersionIds {
    static final int LENGTH = 32;
    private static final String ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";
    private static final char FIRST = 'v';
    private static final int STAMP_CHARACTERS = 9;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Clock clock;
    private final AtomicLong last = new AtomicLong();

    VersionIds(Clock clock) {
        this.clock = clock;
    }

    String next() {
        long now = clock.millis() * 1000;
        long stamp = last.accumulateAndGet(now, (previous, current) -> Math.max(previous + 1, current));
        char[] id = new char[LENGTH];
        id[0] = FIRST;
        for (int i = STAMP_CHARACTERS; i >= 1; i--) {
            id[i] = ALPHABET.charAt((int) (stamp & 63));
            stamp >>>= 6;
        }
        for (int i = STAMP_CHARACTERS + 1; i < LENGTH; i++) {
            id[i] = ALPHABET.charAt(RANDOM.nextInt(64));
        }
        return new String(id);
    }

    /** Whether a client-supplied {@code versionId} could name a version: {@code "null"}, or an id of this form. */
    static boolean wellFormed(String versionId) {
        if (versionId.equals(ObjectVersion.NULL_VERSION)) {
            return true;
        }
        if (versionId.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < versionId.length(); i++) {
            if (ALPHABET.indexOf(versionId.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The {@code versionId} parameter of a request, checked: absent is null, a malformed one is
     * S3's 400 InvalidArgument.
     */
    static @Nullable String parameter(@Nullable String versionId) {
        if (versionId == null) {
            return null;
        }
        if (versionId.isEmpty()) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Version id cannot be the empty string");
        }
        if (!wellFormed(versionId)) {
            throw invalid();
        }
        return versionId;
    }

    static S3Exception invalid() {
        return new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid version id specified");
    }
}
