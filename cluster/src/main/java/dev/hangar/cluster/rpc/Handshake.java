package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import javax.crypto.Mac;

/**
 * The mutual challenge–response that opens every RPC connection, before any other frame is
 * accepted:
 *
 * <ol>
 *   <li>client → server, {@code HELLO}: the client's node id (as the method), then a version byte,
 *       a fresh 32-byte nonce and the client's cluster id ("" if it has none yet);
 *   <li>server → client, {@code CHALLENGE}: the server's node id, its own fresh nonce and cluster id;
 *   <li>client → server, {@code PROOF}: {@code HMAC-SHA256(secret, "client", transcript)};
 *   <li>server → client, {@code PROOF}: {@code HMAC-SHA256(secret, "server", transcript)}, sent only
 *       once the client's proof checked out.
 * </ol>
 *
 * <p>The transcript is both nonces, both node ids and both cluster ids, each length-prefixed. Fresh
 * nonces on both sides mean a recorded proof is worth nothing on another connection; the role in
 * the MAC means a server's proof cannot be reflected back to it as a client's (or the other way
 * round); the node ids mean a proof vouches for who is talking, so the id a server hands its
 * handlers as the caller is one the caller proved. Proofs are compared in constant time. The server
 * proves itself last so that a peer that knows nothing gets nothing computed with the secret.
 *
 * <p>Two cluster ids must be equal unless one of them is empty: a node that has not joined a
 * cluster yet can talk to any node that knows the secret, a node that has cannot talk to another
 * cluster's nodes even if the secret is the same.
 */
final class Handshake {
    static final byte VERSION = 1;
    static final int NONCE_BYTES = 32;
    static final int PROOF_BYTES = 32;
    /** Every handshake frame fits easily; a larger frame before authentication is refused unread. */
    static final int MAX_FRAME_BYTES = 1024;
    static final int MAX_CLUSTER_ID_LENGTH = 64;
    /** How long a connection may take to authenticate (TLS included) before it is closed. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] LABEL = "hangar rpc handshake v1".getBytes(StandardCharsets.US_ASCII);

    enum Role {
        CLIENT,
        SERVER
    }

    /** What a {@code HELLO} carries. */
    record Hello(NodeId client, byte[] nonce, String clusterId) {}

    /** What a {@code CHALLENGE} carries. */
    record Challenge(NodeId server, byte[] nonce, String clusterId) {}

    /** Everything both proofs cover. */
    record Transcript(Hello hello, Challenge challenge) {}

    private Handshake() {}

    static byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    static boolean sameCluster(String a, String b) {
        return a.isEmpty() || b.isEmpty() || a.equals(b);
    }

    /** Checks a cluster id's form (printable ASCII without spaces, at most 64 characters; may be empty). */
    static String checkClusterId(String id) {
        if (id.length() > MAX_CLUSTER_ID_LENGTH || !id.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
            throw new IllegalArgumentException("malformed cluster id");
        }
        return id;
    }

    static RpcFrame hello(NodeId client, byte[] nonce, String clusterId) {
        byte[] id = clusterId.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer payload = ByteBuffer.allocate(1 + NONCE_BYTES + 1 + id.length);
        payload.put(VERSION).put(nonce).put((byte) id.length).put(id);
        return new RpcFrame(RpcFrame.Kind.HELLO, 0, client.value(), payload.array());
    }

    /** Reads a {@code HELLO}; {@link IllegalArgumentException} if it is not a well-formed one of this version. */
    static Hello readHello(RpcFrame frame) {
        ByteBuffer payload = ByteBuffer.wrap(frame.payload());
        if (!payload.hasRemaining() || payload.get() != VERSION) {
            throw new IllegalArgumentException("unknown handshake version (this node speaks " + VERSION + ")");
        }
        byte[] nonce = nonceOf(payload);
        return new Hello(new NodeId(frame.method()), nonce, clusterIdOf(payload));
    }

    static RpcFrame challenge(NodeId server, byte[] nonce, String clusterId) {
        byte[] id = clusterId.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer payload = ByteBuffer.allocate(NONCE_BYTES + 1 + id.length);
        payload.put(nonce).put((byte) id.length).put(id);
        return new RpcFrame(RpcFrame.Kind.CHALLENGE, 0, server.value(), payload.array());
    }

    static Challenge readChallenge(RpcFrame frame) {
        ByteBuffer payload = ByteBuffer.wrap(frame.payload());
        byte[] nonce = nonceOf(payload);
        return new Challenge(new NodeId(frame.method()), nonce, clusterIdOf(payload));
    }

    static RpcFrame proof(ClusterSecret secret, Role role, Transcript transcript) {
        return new RpcFrame(RpcFrame.Kind.PROOF, 0, "", mac(secret, role, transcript));
    }

    /** Whether {@code frame} is the proof that {@code role}'s end of {@code transcript} knows the secret. */
    static boolean verify(ClusterSecret secret, Role role, Transcript transcript, RpcFrame frame) {
        return frame.payload().length == PROOF_BYTES
                && MessageDigest.isEqual(mac(secret, role, transcript), frame.payload());
    }

    private static byte[] mac(ClusterSecret secret, Role role, Transcript transcript) {
        Mac mac = secret.mac();
        mac.update(LABEL);
        mac.update((byte) role.ordinal());
        field(mac, transcript.hello().nonce());
        field(mac, transcript.challenge().nonce());
        field(mac, transcript.hello().client().value().getBytes(StandardCharsets.UTF_8));
        field(mac, transcript.challenge().server().value().getBytes(StandardCharsets.UTF_8));
        field(mac, transcript.hello().clusterId().getBytes(StandardCharsets.US_ASCII));
        field(mac, transcript.challenge().clusterId().getBytes(StandardCharsets.US_ASCII));
        return mac.doFinal();
    }

    // Length-prefixed, so that no two different transcripts feed the MAC the same bytes.
    private static void field(Mac mac, byte[] value) {
        mac.update(ByteBuffer.allocate(4).putInt(value.length).array());
        mac.update(value);
    }

    private static byte[] nonceOf(ByteBuffer payload) {
        if (payload.remaining() < NONCE_BYTES) {
            throw new IllegalArgumentException("truncated handshake nonce");
        }
        byte[] nonce = new byte[NONCE_BYTES];
        payload.get(nonce);
        return nonce;
    }

    private static String clusterIdOf(ByteBuffer payload) {
        if (!payload.hasRemaining()) {
            throw new IllegalArgumentException("truncated handshake cluster id");
        }
        int length = payload.get() & 0xff;
        if (payload.remaining() != length) {
            throw new IllegalArgumentException("handshake cluster id length does not match the frame");
        }
        byte[] id = new byte[length];
        payload.get(id);
        return checkClusterId(new String(id, StandardCharsets.US_ASCII));
    }
}
