package dev.hangar.cluster.rpc;

import dev.hangar.cluster.layout.NodeId;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tests' attacker: an RPC client written by hand on a blocking socket, frame by frame, that
 * says whatever a test makes it say, in or out of turn. It shares no code with {@link RpcClient}
 * beyond {@link Handshake}'s MAC, which a test uses only to show what a client with the right secret
 * (but, say, another cluster id) can do.
 */
public final class WireClient implements AutoCloseable {
    public static final int HELLO = RpcFrame.Kind.HELLO.ordinal();
    public static final int REQUEST = RpcFrame.Kind.REQUEST.ordinal();
    public static final int RESPONSE = RpcFrame.Kind.RESPONSE.ordinal();
    public static final int ERROR = RpcFrame.Kind.ERROR.ordinal();
    public static final int CHALLENGE = RpcFrame.Kind.CHALLENGE.ordinal();
    public static final int PROOF = RpcFrame.Kind.PROOF.ordinal();

    /** One frame as read from the wire. */
    public record Frame(int kind, long requestId, String method, byte[] payload) {}

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private byte[] nonce = new byte[0];
    private String nodeId = "";
    private String clusterId = "";

    /** Connects to {@code address}; reads give up after 15 s. */
    public WireClient(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 5_000);
        socket.setSoTimeout(15_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    /** Writes one frame; false if the server has closed the connection already. */
    public boolean send(int kind, long requestId, String method, byte[] payload) {
        byte[] name = method.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        try (DataOutputStream body = new DataOutputStream(frame)) {
            body.writeInt(RpcFrame.FIXED_HEADER_BYTES + name.length + payload.length);
            body.writeByte(kind);
            body.writeLong(requestId);
            body.writeShort(name.length);
            body.write(name);
            body.write(payload);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sendRaw(frame.toByteArray());
    }

    /** Writes bytes as they are; false if the server has closed the connection already. */
    public boolean sendRaw(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (SocketException e) {
            return false; // reset by the server: it refused us
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a request; false if the connection is closed already. */
    public boolean request(long requestId, String method, byte[] payload) {
        return send(REQUEST, requestId, method, payload);
    }

    /** The next frame, or empty once the server closed the connection. */
    public Optional<Frame> read() throws IOException {
        try {
            int length = in.readInt();
            int kind = in.readUnsignedByte();
            long requestId = in.readLong();
            byte[] method = new byte[in.readUnsignedShort()];
            in.readFully(method);
            byte[] payload = new byte[length - RpcFrame.FIXED_HEADER_BYTES - method.length];
            in.readFully(payload);
            return Optional.of(new Frame(kind, requestId, new String(method, StandardCharsets.UTF_8), payload));
        } catch (EOFException | SocketException closed) {
            return Optional.empty();
        }
    }

    /** Every frame the server still sends until it closes the connection (fails if it does not within 15 s). */
    public List<Frame> readUntilClosed() throws IOException {
        List<Frame> frames = new ArrayList<>();
        for (Optional<Frame> frame = read(); frame.isPresent(); frame = read()) {
            frames.add(frame.get());
        }
        return frames;
    }

    /** Sends a hello as node {@code id} of cluster {@code cluster} ("" for none), with a fresh nonce. */
    public boolean hello(String id, String cluster) {
        nodeId = id;
        clusterId = cluster;
        nonce = Handshake.nonce();
        RpcFrame hello = Handshake.hello(new NodeId(id), nonce, cluster);
        return send(HELLO, 0, hello.method(), hello.payload());
    }

    /** The client proof for the hello sent and {@code challenge}, computed with {@code secret}. */
    public byte[] proof(ClusterSecret secret, Frame challenge) {
        Handshake.Challenge read = Handshake.readChallenge(
                new RpcFrame(RpcFrame.Kind.CHALLENGE, 0, challenge.method(), challenge.payload()));
        Handshake.Transcript transcript =
                new Handshake.Transcript(new Handshake.Hello(new NodeId(nodeId), nonce, clusterId), read);
        return Handshake.proof(secret, Handshake.Role.CLIENT, transcript).payload();
    }

    /** Hello, challenge and a proof made with {@code secret}: what a client that holds the secret does. */
    public Optional<Frame> authenticate(ClusterSecret secret, String id, String cluster) throws IOException {
        hello(id, cluster);
        Optional<Frame> challenge = read();
        if (challenge.isEmpty() || challenge.get().kind() != CHALLENGE) {
            return Optional.empty();
        }
        send(PROOF, 0, "", proof(secret, challenge.get()));
        return read();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
