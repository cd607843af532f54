/**
 * Binary request/response RPC between nodes, on Netty.
 *
 * <p><b>Wire format.</b> Each frame is a 4-byte big-endian length followed by a header — kind (1
 * byte: hello, request, response, error, challenge, proof), request id (8 bytes), method (2-byte
 * length + UTF-8) — and the payload. A client opens one connection per peer (inside TLS when {@link
 * dev.hangar.cluster.rpc.RpcTls} is configured) and runs the {@code Handshake}: hello, challenge and
 * two proofs, in which both ends prove with an HMAC over fresh nonces, node ids and cluster ids that
 * they know the {@link dev.hangar.cluster.rpc.ClusterSecret}. Until it completes, frames are at
 * most 1 KiB, anything out of turn closes the connection unanswered, and it must complete within
 * 10 s. After that, any number of requests share the connection, each answered by a response or an
 * error with the same request id, in any order. One connection rather than a pool keeps the
 * per-peer cost flat and lets TCP's congestion control see all of a peer's traffic; TCP_NODELAY is
 * set on both sides because small requests must not wait for Nagle's algorithm (the 40 ms
 * delayed-ACK cliff DESIGN.md warns about).
 *
 * <p><b>Back-pressure.</b> A client never hands Netty more than its write buffer's high-water mark:
 * while the channel is not writable, calls wait in a per-connection queue bounded in calls and in
 * payload bytes (64 MiB by default) and go out when it drains; when that queue is full the call fails
 * at once with {@link dev.hangar.cluster.rpc.RpcOverloadedException}, so a slow peer shows up as
 * errors the caller can shed rather than as unbounded heap growth. A server stops reading from a
 * connection while its responses to that connection cannot be written, or while the requests of that
 * connection it is handling hold more than the same byte bound, which pushes the back-pressure to the
 * client through TCP. Frames larger than the configured maximum (16 MiB by default) are refused: the
 * sender fails the call with {@link dev.hangar.cluster.rpc.RpcFrameTooLargeException} before
 * sending, a server answers an oversized response with an error, and a receiver that still sees
 * one closes the connection, since it cannot skip it safely.
 *
 * <p><b>Faults and counting.</b> {@link dev.hangar.cluster.rpc.NetworkFaults} is consulted before
 * every request and every response leaves a node, so tests and benchmarks can add one-way delay,
 * drop messages or partition nodes at runtime; a dropped or partitioned call fails with {@link
 * dev.hangar.cluster.rpc.RpcTimeoutException} as it would on a real network. {@link
 * dev.hangar.cluster.rpc.CallCounter} counts calls per method, the raw material for counting the
 * sequential round trips of an S3 operation.
 */
@NullMarked
package dev.hangar.cluster.rpc;

import org.jspecify.annotations.NullMarked;
