package dev.hangar.cluster.rpc;

import java.time.Duration;

/**
 * Settings shared by {@link RpcClient} and {@link RpcServer}.
 *
 * @param maxFrameBytes largest frame (header and payload) sent or accepted
 * @param maxQueuedWrites calls that may wait per connection while the socket is not writable
 * @param writeLowWaterMark bytes below which a non-writable channel becomes writable again
 * @param writeHighWaterMark bytes of unflushed output above which a channel stops being writable
 * @param connectTimeout how long a connection attempt may take
 * @param ioThreads Netty I/O threads of a client or a server (0: Netty's default, twice the cores)
 * @param handshakeTimeout how long a new connection may take to authenticate (TLS and the {@link
 *     Handshake}) before either end closes it
 */
public record RpcConfig(
        int maxFrameBytes,
        int maxQueuedWrites,
        int writeLowWaterMark,
        int writeHighWaterMark,
        Duration connectTimeout,
        int ioThreads,
        Duration handshakeTimeout) {

    /** 16 MiB frames hold a whole 1 MiB block many times over while bounding what one bad frame can cost. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;

    public RpcConfig {
        if (maxFrameBytes < 64) {
            throw new IllegalArgumentException("maxFrameBytes too small: " + maxFrameBytes);
        }
        if (maxQueuedWrites < 0 || writeLowWaterMark < 0 || writeHighWaterMark < writeLowWaterMark || ioThreads < 0) {
            throw new IllegalArgumentException("invalid RPC configuration");
        }
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("handshake timeout must be positive: " + handshakeTimeout);
        }
    }

    /** Settings with the default handshake timeout of 10 s. */
    public RpcConfig(int maxFrameBytes, int maxQueuedWrites, int writeLowWaterMark, int writeHighWaterMark,
            Duration connectTimeout, int ioThreads) {
        this(maxFrameBytes, maxQueuedWrites, writeLowWaterMark, writeHighWaterMark, connectTimeout, ioThreads,
                Handshake.DEFAULT_TIMEOUT);
    }

    public static RpcConfig defaults() {
        return new RpcConfig(DEFAULT_MAX_FRAME_BYTES, 4096, 256 << 10, 1 << 20, Duration.ofSeconds(5), 2);
    }

    public RpcConfig withMaxFrameBytes(int bytes) {
        return new RpcConfig(bytes, maxQueuedWrites, writeLowWaterMark, writeHighWaterMark, connectTimeout, ioThreads,
                handshakeTimeout);
    }

    public RpcConfig withHandshakeTimeout(Duration timeout) {
        return new RpcConfig(maxFrameBytes, maxQueuedWrites, writeLowWaterMark, writeHighWaterMark, connectTimeout,
                ioThreads, timeout);
    }
}
