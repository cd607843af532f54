package dev.hangar.cluster.raft;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.rpc.NetworkFaults;
import org.apache.ratis.proto.RaftProtos.AppendEntriesReplyProto;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.proto.RaftProtos.RaftClientRequestProto;
import org.apache.ratis.proto.RaftProtos.RaftRpcRequestProto;
import org.apache.ratis.proto.RaftProtos.ReadIndexRequestProto;
import org.apache.ratis.proto.RaftProtos.RequestVoteRequestProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/** How the fault hook tells which node sent a Raft request: by peer id, or by the client id a node derives. */
class RaftFaultsSenderTest {
    private static final NodeId SELF = new NodeId("n1");
    private static final NodeId PEER = new NodeId("n2");
    private static final NodeId STRANGER = new NodeId("n3");

    private final RaftFaults hook = new RaftFaults(SELF, new NetworkFaults());

    RaftFaultsSenderTest() {
        hook.register(SELF);
        hook.register(PEER);
    }

    @Test
    void aServerRequestNamesItsSenderByPeerId() {
        assertThat(hook.sender(AppendEntriesRequestProto.newBuilder().setServerRequest(from(PEER)).build()))
                .isEqualTo(PEER);
        assertThat(hook.sender(RequestVoteRequestProto.newBuilder().setServerRequest(from(PEER)).build()))
                .isEqualTo(PEER);
        // A read index request carries a client request too: the server request is the one that counts.
        assertThat(hook.sender(ReadIndexRequestProto.newBuilder().setServerRequest(from(PEER))
                .setClientRequest(RaftClientRequestProto.newBuilder().setRpcRequest(from(RaftFaults.clientId(SELF))))
                .build())).isEqualTo(PEER);
    }

    @Test
    void aClientRequestNamesItsSenderByTheHashInItsClientId() {
        ClientId first = RaftFaults.clientId(PEER);
        ClientId restarted = RaftFaults.clientId(PEER);
        assertThat(first).as("a node's client id differs from one start to the next").isNotEqualTo(restarted);
        for (ClientId id : new ClientId[] {first, restarted}) {
            assertThat(hook.sender(RaftClientRequestProto.newBuilder().setRpcRequest(from(id)).build()))
                    .isEqualTo(PEER);
        }
    }

    @Test
    void unknownSendersThisNodeAndMessagesWithoutSenderGetNoFault() {
        assertThat(hook.sender(AppendEntriesRequestProto.newBuilder().setServerRequest(from(STRANGER)).build()))
                .isNull();
        assertThat(hook.sender(RaftClientRequestProto.newBuilder().setRpcRequest(from(RaftFaults.clientId(STRANGER)))
                .build())).isNull();
        assertThat(hook.sender(RaftClientRequestProto.newBuilder().setRpcRequest(from(ClientId.randomId())).build()))
                .isNull();
        assertThat(hook.sender(AppendEntriesRequestProto.newBuilder().setServerRequest(from(SELF)).build())).isNull();
        assertThat(hook.sender(RaftClientRequestProto.newBuilder().setRpcRequest(from(RaftFaults.clientId(SELF)))
                .build())).isNull();
        assertThat(hook.sender(AppendEntriesReplyProto.getDefaultInstance())).isNull();
        assertThat(hook.sender(AppendEntriesRequestProto.getDefaultInstance())).isNull();
        assertThat(hook.sender("not a message")).isNull();
    }

    private static RaftRpcRequestProto from(NodeId peer) {
        return RaftRpcRequestProto.newBuilder().setRequestorId(ByteString.copyFromUtf8(peer.value())).build();
    }

    private static RaftRpcRequestProto from(ClientId client) {
        return RaftRpcRequestProto.newBuilder().setRequestorId(client.toByteString()).build();
    }
}
