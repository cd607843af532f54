package dev.hangar.cluster.raft;

import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.query.QueryCodec;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import dev.hangar.metadata.rocksdb.RocksDbMetadataStore;
import dev.hangar.metadata.state.LogPosition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
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
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.util.LifeCycle;
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
    private final CheckpointStorage storage = new CheckpointStorage();
    private @Nullable Path folder;
    private volatile @Nullable RocksDbMetadataStore store;
    /** The index of the last entry the store had applied when it was opened; entries up to it are not applied again. */
    private volatile long storeApplied = -1;

    /** @param storeConfig the configuration of this member's store, given its folder */
    CommandStateMachine(Function<Path, RocksDbConfig> storeConfig) {
        this.storeConfig = storeConfig;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        super.initialize(server, groupId, raftStorage);
        storage.init(raftStorage);
        folder = raftStorage.getStorageDir().getStateMachineDir().toPath().resolve("db");
        // NEW -> STARTING -> RUNNING: a snapshot installation later pauses it (RUNNING -> PAUSED) and resumes it.
        getLifeCycle().startAndTransition(this::open, IOException.class);
    }

    /**
     * Opens this member's store; first rebuilds it from the newest snapshot if it has none, or one older than the
     * snapshot (a snapshot installed from the leader). Resumes after the later of the store's last applied entry
     * and the snapshot's: entries between the two changed no metadata.
     */
    private void open() throws IOException {
        Path db = Objects.requireNonNull(folder, "folder");
        Optional<CheckpointStorage.Checkpoint> snapshot = storage.latest();
        RocksDbMetadataStore opened = Files.exists(db) ? RocksDbMetadataStore.open(storeConfig.apply(db)) : null;
        long applied = opened == null ? -1 : opened.appliedPosition().map(LogPosition::index).orElse(-1L);
        if (snapshot.isPresent() && applied < snapshot.get().last().getIndex()) {
            if (opened != null) {
                opened.close();
            }
            restore(snapshot.get().folder(), db);
            opened = RocksDbMetadataStore.open(storeConfig.apply(db));
        } else if (opened == null) {
            opened = RocksDbMetadataStore.open(storeConfig.apply(db));
        }
        // Ratis resumes applying after the snapshot's index (from the start of the log without one), not after what
        // the store says it applied: entries up to the store's position come again, and are skipped (applyTransaction).
        storeApplied = opened.appliedPosition().map(LogPosition::index).orElse(-1L);
        snapshot.ifPresent(found -> setLastAppliedTermIndex(found.last()));
        store = opened;
    }

    // Copies the checkpoint beside the store, then swaps it in: a crash in between leaves either no store (rebuilt
    // again at the next start) or the copy, never half of one in place.
    private static void restore(Path checkpoint, Path db) throws IOException {
        Path copy = db.resolveSibling("db-restoring");
        CheckpointStorage.deleteTree(copy);
        Files.createDirectories(copy);
        try (var files = Files.list(checkpoint)) {
            for (Path file : files.toList()) {
                // Ratis leaves a digest file beside each file it received; RocksDB needs none of them.
                if (!file.getFileName().toString().endsWith(".md5")) {
                    Files.copy(file, copy.resolve(file.getFileName()));
                }
            }
        }
        CheckpointStorage.deleteTree(db);
        Files.move(copy, db, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public CheckpointStorage getStateMachineStorage() {
        return storage;
    }

    /**
     * Writes a snapshot of the state after the last applied entry: a checkpoint of the store, into a temporary
     * folder renamed when complete. Ratis calls it between two applications, every so many entries, and purges
     * the log up to it.
     */
    @Override
    public long takeSnapshot() throws IOException {
        TermIndex last = getLastAppliedTermIndex();
        RocksDbMetadataStore current = store;
        if (last == null || last.getIndex() <= 0 || current == null) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        Path target = storage.folderFor(last);
        if (!Files.exists(target)) {
            Path partial = target.resolveSibling(target.getFileName() + ".partial");
            CheckpointStorage.deleteTree(partial);
            current.checkpoint(partial);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        }
        storage.keepOnly(target);
        return last.getIndex();
    }

    /** Before Ratis puts a snapshot from the leader in place: no entry is applied until {@link #reinitialize}. */
    @Override
    public synchronized void pause() {
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /** After Ratis installed a snapshot from the leader: the store is rebuilt from it, and applying resumes. */
    @Override
    public synchronized void reinitialize() throws IOException {
        RocksDbMetadataStore current = store;
        store = null;
        if (current != null) {
            current.close();
        }
        open();
        if (getLifeCycleState() == LifeCycle.State.PAUSED) {
            getLifeCycle().transition(LifeCycle.State.STARTING);
            getLifeCycle().transition(LifeCycle.State.RUNNING);
        }
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
        if (entry.getIndex() <= storeApplied) {
            // Replayed after a restart (Ratis starts at its snapshot): the store applied it before, in the same batch
            // as its position, so applying it again would apply it twice. Its outcome is not kept.
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(CommandReply.replayed())));
        }
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
