package dev.hangar.s3api.semantics;

import dev.hangar.metadata.Checksum;
import java.io.InputStream;
import java.util.Optional;

/**
 * The body of a write request, decoded and verified as it streams: the stream fails, at the latest
 * when its end is reached, if a signature, digest or checksum does not match. Whatever consumes it
 * must therefore read it to the end before making its content visible.
 */
public interface Payload {

    InputStream stream();

    /** The decoded length the client declared, or -1 if it declared none. */
    long declaredLength();

    /** The MD5 of the decoded bytes; valid once the stream reached its end. */
    byte[] md5();

    /** The additional checksum the client sent or asked for, verified; valid at the end. */
    Optional<Checksum> checksum();
}
