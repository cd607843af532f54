package dev.hangar.cluster.raft;

import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.query.QueryCodec;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import dev.hangar.metadata.rocksdb.RocksDbMetadataStore;
import dev.hangar.metadata.state.LogPosition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.jspecify.annotations.Nullable;

/**
 * The Raft state machine of one group on one member: applies each committed {@link LogEntry} with the one
 * {@code MetadataStateMachine} to this member's replica, a RocksDB store in the division's state machine folder,
 * and answers with the encoded {@code Outcome}. The store records each entry's log position in the entry's own write
 * batch, so a restarted member resumes after the last entry it applied ({@link #initialize}) and applies none twice;
 * the store's own log need not be synced, since Raft's log is and replays what a crash lost.
 *
 * <p>Queries: an empty message is a barrier, which Ratis answers only once this member has applied everything
 * committed before the read began (lease, ReadIndex or leader, as configured); the member then reads its own
 * store directly. Nodes that are not members send encoded reads ({@link QueryCodec}), answered on the leader.
 */
final class CommandStateMachine extends BaseStateMachine {
    private final Function<Path, RocksDbConfig> storeConfig;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private volatile @Nullable RocksDbMetadataStore store;

    /** @param storeConfig the configuration of this member's store, given its folder */
    CommandStateMachine(Function<Path, RocksDbConfig> storeConfig) {
        this.storeConfig = storeConfig;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        Path folder = raftStorage.getStorageDir().getStateMachineDir().toPath().resolve("db");
        RocksDbMetadataStore opened = RocksDbMetadataStore.open(storeConfig.apply(folder));
        opened.appliedPosition().ifPresent(position -> setLastAppliedTermIndex(
                TermIndex.valueOf(position.term(), position.index())));
        store = opened;
    }

    @Override
    public SimpleStateMachineStorage getStateMachineStorage() {
        return storage;
    }

    /** This member's replica; only for reads after a barrier, and for the node's bookkeeping. */
    RocksDbMetadataStore store() {
        RocksDbMetadataStore current = store;
        if (current == null) {
            throw new IllegalStateException("the state machine of group " + getGroupId() + " is not open");
        }
        return current;
    }

    /** This member's replica, unless the division is not initialised yet or closed. */
    Optional<RocksDbMetadataStore> openStore() {
        return Optional.ofNullable(store);
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        LogEntryProto entry = transaction.getLogEntry();
        LogPosition position = new LogPosition(entry.getTerm(), entry.getIndex());
        try {
            LogEntry decoded = LogEntry.decode(entry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
            byte[] answer = apply(decoded.command(), decoded.stamp(), position);
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(answer)));
        } catch (RuntimeException e) {
            // A store that cannot write must not let this member run ahead of its state: the division stops here.
            return CompletableFuture.failedFuture(e);
        }
    }

    // A command the store refuses as invalid (a key with U+0000, say) is refused alike on every member: the entry
    // counts as applied and the coordinator gets the refusal back. Any other failure stops this member.
    private <R> byte[] apply(MetadataCommand<R> command, long stamp, LogPosition position) {
        RocksDbMetadataStore current = store();
        try {
            return CommandReply.outcome(command, current.applyEntry(command, stamp, position));
        } catch (IllegalArgumentException invalid) {
            current.skipEntry(position);
            return CommandReply.invalid(invalid.getMessage());
        }
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        ByteString content = request.getContent();
        if (content.isEmpty()) {
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
        try {
            return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(
                    QueryCodec.answer(content.toByteArray(), store()))));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void close() throws IOException {
        RocksDbMetadataStore current = store;
        store = null;
        if (current != null) {
            current.close();
        }
        super.close();
    }
}
