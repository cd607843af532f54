package dev.hangar.cluster.rpc;

/**
 * A connection failed its {@link Handshake}: the peer does not know the cluster secret, belongs to
 * another cluster, broke the protocol, or refused this node's own proof. No request was sent on it.
 */
public final class RpcAuthenticationException extends RpcException {
    public RpcAuthenticationException(String message) {
        super(message);
    }
}
