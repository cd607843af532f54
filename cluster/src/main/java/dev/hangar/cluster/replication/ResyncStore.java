package dev.hangar.cluster.replication;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.replication.ResyncQueue.Task;
import java.util.List;
import java.util.Set;

/**
 * Where a {@link ResyncQueue} keeps its tasks and pending releases so that they outlive the process.
 *
 * <p>A task is stored under its (block, target) pair, as in the queue's map: storing a task replaces
 * whatever was stored for that pair, so a delete overrides a copy here too. Writes must not block the
 * caller, which may be an I/O thread; for one key they are applied in the order they are made.
 */
interface ResyncStore extends AutoCloseable {
    /** What a store held when it was opened. */
    record Contents(List<Task> tasks, Set<BlockId> releases) {
        static final Contents EMPTY = new Contents(List.of(), Set.of());

        public Contents {
            tasks = List.copyOf(tasks);
            releases = Set.copyOf(releases);
        }
    }

    Contents load();

    void put(Task task);

    /** Removes the task stored for {@code task}'s block and target. */
    void remove(Task task);

    void putRelease(BlockId block);

    void removeRelease(BlockId block);

    /** Waits for the writes made so far to be applied, then releases the store. */
    @Override
    void close();

    /** A store that keeps nothing: the queue is in memory only. */
    static ResyncStore none() {
        return None.INSTANCE;
    }

    enum None implements ResyncStore {
        INSTANCE;

        @Override
        public Contents load() {
            return Contents.EMPTY;
        }

        @Override
        public void put(Task task) {}

        @Override
        public void remove(Task task) {}

        @Override
        public void putRelease(BlockId block) {}

        @Override
        public void removeRelease(BlockId block) {}

        @Override
        public void close() {}
    }
}
