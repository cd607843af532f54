package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutCodec;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A layout's version and a hash of its encoded bytes: enough to tell, from a ping, whether a peer
 * runs another layout than ours without sending the layout.
 *
 * <p>The hash tells apart two layouts applied with the same version on different nodes (two
 * operators, or two bootstrapping nodes that each thought they were first); {@link #isNewerThan}
 * orders them so that every node picks the same one.
 */
public record LayoutDigest(long version, long hash) {

    public static LayoutDigest of(ClusterLayout layout) {
        return new LayoutDigest(layout.version(), hash(LayoutCodec.encode(layout)));
    }

    /** Higher version first; at equal versions the higher hash, as unsigned numbers. */
    public boolean isNewerThan(LayoutDigest other) {
        return version != other.version ? version > other.version : Long.compareUnsigned(hash, other.hash) > 0;
    }

    private static long hash(byte[] bytes) {
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(bytes)).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
