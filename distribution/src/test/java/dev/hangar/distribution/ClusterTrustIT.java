package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutCodec;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.membership.GossipMessage;
import dev.hangar.cluster.membership.LayoutDigest;
import dev.hangar.cluster.membership.PeerInfo;
import dev.hangar.cluster.rpc.RpcServer;
import dev.hangar.distribution.ServerCluster.Member;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Issue 12's attack against a real 3-node cluster (three servers on loopback, as {@link
 * ClusterReplicationIT} starts them): a process that can reach one node's RPC port but does not know
 * the cluster secret speaks the wire format by hand — a hello naming a node id, a ping announcing a
 * layout of a much higher version with every partition on a node it plays, unsolicited "I hold that
 * chunk" answers, deletes of real chunk ids — and also plays that node, ready to answer the layout
 * fetch and chunk-existence checks the real nodes used to send it. Every connection is closed
 * unanswered, nobody ever calls the fake node, and every object still reads back intact, byte for
 * byte, through every node.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@DisabledIfSystemProperty(named = SuiteCluster.NODES_PROPERTY, matches = ".+",
        disabledReason = "starts a cluster of its own; the cluster executions run the S3 suite")
class ClusterTrustIT {
    private static final String ACCESS_KEY = "HANGARTRUSTITKEY0001";
    private static final String SECRET_KEY = "hangar-trust-it-secret-0123456789abcdef";
    private static final int HELLO = 0;
    private static final int REQUEST = 1;
    private static final int RESPONSE = 2;
    private static final int ERROR = 3;
    private static final int PROOF = 5;

    @TempDir
    Path dir;

    @Test
    void anAttackerOnTheRpcPortChangesNothingAndEveryObjectReadsBackEverywhere() throws Exception {
        List<Member> members = List.of(Member.storage("n1", "zone-a"), Member.storage("n2", "zone-b"),
                Member.storage("n3", "zone-c"));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members);
                FakeNode evil = FakeNode.start();
                Warnings warnings = Warnings.of(RpcServer.class)) {
            ClusterLayout before = cluster.layout();
            Map<String, String> written = writeObjects(cluster);
            List<BlockId> chunks = new ArrayList<>();
            cluster.node("n2").replicas().orElseThrow().localBlocks().forEachBlock(block -> chunks.add(block.id()));
            assertThat(chunks).as("chunked objects stored chunks").isNotEmpty();

            // All partitions on "evil", a thousand versions ahead: what a node used to adopt on sight.
            ClusterLayout forged = new ClusterLayout(before.version() + 1000, before.partitions(), 1,
                    List.of(new NodeRole(new NodeId("evil"), "zone-evil", 1)),
                    Collections.nCopies(before.partitions(), List.of(new NodeId("evil"))));
            evil.serve(forged);
            InetSocketAddress target = cluster.control("n1").address();
            // First as the protocol was (a hello that only names the node), then with a made-up proof.
            for (boolean guessProof : List.of(false, true)) {
                try (Attacker attacker = new Attacker(target)) {
                    attacker.frame(HELLO, 0, "evil", guessProof ? helloPayload() : new byte[0]);
                    if (guessProof) {
                        attacker.frame(PROOF, 0, "", new byte[32]);
                    }
                    GossipMessage announcement = new GossipMessage(
                            new PeerInfo(new NodeId("evil"), "zone-evil", 1, evil.address()), "",
                            LayoutDigest.of(forged), List.of());
                    attacker.frame(REQUEST, 1, "membership.ping", announcement.encode());
                    attacker.frame(REQUEST, 2, "membership.layout", new byte[0]);
                    long id = 3;
                    for (BlockId chunk : chunks) {
                        byte[] raw = HexFormat.of().parseHex(chunk.value());
                        attacker.frame(RESPONSE, id, "", new byte[] {0}); // "found", unasked
                        attacker.frame(REQUEST, id++, "blocks.delete", raw);
                        attacker.frame(REQUEST, id++, "blocks.get",
                                ByteBuffer.allocate(33).put(raw).putLong(0).putLong(1).put((byte) 0).array());
                    }
                    List<Integer> answered = attacker.kindsUntilClosed();
                    assertThat(answered).as("frame kinds the node sent back").doesNotContain(RESPONSE, ERROR);
                }
            }
            ServerCluster.await(() -> warnings.count("refused RPC connection from /127.0.0.1") >= 2,
                    "n1 warns of both attempts");
            assertThat(warnings.messages()).noneMatch(w -> w.contains(ServerCluster.SECRET));

            // Had anything been taken in, the nodes would adopt the layout and call "evil" within a
            // ping or two (200 ms); give them ten times that before looking.
            Thread.sleep(2_000);
            for (DedicatedServer server : cluster.servers()) {
                ClusterNode node = server.node();
                assertThat(node.control().orElseThrow().layout()).isEqualTo(before);
                assertThat(node.control().orElseThrow().statuses()).doesNotContainKey(new NodeId("evil"));
                assertThat(node.replicas().orElseThrow().blocks().resyncQueue().pendingReleases()).isEmpty();
            }
            assertThat(evil.connections()).as("connections to the fake node").isZero();
            for (String id : List.of("n1", "n2", "n3")) {
                for (Map.Entry<String, String> object : written.entrySet()) {
                    byte[] data = cluster.server(id).s3()
                            .getObjectAsBytes(g -> g.bucket("trust").key(object.getKey())).asByteArray();
                    assertThat(sha256(data)).as("%s through %s", object.getKey(), id).isEqualTo(object.getValue());
                }
            }
        }
    }

    @Test
    void aClusterNodeRefusesToStartWithoutTheSecret() {
        assertThatThrownBy(() -> DedicatedServer.start(dir.resolve("no-secret"), "storage.sync=none",
                "cluster.enabled=true", "cluster.rpc-port=0").close())
                .rootCause().hasMessageContaining("HANGAR_CLUSTER_SECRET").hasMessageContaining("hangar.cluster.secret");
        assertThatThrownBy(() -> DedicatedServer.start(dir.resolve("short-secret"), "storage.sync=none",
                "cluster.enabled=true", "cluster.rpc-port=0", "cluster.secret=tiny-secret").close())
                .rootCause().hasMessageContaining("at least 16 characters").message().doesNotContain("tiny-secret");
    }

    private static Map<String, String> writeObjects(ServerCluster cluster) {
        cluster.server("n1").s3().createBucket(b -> b.bucket("trust"));
        Map<String, String> written = new LinkedHashMap<>();
        List<String> ids = List.of("n1", "n2", "n3");
        for (int i = 0; i < 12; i++) {
            // Small ones inline in metadata, large ones of three chunks (two full 1 MiB chunks and a tail).
            int size = i % 2 == 0 ? 200 : 2 * 1024 * 1024 + 300_000;
            byte[] data = new byte[size];
            new Random(i).nextBytes(data);
            String key = "object-" + i;
            cluster.server(ids.get(i % 3)).s3().putObject(p -> p.bucket("trust").key(key), RequestBody.fromBytes(data));
            written.put(key, sha256(data));
        }
        return written;
    }

    /** A well-formed hello payload of the current protocol: version, nonce, no cluster id. */
    private static byte[] helloPayload() {
        byte[] nonce = new byte[32];
        new SecureRandom().nextBytes(nonce);
        return ByteBuffer.allocate(34).put((byte) 1).put(nonce).put((byte) 0).array();
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The attacker's connection: frames written by hand (length, kind, request id, method, payload). */
    private static final class Attacker implements AutoCloseable {
        private final Socket socket = new Socket();
        private final DataOutputStream out;
        private final DataInputStream in;

        Attacker(InetSocketAddress target) throws IOException {
            socket.connect(target, 5_000);
            socket.setSoTimeout(30_000);
            out = new DataOutputStream(socket.getOutputStream());
            in = new DataInputStream(socket.getInputStream());
        }

        void frame(int kind, long requestId, String method, byte[] payload) {
            try {
                out.write(encode(kind, requestId, method, payload));
                out.flush();
            } catch (SocketException refused) {
                // the node closed the connection already; the attacker keeps trying anyway
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The kind of every frame the node sends until it closes the connection. */
        List<Integer> kindsUntilClosed() throws IOException {
            List<Integer> kinds = new ArrayList<>();
            try {
                while (true) {
                    byte[] frame = new byte[in.readInt()];
                    in.readFully(frame);
                    kinds.add((int) frame[0]);
                }
            } catch (EOFException | SocketException closed) {
                return kinds;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static byte[] encode(int kind, long requestId, String method, byte[] payload) {
        byte[] name = method.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream frame = new DataOutputStream(bytes)) {
            frame.writeInt(1 + 8 + 2 + name.length + payload.length);
            frame.writeByte(kind);
            frame.writeLong(requestId);
            frame.writeShort(name.length);
            frame.write(name);
            frame.write(payload);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * The node the attacker plays: it answers every request as the attack needs — the forged layout
     * to a layout fetch, "found" to a chunk-existence check — and counts who connects at all.
     */
    private static final class FakeNode implements AutoCloseable {
        private final ServerSocket listener;
        private final AtomicInteger connections = new AtomicInteger();
        private volatile byte[] layout = new byte[0];

        private FakeNode(ServerSocket listener) {
            this.listener = listener;
        }

        static FakeNode start() throws IOException {
            FakeNode node = new FakeNode(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
            Thread.ofVirtual().start(node::accept);
            return node;
        }

        void serve(ClusterLayout forged) {
            layout = LayoutCodec.encode(forged);
        }

        InetSocketAddress address() {
            return InetSocketAddress.createUnresolved("127.0.0.1", listener.getLocalPort());
        }

        int connections() {
            return connections.get();
        }

        private void accept() {
            while (!listener.isClosed()) {
                try {
                    Socket socket = listener.accept();
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> answer(socket));
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void answer(Socket socket) {
            try (socket) {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                while (true) {
                    byte[] frame = new byte[in.readInt()];
                    in.readFully(frame);
                    ByteBuffer header = ByteBuffer.wrap(frame);
                    int kind = header.get();
                    long requestId = header.getLong();
                    byte[] method = new byte[header.getShort() & 0xffff];
                    header.get(method);
                    if (kind == REQUEST) {
                        byte[] answer = new String(method, StandardCharsets.UTF_8).equals("membership.layout")
                                ? layout : new byte[] {0};
                        out.write(encode(RESPONSE, requestId, "", answer));
                        out.flush();
                    }
                }
            } catch (IOException done) {
                // the caller hung up
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }

    /** The warnings one java.util.logging logger gives while open. */
    private static final class Warnings extends Handler implements AutoCloseable {
        private final Logger logger;
        private final List<String> messages = new CopyOnWriteArrayList<>();

        private Warnings(Logger logger) {
            this.logger = logger;
        }

        static Warnings of(Class<?> type) {
            Warnings warnings = new Warnings(Logger.getLogger(type.getName()));
            warnings.logger.addHandler(warnings);
            return warnings;
        }

        List<String> messages() {
            return List.copyOf(messages);
        }

        long count(String prefix) {
            return messages.stream().filter(m -> m.startsWith(prefix)).count();
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                messages.add(record.getMessage());
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }
}
