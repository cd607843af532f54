package dev.hangar.cluster.rpc;

/** The peer's handler failed; the message is the one the peer sent. */
public final class RpcRemoteException extends RpcException {
    private final String method;

    public RpcRemoteException(String method, String remoteMessage) {
        super(remoteMessage);
        this.method = method;
    }

    /** The method that was called. */
    public String method() {
        return method;
    }
}
