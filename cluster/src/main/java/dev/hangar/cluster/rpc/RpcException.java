package dev.hangar.cluster.rpc;

/** A call failed: the peer could not be reached, the connection broke, or (subclasses) why else. */
public class RpcException extends RuntimeException {
    public RpcException(String message) {
        super(message);
    }

    public RpcException(String message, Throwable cause) {
        super(message, cause);
    }
}
