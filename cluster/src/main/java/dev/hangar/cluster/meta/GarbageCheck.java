package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.state.MetadataStateMachine;
import dev.hangar.metadata.state.StoredVersion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * This node's blocks to free ({@link GarbageQueue}) and the check before one goes: a block a
 * command queued is handed out only once the garbage grace has passed and the versions of the key
 * it was queued for, read again from the quorum, do not reference it. A concurrent write through
 * another node may have reused it (a copy of an object onto itself, a completion racing an abort,
 * an upload's completion whose parts another node's abort queued). A block found referenced leaves
 * the queue: whoever replaces that version later queues it again.
 */
final class GarbageCheck implements AutoCloseable {
    private final GarbageQueue queue;
    private final EntrySource source;
    private final Duration grace;

    GarbageCheck(GarbageQueue queue, EntrySource source, Duration grace) {
        this.queue = queue;
        this.source = source;
        this.grace = grace;
    }

    /** Queues blocks a command made unreachable; {@code owner} null for blocks never referenced. */
    void add(Collection<BlockId> ids, GarbageQueue.@Nullable Owner owner) {
        queue.add(ids, owner, System.currentTimeMillis());
    }

    void remove(Collection<BlockId> ids) {
        queue.remove(ids);
    }

    /**
     * Up to {@code max} queued blocks that may be freed now: those without an owner at once, the
     * others after the grace and the check. So the result can be empty while blocks wait.
     */
    List<BlockId> pending(int max) {
        long now = System.currentTimeMillis();
        List<BlockId> ready = new ArrayList<>();
        Map<GarbageQueue.Owner, List<BlockId>> toCheck = new LinkedHashMap<>();
        for (GarbageQueue.Queued queued : queue.pending(max)) {
            if (queued.owner() == null) {
                ready.add(queued.id());
            } else if (now - queued.queuedAtMillis() >= grace.toMillis()) {
                toCheck.computeIfAbsent(queued.owner(), owner -> new ArrayList<>()).add(queued.id());
            }
        }
        List<BlockId> live = new ArrayList<>();
        // The keys are read in parallel: one round for the batch, not one per key.
        try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor()) {
            Map<GarbageQueue.Owner, Future<Set<BlockId>>> referenced = new LinkedHashMap<>();
            toCheck.keySet().forEach(owner -> referenced.put(owner, readers.submit(() -> referencedBy(owner))));
            for (Map.Entry<GarbageQueue.Owner, List<BlockId>> owned : toCheck.entrySet()) {
                Set<BlockId> stillReferenced = join(referenced.get(owned.getKey()));
                for (BlockId id : owned.getValue()) {
                    (stillReferenced.contains(id) ? live : ready).add(id);
                }
            }
        }
        queue.remove(live);
        return ready;
    }

    private Set<BlockId> referencedBy(GarbageQueue.Owner owner) {
        Set<BlockId> ids = new HashSet<>();
        for (StoredVersion stored : KeyRead.read(source, owner.bucket(), owner.key(), true).versions()) {
            MetadataStateMachine.blocksOf(stored.version()).forEach(block -> ids.add(block.id()));
        }
        return ids;
    }

    private static Set<BlockId> join(Future<Set<BlockId>> read) {
        try {
            return read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataStorageException("interrupted while checking garbage", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new MetadataStorageException("cannot check garbage: " + e.getCause(), e.getCause());
        }
    }

    @Override
    public void close() {
        queue.close();
    }
}
