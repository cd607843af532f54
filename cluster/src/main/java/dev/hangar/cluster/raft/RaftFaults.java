package dev.hangar.cluster.raft;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.NetworkFaults;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.grpc.server.GrpcServices;
import org.apache.ratis.proto.RaftProtos.RaftRpcRequestProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.Descriptors;
import org.apache.ratis.thirdparty.com.google.protobuf.Message;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCall;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCallListener;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.jspecify.annotations.Nullable;

/**
 * The {@link NetworkFaults} hook on this node's Raft traffic: a gRPC interceptor on its Ratis server that, for
 * every call a peer P makes to this node, delays or drops each message P sent by {@code faults.verdict(P, self)}
 * and each message this node answers with (replies, stream replies, the closing status) by {@code
 * faults.verdict(self, P)}. The one {@code NetworkFaults} of the node's control plane thus drives its Hangar RPC
 * and its Raft traffic alike. All Raft traffic to a node passes through its server, whichever end opened the
 * connection, so the hook on the receiving server sees both directions of every exchange.
 *
 * <p>Who P is: server-to-server requests (AppendEntries, RequestVote, ReadIndex, InstallSnapshot,
 * StartLeaderElection) name their sender in {@code serverRequest.requestorId} (a Raft peer id, which is a node id);
 * client requests (forwarded commands and reads) in {@code rpcRequest.requestorId}, the client id, which each node
 * derives from its node id ({@link #clientId}): its high 64 bits are a hash of the node id, its low 64 bits random
 * per start, so that a restarted node's call ids never meet the retry cache entries of its previous life. The field
 * is found through the protobuf descriptor of the first message of a call, whatever its type. Senders not in the
 * {@linkplain #register registered} nodes, and this node itself, get no fault.
 *
 * <p>Order is kept within a call, in each direction: a message is due at {@code max(arrival + delay, due time of
 * the one before)}, so AppendEntries' bidirectional stream stays in order and a stream of messages delayed by
 * {@code d} is delayed by {@code d}, not by {@code d} per message. A dropped message is simply lost (later ones of
 * a stream still pass, as with the RPC's drops); if it was the only message of its direction (a unary request or
 * reply), the end of that direction is withheld too, so the other end learns of the loss by its own timeout, as on
 * a real network, never from an error a network would not give. While a call holds delayed messages it reads the
 * peer's messages as they come (it buffers them rather than stall the transport's flow control) and hands them on
 * as the service asks for them.
 *
 * <p>Cost without faults ({@link NetworkFaults#active()} false): a call is wrapped, and each message costs a few
 * volatile reads and an atomic counter; nothing is parsed, no thread is involved. A call switches to the delayed path, for good, at its first
 * message while faults are active; once they are cleared, a message of such a call that finds nothing ahead of it
 * is delivered at once, on the transport's thread.
 */
final class RaftFaults implements ServerInterceptor, GrpcServices.Customizer {
    private static final Logger LOG = Logger.getLogger(RaftFaults.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Which field of a request names its sender, by message type; empty for a type that names none. */
    private static final Map<Descriptors.Descriptor, Optional<SenderField>> SENDER_FIELDS = new ConcurrentHashMap<>();

    private final NodeId self;
    private final NetworkFaults faults;
    /** Registered nodes by Raft peer id (the node id), and by the high half of their clients' ids. */
    private final Map<String, NodeId> byPeerId = new ConcurrentHashMap<>();
    private final Map<Long, NodeId> byClientKey = new ConcurrentHashMap<>();
    private final LongAdder delayed = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final AtomicLong shortestLag = new AtomicLong(Long.MAX_VALUE);

    RaftFaults(NodeId self, NetworkFaults faults) {
        this.self = self;
        this.faults = faults;
    }

    /** The hook's own configuration: the one {@code NetworkFaults} it reads. */
    NetworkFaults faults() {
        return faults;
    }

    /**
     * The client id a node's forwarding Raft clients use: the hash of its node id in the high half, so that a
     * server can tell which node sent a client request, and a number random per call, in the low half.
     */
    static ClientId clientId(NodeId node) {
        return ClientId.valueOf(new UUID(clientKey(node), RANDOM.nextLong()));
    }

    private static long clientKey(NodeId node) {
        return UUID.nameUUIDFromBytes(("hangar-raft-client:" + node.value()).getBytes(StandardCharsets.UTF_8))
                .getMostSignificantBits();
    }

    /** Makes {@code node}'s Raft traffic subject to the faults: a member of a group, or a node of a layout. */
    void register(NodeId node) {
        if (byPeerId.putIfAbsent(node.value(), node) == null) {
            byClientKey.put(clientKey(node), node);
        }
    }

    /** Installs the hook on every gRPC server Ratis builds for this node. */
    @Override
    public NettyServerBuilder customize(NettyServerBuilder builder, EnumSet<GrpcServices.Type> types) {
        return builder.intercept(this);
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        FaultyCall<Q, R> faulty = new FaultyCall<>(call);
        return faulty.listen(next.startCall(faulty, headers));
    }

    /** What the hook did so far, for tests: messages delivered late, messages lost, the shortest lateness. */
    record Stats(long delayed, long dropped, long shortestLagNanos) {}

    Stats stats() {
        long shortest = shortestLag.get();
        return new Stats(delayed.sum(), dropped.sum(), shortest == Long.MAX_VALUE ? 0 : shortest);
    }

    private void lagged(long nanos) {
        delayed.increment();
        shortestLag.accumulateAndGet(nanos, Math::min);
    }

    /**
     * The registered node other than this one that sent {@code message} (the first of a call); null if it names
     * none, or another.
     */
    @Nullable NodeId sender(Object message) {
        if (!(message instanceof Message proto)) {
            return null;
        }
        Optional<SenderField> field = SENDER_FIELDS.computeIfAbsent(proto.getDescriptorForType(), SenderField::of);
        if (field.isEmpty() || !proto.hasField(field.get().field())) {
            return null;
        }
        ByteString id = ((RaftRpcRequestProto) proto.getField(field.get().field())).getRequestorId();
        NodeId node;
        if (field.get().client()) {
            node = id.size() == 16 ? byClientKey.get(id.asReadOnlyByteBuffer().getLong()) : null;
        } else {
            node = byPeerId.get(id.toStringUtf8());
        }
        return self.equals(node) ? null : node;
    }

    /**
     * The field of a request type that carries its {@code RaftRpcRequestProto}: {@code serverRequest} (a peer id)
     * or {@code rpcRequest} (a client id).
     */
    private record SenderField(Descriptors.FieldDescriptor field, boolean client) {
        static Optional<SenderField> of(Descriptors.Descriptor type) {
            for (Descriptors.FieldDescriptor field : type.getFields()) {
                if (field.getJavaType() == Descriptors.FieldDescriptor.JavaType.MESSAGE && !field.isRepeated()
                        && field.getMessageType().getFullName().equals(
                                RaftRpcRequestProto.getDescriptor().getFullName())) {
                    return Optional.of(new SenderField(field, !field.getName().equals("serverRequest")));
                }
            }
            return Optional.empty();
        }
    }

    /**
     * One call through the hook: the server call the service answers on (outbound messages) and, through {@link
     * #listen}, the listener the transport delivers to (inbound ones).
     */
    private final class FaultyCall<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
        private final boolean unaryIn;
        private final boolean unaryOut;
        /** Messages the service asked for and has not received. */
        private final AtomicLong credits = new AtomicLong();
        private volatile @Nullable NodeId peer;
        private volatile @Nullable FaultLane in;
        private volatile @Nullable FaultLane out;
        private boolean inDropped;
        private boolean outDropped;

        FaultyCall(ServerCall<Q, R> call) {
            super(call);
            this.unaryIn = call.getMethodDescriptor().getType().clientSendsOneMessage();
            this.unaryOut = call.getMethodDescriptor().getType().serverSendsOneMessage();
        }

        // Outbound: the service's calls, which it makes one at a time.

        @Override
        public void request(int messages) {
            credits.addAndGet(messages);
            FaultLane lane = in;
            if (lane == null) {
                super.request(messages);
            } else {
                // The transport is kept reading by onMessage; the lane hands on what is now asked for.
                lane.kick();
            }
        }

        @Override
        public void sendHeaders(Metadata headers) {
            FaultLane lane = out;
            if (lane == null) {
                super.sendHeaders(headers);
            } else {
                lane.offer(0, () -> delegate().sendHeaders(headers), false, false);
            }
        }

        @Override
        public void sendMessage(R message) {
            FaultLane lane = outLane();
            if (lane == null) {
                super.sendMessage(message);
                return;
            }
            long delay = delay(self, peerOrThrow());
            if (delay < 0) {
                outDropped = true;
                return;
            }
            lane.offer(delay, () -> delegate().sendMessage(message), false, true);
        }

        @Override
        public void close(Status status, Metadata trailers) {
            FaultLane lane = outLane();
            if (lane == null) {
                super.close(status, trailers);
                return;
            }
            long delay = delay(self, peerOrThrow());
            if (delay < 0) {
                return;
            }
            if (unaryOut && outDropped) {
                dropped.increment();
                return;
            }
            lane.offer(delay, () -> delegate().close(status, trailers), false, true);
        }

        @Override
        public void setMessageCompression(boolean enabled) {
            FaultLane lane = out;
            if (lane == null) {
                super.setMessageCompression(enabled);
            } else {
                lane.offer(0, () -> delegate().setMessageCompression(enabled), false, false);
            }
        }

        private @Nullable FaultLane outLane() {
            FaultLane lane = out;
            if (lane == null && peer != null && faults.active()) {
                lane = new FaultLane(null, RaftFaults.this::lagged);
                out = lane;
            }
            return lane;
        }

        private NodeId peerOrThrow() {
            NodeId known = peer;
            if (known == null) {
                throw new IllegalStateException("a delayed call has no peer");
            }
            return known;
        }

        // Inbound: the transport's calls, serialised by gRPC.

        ServerCall.Listener<Q> listen(ServerCall.Listener<Q> service) {
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(service) {
                @Override
                public void onMessage(Q message) {
                    FaultLane lane = in;
                    if (lane == null) {
                        if (!faults.active() || identify(message) == null) {
                            credits.decrementAndGet();
                            super.onMessage(message);
                            return;
                        }
                        lane = new FaultLane(credits, RaftFaults.this::lagged);
                        in = lane;
                    }
                    // This message used one of the transport's credits; give it back, so that the transport
                    // keeps reading while the service waits for delayed messages.
                    FaultyCall.this.delegate().request(1);
                    long delay = delay(peerOrThrow(), self);
                    if (delay < 0) {
                        inDropped = true;
                        return;
                    }
                    lane.offer(delay, () -> delegate().onMessage(message), true, true);
                }

                @Override
                public void onHalfClose() {
                    FaultLane lane = in;
                    if (lane == null) {
                        super.onHalfClose();
                        return;
                    }
                    long delay = delay(peerOrThrow(), self);
                    if (delay < 0) {
                        return;
                    }
                    if (unaryIn && inDropped) {
                        dropped.increment();
                        return;
                    }
                    lane.offer(delay, () -> delegate().onHalfClose(), false, true);
                }

                @Override
                public void onReady() {
                    FaultLane lane = in;
                    if (lane == null) {
                        super.onReady();
                    } else {
                        lane.offer(0, () -> delegate().onReady(), false, false);
                    }
                }

                // The end of the call: what is still held will never be wanted.
                @Override
                public void onCancel() {
                    FaultLane lane = in;
                    if (lane == null) {
                        super.onCancel();
                    } else {
                        lane.end(() -> delegate().onCancel());
                    }
                    FaultLane sending = out;
                    if (sending != null) {
                        sending.discard();
                    }
                }

                @Override
                public void onComplete() {
                    FaultLane lane = in;
                    if (lane == null) {
                        super.onComplete();
                    } else {
                        lane.end(() -> delegate().onComplete());
                    }
                }
            };
        }

        private @Nullable NodeId identify(Object message) {
            NodeId known = peer;
            if (known == null) {
                known = sender(message);
                peer = known;
            }
            return known;
        }

        /** The delay of one message on a link, or -1 to drop it. */
        private long delay(NodeId from, NodeId to) {
            return switch (faults.verdict(from, to)) {
                case NetworkFaults.Verdict.Drop drop -> {
                    dropped.increment();
                    yield -1;
                }
                case NetworkFaults.Verdict.Deliver deliver -> deliver.delayNanos();
            };
        }
    }
}
