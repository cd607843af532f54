package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload of a {@code membership.ping} and of its answer: the sender, its cluster id ("" before
 * it has one), its layout digest, and the peers it knows.
 *
 * <p>Format 2, big-endian: format byte, sender, cluster id (UTF), layout version (long), layout hash
 * (long), peer count (int), peers; each node as id (UTF), zone (UTF), capacity (long), host (UTF),
 * port (unsigned short). Hosts travel as text, so a name that only resolves on the receiving side
 * still works. (Format 1 had no cluster id; nodes of that format cannot pass the RPC handshake
 * anyway.)
 */
public record GossipMessage(PeerInfo sender, String clusterId, LayoutDigest layout, List<PeerInfo> peers) {
    public static final byte FORMAT = 2;

    /** More peers than any cluster this design serves; guards against a corrupt count. */
    private static final int MAX_PEERS = 1 << 16;

    public GossipMessage {
        peers = List.copyOf(peers);
    }

    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            write(out, sender);
            out.writeUTF(clusterId);
            out.writeLong(layout.version());
            out.writeLong(layout.hash());
            out.writeInt(peers.size());
            for (PeerInfo peer : peers) {
                write(out, peer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /** Decodes a message; {@link IllegalArgumentException} if the bytes are not one. */
    public static GossipMessage decode(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            int format = in.readUnsignedByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("unknown gossip format " + format + ", this node reads " + FORMAT);
            }
            PeerInfo sender = read(in);
            String clusterId = in.readUTF();
            LayoutDigest layout = new LayoutDigest(in.readLong(), in.readLong());
            int count = in.readInt();
            if (count < 0 || count > MAX_PEERS) {
                throw new IllegalArgumentException("corrupt gossip peer count " + count);
            }
            List<PeerInfo> peers = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                peers.add(read(in));
            }
            if (in.read() != -1) {
                throw new IllegalArgumentException("trailing bytes after gossip message");
            }
            return new GossipMessage(sender, clusterId, layout, peers);
        } catch (EOFException e) {
            throw new IllegalArgumentException("truncated gossip message", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(DataOutputStream out, PeerInfo peer) throws IOException {
        out.writeUTF(peer.id().value());
        out.writeUTF(peer.zone());
        out.writeLong(peer.capacity());
        out.writeUTF(peer.address().getHostString());
        out.writeShort(peer.address().getPort());
    }

    private static PeerInfo read(DataInputStream in) throws IOException {
        NodeId id = new NodeId(in.readUTF());
        String zone = in.readUTF();
        long capacity = in.readLong();
        String host = in.readUTF();
        int port = in.readUnsignedShort();
        // Unresolved: the receiver resolves when it connects, and a name may resolve differently there.
        return new PeerInfo(id, zone, capacity, InetSocketAddress.createUnresolved(host, port));
    }
}
