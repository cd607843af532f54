package dev.hangar.cluster.rpc;

/**
 * No answer within the call's timeout. The request may or may not have run on the peer: callers
 * that retry must send idempotent requests.
 */
public final class RpcTimeoutException extends RpcException {
    public RpcTimeoutException(String message) {
        super(message);
    }
}
