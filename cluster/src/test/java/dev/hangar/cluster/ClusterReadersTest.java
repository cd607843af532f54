package dev.hangar.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.PeerStatus;
import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.cluster.rpc.NetworkFaults;
import dev.hangar.cluster.rpc.RpcClient;
import dev.hangar.cluster.rpc.RpcConfig;
import dev.hangar.cluster.rpc.RpcSecurity;
import dev.hangar.cluster.rpc.RpcServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The question a freeing node asks the others over real, authenticated RPC: which of these blocks do your
 * reads hold. Which peers it must hear from, and which count as gone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterReadersTest {
    private static final RpcSecurity SECURITY = RpcSecurity.of(ClusterSecret.of("cluster-readers-secret-0123456789"));
    private static final NodeId FREEING = new NodeId("freeing");
    private static final NodeId READING = new NodeId("reading");
    private static final Duration SILENT_WAIT = Duration.ofHours(1);
    private static final BlockId A = BlockId.random();
    private static final BlockId B = BlockId.random();
    private static final BlockId C = BlockId.random();

    private final NetworkFaults faults = new NetworkFaults();
    private final ReaderLeases leases = new ReaderLeases(() -> { });
    private final Map<NodeId, PeerStatus> statuses = new HashMap<>();
    private RpcServer server;
    private RpcClient client;
    private ClusterReaders readers;

    @BeforeEach
    void start() throws Exception {
        server = new RpcServer(READING, RpcConfig.defaults(), SECURITY, faults, null);
        ClusterReaders.serve(server, leases);
        server.start("127.0.0.1", 0);
        client = new RpcClient(FREEING, RpcConfig.defaults(), SECURITY, faults);
        statuses.put(FREEING, status(FREEING, new InetSocketAddress("127.0.0.1", 1), PeerStatus.State.UP, Instant.now()));
        statuses.put(READING, status(READING, server.address(), PeerStatus.State.UP, Instant.now()));
        readers = new ClusterReaders(FREEING, client, () -> Map.copyOf(statuses), SILENT_WAIT, Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void aPeerNamesTheAskedBlocksItsReadsHold() {
        ReaderLeases.Lease lease = leases.begin().hold(List.of(A, B));

        PeerReaders.Answer answer = readers.held(List.of(A, C));

        assertThat(answer.complete()).isTrue();
        assertThat(answer.held()).containsExactly(A);
        lease.close();
        assertThat(readers.held(List.of(A, B, C)).held()).isEmpty();
    }

    /** A read that began before the question but has not found its blocks yet: the peer answers once it holds them. */
    @Test
    void aPeerAnswersOnlyOnceItsReadsStillLookingUpHoldTheirBlocks() throws Exception {
        ReaderLeases.Reading reading = leases.begin();
        CompletableFuture<PeerReaders.Answer> answer =
                CompletableFuture.supplyAsync(() -> readers.held(List.of(A, B)), command -> Thread.ofPlatform().start(command));
        Thread.sleep(300);
        assertThat(answer).as("the peer waits for the read").isNotDone();

        reading.hold(List.of(B));

        assertThat(answer.get(20, TimeUnit.SECONDS).held()).containsExactly(B);
    }

    @Test
    void aPeerThatCannotBeReachedIsUnreachableUntilItHasBeenSilentForTheWait() throws Exception {
        InetSocketAddress nobody = unusedAddress();
        statuses.put(READING, status(READING, nobody, PeerStatus.State.UP, Instant.now()));
        assertThat(readers.held(List.of(A)).unreachable()).containsExactly(READING);

        statuses.put(READING, status(READING, nobody, PeerStatus.State.SUSPECT, Instant.now().minus(SILENT_WAIT.multipliedBy(2))));
        assertThat(readers.held(List.of(A)).complete()).as("a peer silent for longer than the wait counts as gone").isTrue();
    }

    @Test
    void aDownPeerIsNotCalledButWaitedForUntilItHasBeenSilentForTheWait() {
        ReaderLeases.Lease lease = leases.begin().hold(List.of(A));
        // Its address answers, but a node that membership sees DOWN is not called: what it holds is unknown.
        statuses.put(READING, status(READING, server.address(), PeerStatus.State.DOWN, Instant.now().minusSeconds(30)));
        PeerReaders.Answer recent = readers.held(List.of(A));
        assertThat(recent.unreachable()).containsExactly(READING);
        assertThat(recent.held()).isEmpty();

        statuses.put(READING, status(READING, server.address(), PeerStatus.State.DOWN,
                Instant.now().minus(SILENT_WAIT.plusMinutes(1))));
        assertThat(readers.held(List.of(A)).complete()).isTrue();
        lease.close();
    }

    @Test
    void theQuestionIsAListOfIdsAndAnythingElseIsRefused() {
        assertThat(LeaseWire.decode(LeaseWire.encode(List.of(A, B, C)))).containsExactly(A, B, C);
        assertThat(LeaseWire.decode(LeaseWire.encode(List.of()))).isEmpty();
        byte[] truncated = Arrays.copyOf(LeaseWire.encode(List.of(A, B)), 4 + 20);
        assertThatThrownBy(() -> LeaseWire.decode(truncated)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LeaseWire.decode(new byte[2])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LeaseWire.decode(new byte[] {(byte) 0xff, 0, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Set.copyOf(LeaseWire.decode(LeaseWire.encode(List.of(A, A))))).containsExactly(A);
    }

    private static PeerStatus status(NodeId id, InetSocketAddress address, PeerStatus.State state, Instant lastSeen) {
        return new PeerStatus(id, "default", 1, address, state, lastSeen, 1);
    }

    private static InetSocketAddress unusedAddress() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return new InetSocketAddress("127.0.0.1", socket.getLocalPort());
        }
    }
}
