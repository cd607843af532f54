package dev.hangar.cluster.rpc;

/** A request or response would exceed the maximum frame size; nothing was sent. */
public final class RpcFrameTooLargeException extends RpcException {
    public RpcFrameTooLargeException(String message) {
        super(message);
    }
}
