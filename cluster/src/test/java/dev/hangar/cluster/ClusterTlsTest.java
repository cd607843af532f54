package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.ClusterSettings;
import dev.hangar.cluster.membership.Consistency;
import dev.hangar.cluster.membership.LayoutManager;
import dev.hangar.cluster.membership.MembershipTiming;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.LogCapture;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcConfig;
import dev.hangar.cluster.rpc.RpcException;
import dev.hangar.cluster.rpc.RpcPeer;
import dev.hangar.cluster.rpc.RpcSecurity;
import dev.hangar.cluster.rpc.RpcServer;
import dev.hangar.cluster.rpc.RpcTls;
import dev.hangar.cluster.rpc.TestCertificates;
import dev.hangar.cluster.rpc.WireClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the RPC port, end to end: two control planes with certificates signed by one CA (made at
 * test time with keytool) form a cluster over TLS; a client that knows the secret but presents a
 * certificate of its own making, or none, or speaks plain TCP, gets nowhere.
 */
@Timeout(120)
class ClusterTlsTest {
    private static final MembershipTiming FAST = new MembershipTiming(Duration.ofMillis(100), 3, 8);
    private static final ClusterSecret SECRET = ClusterSecret.of("tls-test-cluster-secret-0123456789");

    @TempDir
    static Path certificatesDir;

    private static TestCertificates certificates;
    private static RpcTls nodeA;
    private static RpcTls nodeB;

    @TempDir
    Path dir;

    private final List<ClusterControl> controls = new ArrayList<>();

    @BeforeAll
    static void makeCertificates() {
        certificates = TestCertificates.create(certificatesDir);
        TestCertificates.Identity a = certificates.signed("node-a");
        TestCertificates.Identity b = certificates.signed("node-b");
        nodeA = new RpcTls(a.certificate(), a.privateKey(), certificates.ca());
        nodeB = new RpcTls(b.certificate(), b.privateKey(), certificates.ca());
    }

    @AfterEach
    void close() {
        controls.forEach(ClusterControl::close);
    }

    private ClusterControl start(String id, RpcTls tls, List<InetSocketAddress> seeds) {
        ClusterSettings settings = new ClusterSettings(id, "zone-" + id, 1, "127.0.0.1", 0, null, seeds, 3,
                Consistency.CONSISTENT, 2, SECRET, tls, ClusterSettings.DEFAULT_MAX_CLOCK_SKEW);
        ClusterControl control = ClusterControl.start(settings, dir.resolve(id), FAST);
        controls.add(control);
        return control;
    }

    @Test
    void twoNodesFormAClusterOverTlsAndClientsWithoutTheRightCertificateFail() throws Exception {
        ClusterControl a = start("a", nodeA, List.of());
        ClusterControl b = start("b", nodeB, List.of(a.address()));
        await(() -> List.of(a, b).stream().allMatch(n -> n.layout().version() == 1
                && n.statuses().values().stream().filter(s -> s.state() == PeerStatus.State.UP).count() == 2),
                "two nodes UP on layout 1 over TLS");
        assertThat(a.clusterId()).isNotEmpty().isEqualTo(b.clusterId());

        TestCertificates.Identity stranger = certificates.selfSigned("stranger");
        RpcTls strangersTls = new RpcTls(stranger.certificate(), stranger.privateKey(), certificates.ca());
        // It trusts the nodes' CA, knows the secret: only its certificate is wrong.
        RpcSecurity withStrangersCertificate = new RpcSecurity(SECRET, strangersTls, () -> "");
        RpcSecurity withoutTls = RpcSecurity.of(SECRET);
        try (LogCapture log = LogCapture.of(RpcServer.class)) {
            for (RpcSecurity security : List.of(withStrangersCertificate, withoutTls)) {
                try (RpcClient client = new RpcClient(new NodeId("stranger"), RpcConfig.defaults(), security,
                        new NetworkFaults())) {
                    var call = client.call(new RpcPeer(new NodeId("a"), a.address()), LayoutManager.FETCH, new byte[0],
                            Duration.ofSeconds(5));
                    try {
                        call.get(20, TimeUnit.SECONDS);
                        throw new AssertionError("a client without the CA's certificate fetched the layout");
                    } catch (ExecutionException e) {
                        assertThat(e.getCause()).isInstanceOf(RpcException.class).hasMessageContaining("cannot connect");
                    }
                }
            }
            await(() -> log.warnings().stream().filter(w -> w.startsWith("refused RPC connection from /127.0.0.1"))
                    .count() >= 2, "the node logs both refusals");
        }
        // Plain TCP on the TLS port: never a frame back.
        try (WireClient plain = new WireClient(a.address())) {
            plain.hello("stranger", "");
            assertThat(plain.readUntilClosed()).isEmpty();
        }
        // The nodes themselves still talk.
        assertThat(a.statuses().get(new NodeId("b")).state()).isEqualTo(PeerStatus.State.UP);
    }

    private static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
