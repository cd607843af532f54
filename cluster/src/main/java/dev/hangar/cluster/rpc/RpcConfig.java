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
 * @param maxInFlightBytes payload bytes one connection may hold in memory on either end: a client's calls
 *     waiting for the socket (beyond them a call fails with {@link RpcOverloadedException}), and a server's
 *     requests being handled (beyond them it stops reading the connection until answers free room). Frames
 *     are large (a 1 MiB chunk per block call, up to {@code maxFrameBytes}): a bound in count alone lets a
 *     few thousand of them take gigabytes.
 */
public record RpcConfig(
        int maxFrameBytes,
        int maxQueuedWrites,
        int writeLowWaterMark,
        int writeHighWaterMark,
        Duration connectTimeout,
        int ioThreads,
        Duration handshakeTimeout,
        long maxInFlightBytes) {

    /** 16 MiB frames hold a whole 1 MiB block many times over while bounding what one bad frame can cost. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;

    /** 64 MiB in flight per connection: dozens of block transfers, while a slow peer costs a bounded amount. */
    public static final long DEFAULT_MAX_IN_FLIGHT_BYTES = 64L << 20;

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
        if (maxInFlightBytes < maxFrameBytes) {
            throw new IllegalArgumentException("maxInFlightBytes (" + maxInFlightBytes
                    + ") must hold at least one frame of maxFrameBytes (" + maxFrameBytes + ")");
        }
    }


    /** Settings with the default handshake timeout of 10 s. */
    public RpcConfig(int maxFrameBytes, int maxQueuedWrites, int writeLowWaterMark, int writeHighWaterMark,
            Duration connectTimeout, int ioThreads) {
        this(maxFrameBytes, maxQueuedWrites, writeLowWaterMark, writeHighWaterMark, connectTimeout, ioThreads,
                Handshake.DEFAULT_TIMEOUT, Math.max(DEFAULT_MAX_IN_FLIGHT_BYTES, maxFrameBytes));
    }

    public static RpcConfig defaults() {
        return new RpcConfig(DEFAULT_MAX_FRAME_BYTES, 4096, 256 << 10, 1 << 20, Duration.ofSeconds(5), 2);
    }

    public RpcConfig withMaxFrameBytes(int bytes) {
        return new RpcConfig(bytes, maxQueuedWrites, writeLowWaterMark, writeHighWaterMark, connectTimeout, ioThreads,
                handshakeTimeout, Math.max(maxInFlightBytes, bytes));
    }

    public RpcConfig withHandshakeTimeout(Duration timeout) {
        return new RpcConfig(maxFrameBytes, maxQueuedWrites, writeLowWaterMark, writeHighWaterMark, connectTimeout,
                ioThreads, timeout, maxInFlightBytes);
    }

    public RpcConfig withMaxInFlightBytes(long bytes) {
        return new RpcConfig(maxFrameBytes, maxQueuedWrites, writeLowWaterMark, writeHighWaterMark, connectTimeout,
                ioThreads, handshakeTimeout, bytes);
    }
}
