package dev.hangar.s3api.semantics;

import dev.hangar.s3api.encryption.SealedFormat;
import dev.hangar.s3api.encryption.SealingStream;
import java.io.InputStream;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One stream of content to store (an object, a part), sealed when it has a key: what to store, how long that is,
 * and the entity tag it gets.
 */
final class ContentWrite {
    private final InputStream stream;
    private final @Nullable SealingStream sealing;

    private final boolean keyedEtag;

    ContentWrite(InputStream plain, Optional<Sealing> sealed) {
        this.sealing = sealed.map(how -> new SealingStream(plain, how.key())).orElse(null);
        this.stream = sealing != null ? sealing : plain;
        this.keyedEtag = sealed.map(Sealing::keyedEtag).orElse(false);
    }

    /** The bytes to store. */
    InputStream stream() {
        return stream;
    }

    /** The stored length of {@code plainLength} bytes; -1 (unknown) stays unknown. */
    long storedLength(long plainLength) {
        return sealing == null || plainLength < 0 ? plainLength : SealedFormat.storedLength(plainLength);
    }

    /** The plaintext length of what was stored. */
    long plainLength(long storedLength) {
        return sealing == null ? storedLength : SealedFormat.plainLength(storedLength);
    }

    /** The entity tag, from the plaintext's MD5: the MD5 itself unless the sealing keys it. */
    String etag(byte[] md5) {
        return Etags.of(sealing != null && keyedEtag ? sealing.etag(md5) : md5);
    }
}
