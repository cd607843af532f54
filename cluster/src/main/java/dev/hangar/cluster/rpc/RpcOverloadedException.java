package dev.hangar.cluster.rpc;

/**
 * The connection to the peer already has the maximum number of calls waiting for the socket to
 * drain; the call was refused without being sent so that the caller can shed load.
 */
public final class RpcOverloadedException extends RpcException {
    public RpcOverloadedException(String message) {
        super(message);
    }
}
