package dev.hangar.cluster.raft;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.hangar.cluster.rpc.ClusterSecret;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslProvider;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RaftTls} against real Ratis servers over gRPC on the loopback interface: a client with the
 * cluster's secret writes and reads; one with another secret, one presenting a certificate of its
 * own making to a server it trusts blindly, one presenting none, and a plaintext one all fail and
 * change nothing; three servers elect a leader and replicate over mutually authenticated channels,
 * and a server with another secret gets no entry and no vote. The trust manager's refusals are
 * checked one by one.
 */
class RaftTlsTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("raft-tls-test-cluster-secret-0123456789");
    private static final ClusterSecret OTHER = ClusterSecret.of("another-cluster-altogether-9876543210");
    private static final RaftGroupId GROUP = RaftGroupId.valueOf(UUID.fromString("6b1f0a52-3c0e-4d0b-9a41-1c2d3e4f5a6b"));
    /** Time enough on a loaded two-core machine for an election and a commit. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    // ---- Against a one-peer group ----

    @Test
    @Timeout(180)
    void clientWithTheSecretWritesAndReads() throws IOException {
        RaftGroup group = group(1);
        startServer(group, 0, RaftTls.create(SECRET));
        RaftClient client = client(group, RaftTls.create(SECRET).applyTo(new Parameters()), true);

        assertThat(increment(client)).isEqualTo(1);
        assertThat(increment(client)).isEqualTo(2);
        assertThat(read(client)).isEqualTo(2);
    }

    @Test
    @Timeout(180)
    void clientWithAnotherSecretGetsNowhere() throws IOException {
        RaftGroup group = group(1);
        Counter counter = startServer(group, 0, RaftTls.create(SECRET));
        RaftClient good = client(group, RaftTls.create(SECRET).applyTo(new Parameters()), true);
        assertThat(increment(good)).isEqualTo(1);

        RaftClient stranger = client(group, RaftTls.create(OTHER).applyTo(new Parameters()), false);
        // The stranger's own trust manager refuses the server before it presents anything.
        assertRefused(stranger, "not bound to this cluster's secret");

        assertThat(read(good)).isEqualTo(1);
        assertThat(counter.value()).isEqualTo(1);
    }

    /**
     * The server's own check: a client that accepts any server, and presents a certificate of its
     * own making (tagged under another secret), or none at all, is refused by the server.
     */
    @Test
    @Timeout(180)
    void serverRefusesAClientThatTrustsItButCannotProveTheSecret() throws IOException {
        RaftGroup group = group(1);
        Counter counter = startServer(group, 0, RaftTls.create(SECRET));
        RaftClient good = client(group, RaftTls.create(SECRET).applyTo(new Parameters()), true);
        assertThat(increment(good)).isEqualTo(1);

        KeyPair keys = RaftTls.newKeyPair();
        byte[] otherTag = SecretBoundTrustManager.tag(OTHER.deriveKey(RaftTls.PURPOSE), keys.getPublic());
        X509Certificate forged = RaftTls.selfSigned(keys, otherTag, Instant.now().minusSeconds(60),
                Instant.now().plusSeconds(3600));
        GrpcTlsConfig forgedCertificate = RaftTls.config(forged, keys.getPrivate(), new TrustAnyone());
        assertRefused(client(group, apply(forgedCertificate), false), "certificate_unknown");

        GrpcTlsConfig noCertificate = GrpcTlsConfig.newBuilder()
                .setTrustManager(new TrustAnyone())
                .setMutualTls(false)
                .setSslProvider(SslProvider.JDK)
                .setProtocols("TLSv1.3")
                .build();
        assertRefused(client(group, apply(noCertificate), false), "certificate_required");

        assertThat(read(good)).isEqualTo(1);
        assertThat(counter.value()).isEqualTo(1);
    }

    /** The same secret configured in two clusters: a node of the other one is refused as a stranger is. */
    @Test
    @Timeout(180)
    void aNodeOfAnotherClusterWithTheSameSecretGetsNowhere() throws IOException {
        RaftGroup group = group(1);
        Counter counter = startServer(group, 0, RaftTls.create(SECRET, () -> "cluster-a"));
        RaftClient good = client(group, RaftTls.create(SECRET, () -> "cluster-a").applyTo(new Parameters()), true);
        assertThat(increment(good)).isEqualTo(1);

        RaftClient neighbour = client(group, RaftTls.create(SECRET, () -> "cluster-b").applyTo(new Parameters()), false);
        assertRefused(neighbour, "two clusters configured with one secret");
        assertThat(read(good)).isEqualTo(1);
        assertThat(counter.value()).isEqualTo(1);

        // A node that has no id yet is no other cluster's, as the RPC handshake has it: it may join this one.
        RaftClient newcomer = client(group, RaftTls.create(SECRET).applyTo(new Parameters()), true);
        assertThat(increment(newcomer)).isEqualTo(2);
    }

    @Test
    @Timeout(180)
    void plaintextClientGetsNowhere() throws IOException {
        RaftGroup group = group(1);
        Counter counter = startServer(group, 0, RaftTls.create(SECRET));
        RaftClient good = client(group, RaftTls.create(SECRET).applyTo(new Parameters()), true);
        assertThat(increment(good)).isEqualTo(1);

        assertRefused(client(group, null, false), "UNAVAILABLE");

        assertThat(read(good)).isEqualTo(1);
        assertThat(counter.value()).isEqualTo(1);
    }

    @Test
    @Timeout(180)
    void theServerSpeaksTls13Only() throws Exception {
        RaftGroup group = group(1);
        startServer(group, 0, RaftTls.create(SECRET));
        RaftTls tls = RaftTls.create(SECRET);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {tls.config().getKeyManager().getKeyManager()},
                new TrustManager[] {tls.config().getTrustManager().getTrustManager()}, null);
        int port = port(group.getPeers().iterator().next());

        try (SSLSocket socket = handshakeWith(context, port, "TLSv1.3")) {
            assertThat(socket.getSession().getProtocol()).isEqualTo("TLSv1.3");
            assertThat(socket.getApplicationProtocol()).isEqualTo("h2");
        }
        assertThatThrownBy(() -> handshakeWith(context, port, "TLSv1.2").close()).isInstanceOf(SSLException.class);
    }

    // ---- Three peers ----

    @Test
    @Timeout(240)
    void threePeersElectALeaderAndReplicate() throws IOException {
        RaftGroup group = group(3);
        List<Counter> counters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            counters.add(startServer(group, i, RaftTls.create(SECRET)));
        }
        RaftClient client = client(group, RaftTls.create(SECRET).applyTo(new Parameters()), true);

        for (int i = 1; i <= 3; i++) {
            assertThat(increment(client)).isEqualTo(i);
        }
        await("every peer applies the three increments", () -> counters.stream().allMatch(c -> c.value() == 3));
        assertThat(read(client)).isEqualTo(3);
    }

    @Test
    @Timeout(240)
    void aPeerWithAnotherSecretGetsNoEntryAndNoVote() throws IOException {
        RaftGroup group = group(3);
        Counter a = startServer(group, 0, RaftTls.create(SECRET));
        Counter b = startServer(group, 1, RaftTls.create(SECRET));
        RaftServer strangerServer = server(group, 2, RaftTls.create(OTHER));
        Counter stranger = counter(strangerServer);
        RaftClient client = client(group, RaftTls.create(SECRET).applyTo(new Parameters()), true);

        assertThat(increment(client)).isEqualTo(1);
        assertThat(increment(client)).isEqualTo(2);
        await("both members apply the increments", () -> a.value() == 2 && b.value() == 2);

        // Heartbeats carry the commit index every few hundred milliseconds: a member would have it by now.
        sleep(Duration.ofSeconds(3));
        assertThat(stranger.value()).isZero();
        var division = strangerServer.getDivision(GROUP);
        assertThat(division.getInfo().isLeader()).isFalse();
        assertThat(division.getInfo().getLastAppliedIndex()).isLessThanOrEqualTo(0);
        assertThat(read(client)).isEqualTo(2);
    }

    /**
     * A server of another cluster configured with the same secret, placed in a group of cluster-a: the members of
     * cluster-a refuse its votes and appends, and it refuses theirs (refused both ways), so it gets no entry and no
     * vote and the two members carry on; each refusal is logged, with the two cluster ids.
     */
    @Test
    @Timeout(240)
    void aPeerOfAnotherClusterWithTheSameSecretGetsNoEntryAndNoVoteAndTheRefusalsAreLogged() throws IOException {
        List<LogRecord> refusals = new CopyOnWriteArrayList<>();
        Logger trustLog = Logger.getLogger(SecretBoundTrustManager.class.getName());
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    refusals.add(record);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        trustLog.addHandler(handler);
        try {
            RaftGroup group = group(3);
            Counter a = startServer(group, 0, RaftTls.create(SECRET, () -> "cluster-a"));
            Counter b = startServer(group, 1, RaftTls.create(SECRET, () -> "cluster-a"));
            RaftServer neighbourServer = server(group, 2, RaftTls.create(SECRET, () -> "cluster-b"));
            Counter neighbour = counter(neighbourServer);
            RaftClient client = client(group, RaftTls.create(SECRET, () -> "cluster-a").applyTo(new Parameters()), true);

            assertThat(increment(client)).isEqualTo(1);
            assertThat(increment(client)).isEqualTo(2);
            await("both members apply the increments", () -> a.value() == 2 && b.value() == 2);

            // Heartbeats carry the commit index every few hundred milliseconds: a member would have it by now.
            sleep(Duration.ofSeconds(3));
            assertThat(neighbour.value()).isZero();
            var division = neighbourServer.getDivision(GROUP);
            assertThat(division.getInfo().isLeader()).isFalse();
            assertThat(division.getInfo().getLastAppliedIndex()).isLessThanOrEqualTo(0);
            assertThat(read(client)).isEqualTo(2);

            // Both ways: cluster-a's members refused the neighbour, and the neighbour refused them.
            await("refusals logged both ways", () -> {
                List<String> messages = refusals.stream().map(LogRecord::getMessage).toList();
                return messages.stream().anyMatch(m -> m.contains("belongs to cluster cluster-b, this node to cluster cluster-a"))
                        && messages.stream().anyMatch(m -> m.contains("belongs to cluster cluster-a, this node to cluster cluster-b"));
            });
            assertThat(refusals).allSatisfy(r -> assertThat(r.getMessage()).startsWith("refused the Raft "));
        } finally {
            trustLog.removeHandler(handler);
        }
    }

    // ---- The trust manager alone ----

    @Test
    @Timeout(60)
    void trustManagerAcceptsACertificateOfTheSameSecret() throws CertificateException {
        SecretBoundTrustManager trust = trustManager(SECRET);
        X509Certificate certificate = RaftTls.create(SECRET).certificate();

        trust.checkClientTrusted(new X509Certificate[] {certificate}, "EC");
        trust.checkServerTrusted(new X509Certificate[] {certificate}, "EC");
        trust.checkServerTrusted(new X509Certificate[] {certificate}, "EC", (SSLEngine) null);
        assertThat(trust.getAcceptedIssuers()).isEmpty();
    }

    @Test
    @Timeout(60)
    void trustManagerRefusesACertificateTaggedWithAnotherSecret() {
        X509Certificate certificate = RaftTls.create(OTHER).certificate();

        assertThatThrownBy(() -> trustManager(SECRET).checkClientTrusted(new X509Certificate[] {certificate}, "EC"))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("not bound to this cluster's secret");
        assertThatThrownBy(() -> trustManager(SECRET).checkServerTrusted(new X509Certificate[] {certificate}, "EC"))
                .isInstanceOf(CertificateException.class);
    }

    @Test
    @Timeout(60)
    void certificatesAreBoundToTheClusterIdOnceTheNodeLearnsIt() throws CertificateException {
        java.util.concurrent.atomic.AtomicReference<String> id = new java.util.concurrent.atomic.AtomicReference<>("");
        RaftTls tls = RaftTls.create(SECRET, id::get);
        X509Certificate before = tls.certificate();
        trustManager(SECRET).checkClientTrusted(new X509Certificate[] {before}, "EC");

        id.set("cluster-a");
        X509Certificate after = tls.certificate();
        assertThat(after).isNotEqualTo(before);
        assertThat(tls.certificate()).as("made once for the id").isSameAs(after);
        SecretBoundTrustManager clusterA = new SecretBoundTrustManager(SECRET.deriveKey(RaftTls.PURPOSE),
                () -> "cluster-a", Clock.systemUTC());
        clusterA.checkClientTrusted(new X509Certificate[] {after}, "EC");
        // Made before the node had an id, it claims none: accepted as the RPC accepts a node that has not joined.
        clusterA.checkClientTrusted(new X509Certificate[] {before}, "EC");
        SecretBoundTrustManager clusterB = new SecretBoundTrustManager(SECRET.deriveKey(RaftTls.PURPOSE),
                () -> "cluster-b", Clock.systemUTC());
        assertThatThrownBy(() -> clusterB.checkServerTrusted(new X509Certificate[] {after}, "EC"))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("belongs to cluster cluster-a, this node to cluster cluster-b");
        // The claim is covered by the tag: the same key and tag claiming cluster-b are refused.
        KeyPair relabelledKeys = RaftTls.newKeyPair();
        byte[] tagForA = SecretBoundTrustManager.tag(SECRET.deriveKey(RaftTls.PURPOSE), relabelledKeys.getPublic(), "cluster-a");
        X509Certificate relabelled = RaftTls.selfSigned(relabelledKeys, tagForA, "cluster-b", Instant.now().minusSeconds(60),
                Instant.now().plusSeconds(3600));
        assertThatThrownBy(() -> clusterB.checkServerTrusted(new X509Certificate[] {relabelled}, "EC"))
                .isInstanceOf(CertificateException.class).hasMessageContaining("not bound to this cluster's secret");

        // A handshake reads the chain and the key by the alias it chose: both of one certificate.
        javax.net.ssl.X509KeyManager keys = (javax.net.ssl.X509KeyManager) tls.config().getKeyManager().getKeyManager();
        String alias = keys.chooseServerAlias("EC", null, null);
        assertThat(keys.getCertificateChain(alias)).containsExactly(after);
        assertThat(keys.getPrivateKey(alias)).isNotNull();
    }

    @Test
    @Timeout(60)
    void trustManagerRefusesATamperedTag() {
        KeyPair keys = RaftTls.newKeyPair();
        byte[] tag = SecretBoundTrustManager.tag(SECRET.deriveKey(RaftTls.PURPOSE), keys.getPublic());
        tag[7] ^= 0x01;
        // Properly self-signed: what anyone without the secret can make.
        X509Certificate certificate = RaftTls.selfSigned(keys, tag, Instant.now().minusSeconds(60),
                Instant.now().plusSeconds(3600));

        assertThatThrownBy(() -> trustManager(SECRET).checkClientTrusted(new X509Certificate[] {certificate}, "EC"))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("not bound to this cluster's secret");
    }

    @Test
    @Timeout(60)
    void trustManagerRefusesAChainOfTwo() {
        X509Certificate first = RaftTls.create(SECRET).certificate();
        X509Certificate second = RaftTls.create(SECRET).certificate();

        assertThatThrownBy(() -> trustManager(SECRET).checkClientTrusted(new X509Certificate[] {first, second}, "EC"))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("exactly one");
    }

    @Test
    @Timeout(60)
    void trustManagerRefusesAnExpiredOrNotYetValidCertificate() {
        Instant now = Instant.now();
        X509Certificate expired = bound(SECRET, now.minus(Duration.ofDays(2)), now.minus(Duration.ofDays(1)));
        X509Certificate early = bound(SECRET, now.plus(Duration.ofDays(1)), now.plus(Duration.ofDays(2)));

        assertThatThrownBy(() -> trustManager(SECRET).checkClientTrusted(new X509Certificate[] {expired}, "EC"))
                .isInstanceOf(CertificateExpiredException.class);
        assertThatThrownBy(() -> trustManager(SECRET).checkServerTrusted(new X509Certificate[] {early}, "EC"))
                .isInstanceOf(CertificateNotYetValidException.class);

        // A node's own certificate expires too, reckoned on the trust manager's clock.
        X509Certificate current = RaftTls.create(SECRET).certificate();
        Clock later = Clock.fixed(now.plus(RaftTls.VALIDITY).plus(Duration.ofDays(1)), ZoneOffset.UTC);
        assertThatThrownBy(() -> new SecretBoundTrustManager(SECRET.deriveKey(RaftTls.PURPOSE), later)
                .checkClientTrusted(new X509Certificate[] {current}, "EC"))
                .isInstanceOf(CertificateExpiredException.class);
    }

    @Test
    @Timeout(60)
    void trustManagerRefusesACertificateNotSignedByItsOwnKey() {
        KeyPair keys = RaftTls.newKeyPair();
        KeyPair signer = RaftTls.newKeyPair();
        byte[] tag = SecretBoundTrustManager.tag(SECRET.deriveKey(RaftTls.PURPOSE), keys.getPublic());
        X509Certificate certificate = RaftTls.selfSigned(new KeyPair(keys.getPublic(), signer.getPrivate()), tag,
                Instant.now().minusSeconds(60), Instant.now().plusSeconds(3600));

        assertThatThrownBy(() -> trustManager(SECRET).checkClientTrusted(new X509Certificate[] {certificate}, "EC"))
                .isInstanceOf(CertificateException.class)
                .hasMessageContaining("not signed by its own key");
    }

    @Test
    @Timeout(60)
    void nothingShowsTheDerivedKey() {
        String key = HexFormat.of().formatHex(SECRET.deriveKey(RaftTls.PURPOSE));
        RaftTls tls = RaftTls.create(SECRET);

        assertThat(tls.toString()).doesNotContainIgnoringCase(key).contains("redacted");
        assertThat(tls.config().toString()).doesNotContainIgnoringCase(key);
        assertThat(trustManager(SECRET).toString()).doesNotContainIgnoringCase(key);
        assertThat(tls.config().getKeyManager().getKeyManager().toString()).contains("redacted");
        assertThatThrownBy(() -> trustManager(SECRET).checkClientTrusted(
                new X509Certificate[] {RaftTls.create(OTHER).certificate()}, "EC"))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContainIgnoringCase(key));
    }

    // ---- Helpers ----

    private static SecretBoundTrustManager trustManager(ClusterSecret secret) {
        return new SecretBoundTrustManager(secret.deriveKey(RaftTls.PURPOSE), Clock.systemUTC());
    }

    /** A certificate correctly bound to {@code secret}, valid from {@code notBefore} to {@code notAfter}. */
    private static X509Certificate bound(ClusterSecret secret, Instant notBefore, Instant notAfter) {
        KeyPair keys = RaftTls.newKeyPair();
        byte[] tag = SecretBoundTrustManager.tag(secret.deriveKey(RaftTls.PURPOSE), keys.getPublic());
        return RaftTls.selfSigned(keys, tag, notBefore, notAfter);
    }

    private static Parameters apply(GrpcTlsConfig config) {
        Parameters parameters = new Parameters();
        GrpcConfigKeys.TLS.setConf(parameters, config);
        GrpcConfigKeys.Client.setTlsConf(parameters, config);
        GrpcConfigKeys.Admin.setTlsConf(parameters, config);
        return parameters;
    }

    /** {@code size} peers on free loopback ports. */
    private static RaftGroup group(int size) throws IOException {
        List<RaftPeer> peers = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            peers.add(RaftPeer.newBuilder().setId("n" + i).setAddress("127.0.0.1:" + freePort()).build());
        }
        return RaftGroup.valueOf(GROUP, peers);
    }

    private static int port(RaftPeer peer) {
        String address = peer.getAddress();
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    /** A plain JDK TLS client of the server on {@code port}, offering only {@code protocol} (and gRPC's ALPN name). */
    private static SSLSocket handshakeWith(SSLContext context, int port, String protocol) throws IOException {
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port);
        try {
            socket.setSoTimeout((int) PATIENCE.toMillis());
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setProtocols(new String[] {protocol});
            parameters.setApplicationProtocols(new String[] {"h2"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private Counter startServer(RaftGroup group, int index, RaftTls tls) throws IOException {
        return counter(server(group, index, tls));
    }

    /** Starts the server of {@code group}'s peer {@code index}, with {@code tls} on all its channels. */
    private RaftServer server(RaftGroup group, int index, RaftTls tls) throws IOException {
        RaftPeer peer = group.getPeers().stream().toList().get(index);
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        GrpcConfigKeys.Server.setHost(properties, "127.0.0.1");
        GrpcConfigKeys.Server.setPort(properties, port(peer));
        RaftServerConfigKeys.setStorageDir(properties, List.of(dir.resolve(peer.getId().toString()).toFile()));
        // Slow elections, so that a loaded machine does not split votes over and over.
        RaftServerConfigKeys.Rpc.setTimeoutMin(properties, TimeDuration.valueOf(1, TimeUnit.SECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(properties, TimeDuration.valueOf(2, TimeUnit.SECONDS));
        RaftServer server = RaftServer.newBuilder()
                .setServerId(peer.getId())
                .setGroup(group)
                .setProperties(properties)
                .setParameters(tls.applyTo(new Parameters()))
                .setStateMachine(new Counter())
                .setOption(RaftStorage.StartupOption.FORMAT)
                .build();
        opened.add(server);
        server.start();
        return server;
    }

    private static Counter counter(RaftServer server) throws IOException {
        return (Counter) server.getDivision(GROUP).getStateMachine();
    }

    /**
     * A client of {@code group} over gRPC with {@code parameters}' TLS (none if null): a {@code patient} one
     * waits out an election; another gives up after three quick tries.
     */
    private RaftClient client(RaftGroup group, Parameters parameters, boolean patient) {
        RaftProperties properties = new RaftProperties();
        RaftConfigKeys.Rpc.setType(properties, SupportedRpcType.GRPC);
        RaftClientConfigKeys.Rpc.setRequestTimeout(properties, TimeDuration.valueOf(5, TimeUnit.SECONDS));
        RaftClient.Builder builder = RaftClient.newBuilder()
                .setProperties(properties)
                .setRaftGroup(group)
                .setRetryPolicy(patient
                        ? RetryPolicies.retryUpToMaximumCountWithFixedSleep(300, TimeDuration.valueOf(200, MILLISECONDS))
                        : RetryPolicies.retryUpToMaximumCountWithFixedSleep(3, TimeDuration.valueOf(100, MILLISECONDS)));
        if (parameters != null) {
            builder.setParameters(parameters);
        }
        RaftClient client = builder.build();
        opened.add(client);
        return client;
    }

    private static long increment(RaftClient client) throws IOException {
        RaftClientReply reply = client.io().send(Message.valueOf(Counter.INCREMENT));
        assertThat(reply.isSuccess()).isTrue();
        return Long.parseLong(reply.getMessage().getContent().toStringUtf8());
    }

    private static long read(RaftClient client) throws IOException {
        RaftClientReply reply = client.io().sendReadOnly(Message.valueOf("get"));
        assertThat(reply.isSuccess()).isTrue();
        return Long.parseLong(reply.getMessage().getContent().toStringUtf8());
    }

    /**
     * Neither a write nor a read gets through, and both fail soon (no server answers; the retries run out);
     * the write's failure has a cause that says {@code why}.
     */
    private static void assertRefused(RaftClient client, String why) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> increment(client)).isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(causes(e)).anyMatch(t -> String.valueOf(t.getMessage()).contains(why)));
        assertThatThrownBy(() -> read(client)).isInstanceOf(IOException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PATIENCE);
    }

    private static List<Throwable> causes(Throwable e) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable t = e; t != null && !causes.contains(t); t = t.getCause()) {
            causes.add(t);
        }
        return causes;
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what);
            }
            sleep(Duration.ofMillis(50));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A counter: {@value #INCREMENT} adds one and answers the new value; any query answers the value. */
    static final class Counter extends BaseStateMachine {
        static final String INCREMENT = "increment";

        private final AtomicLong value = new AtomicLong();

        long value() {
            return value.get();
        }

        @Override
        public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
            LogEntryProto entry = transaction.getLogEntry();
            String command = entry.getStateMachineLogEntry().getLogData().toStringUtf8();
            long result = INCREMENT.equals(command) ? value.incrementAndGet() : value.get();
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            return CompletableFuture.completedFuture(Message.valueOf(Long.toString(result)));
        }

        @Override
        public CompletableFuture<Message> query(Message request) {
            return CompletableFuture.completedFuture(Message.valueOf(Long.toString(value.get())));
        }
    }

    /** What an attacker's client does: accept whatever server answers. */
    private static final class TrustAnyone extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
