package dev.hangar.cluster.rpc;

/**
 * One message on the wire. {@code method} is the method name of a request, the sender's node id in
 * a hello or a challenge, and empty in proofs, responses and errors; an error's payload is its UTF-8
 * message. Hello, challenge and proof make up the {@link Handshake}.
 */
record RpcFrame(Kind kind, long requestId, String method, byte[] payload) {
    enum Kind {
        HELLO,
        REQUEST,
        RESPONSE,
        ERROR,
        CHALLENGE,
        PROOF;

        private static final Kind[] VALUES = values();

        static Kind of(int code) {
            if (code < 0 || code >= VALUES.length) {
                throw new IllegalArgumentException("unknown frame kind " + code);
            }
            return VALUES[code];
        }
    }

    /** Kind (1) + request id (8) + method length (2), before the method's bytes. */
    static final int FIXED_HEADER_BYTES = 11;

    /** The encoded size of this frame, without the length prefix. */
    int encodedSize(int methodBytes) {
        return FIXED_HEADER_BYTES + methodBytes + payload.length;
    }
}
