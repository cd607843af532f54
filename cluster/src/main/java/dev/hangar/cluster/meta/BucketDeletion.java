package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.ReplicatedTable;
import dev.hangar.cluster.table.Timestamp;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.listing.ByteKeys;
import dev.hangar.metadata.state.MetadataStateMachine;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Keeps a bucket's deletion through one node and a write into the bucket through another from both
 * succeeding, which would leave the write invisible in a deleted bucket (and visible again if a
 * bucket of that name were created). Without a leader, both sides write, then read, at quorums:
 *
 * <ul>
 *   <li>a deletion first writes a mark of its own ({@code D}, {@link MetaKeys#deletionMark}), then
 *       checks that the bucket is empty with quorum reads, then removes the bucket and its mark in
 *       one write (or, refused, removes the mark alone);
 *   <li>a write that adds a version or an upload, once its quorum acknowledged it, reads the
 *       bucket's record and marks at a quorum ({@link #survives}): bucket gone, it withdraws what it
 *       wrote ({@link #withdrawal}) and answers NoSuchBucket; marked, it waits for the mark to go
 *       (the deletion was refused: the bucket lives) or the bucket (it was not).
 * </ul>
 *
 * <p>Why it holds: each side's read starts after its own write reached a quorum, and every read
 * quorum meets every write quorum. If the deletion's check missed the write, it read some replica
 * before the write reached it, so before the write completed and the writer's read began: the
 * deletion's mark was complete by then, and the writer sees it (or, later, its outcome).
 *
 * <p>The price: one more round for every PutObject, CompleteMultipartUpload and
 * CreateMultipartUpload, and one for DeleteBucket (its mark). A deletion that stopped halfway (its
 * node crashed) would leave its mark: a mark counts only for {@link #DEFAULT_LEASE} after it was
 * written (its timestamp's wall clock against the reader's), and a deletion whose check took
 * longer than half that removes its mark and fails instead of deleting. That assumes the clocks'
 * offset plus the delivery of the deletion's last write stay below the other half.
 */
final class BucketDeletion {
    /** How long a deletion's mark holds writes into its bucket back. */
    static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);
    /** The value of a mark: its format, for later marks that carry more. */
    private static final byte[] MARK = {1};
    private static final int MARKS_PER_READ = 100;
    private static final long LONGEST_PAUSE_MILLIS = 50;

    private final ReplicatedTable table;
    private final EntrySource quorum;
    private final Duration lease;

    BucketDeletion(ReplicatedTable table, EntrySource quorum, Duration lease) {
        this.table = table;
        this.quorum = quorum;
        this.lease = lease;
    }

    /** A deletion's mark, written; {@code startedNanos} before it was written, to bound the deletion's time. */
    record Mark(String bucket, byte[] sortKey, long startedNanos) {}

    /** The bucket a command adds a version or an upload to, which must not be deleted meanwhile; null for others. */
    static @Nullable String addedTo(MetadataCommand<?> command) {
        return switch (command) {
            case MetadataCommand.PutVersion put -> put.bucket();
            case MetadataCommand.CompleteUpload complete -> complete.bucket();
            case MetadataCommand.CreateUpload create -> create.bucket();
            default -> null;
        };
    }

    /** Writes a new mark of a deletion of {@code bucket} at a quorum. */
    Mark begin(String bucket) {
        long started = System.nanoTime();
        byte[] sortKey = MetaKeys.deletionMark(bucket, UUID.randomUUID().toString());
        Replies.join(table.put(MetaKeys.bucketDeletions(), sortKey, MARK), "mark bucket " + bucket + " as being deleted");
        return new Mark(bucket, sortKey, started);
    }

    /** Whether the deletion may still remove its bucket: the writers that saw its mark still wait for it. */
    boolean inTime(Mark mark) {
        return System.nanoTime() - mark.startedNanos() < lease.toNanos() / 2;
    }

    /** The tombstone of {@code mark}, to be written with the deletion's outcome. */
    static Entry end(Mark mark, Timestamp timestamp) {
        return Entry.tombstone(MetaKeys.bucketDeletions(), mark.sortKey(), timestamp);
    }

    /** Removes {@code mark} without deleting its bucket. */
    void abandon(Mark mark) {
        Replies.join(table.put(end(mark, table.clock().now())), "unmark bucket " + mark.bucket());
    }

    /** Removes {@code mark} after the deletion failed with {@code failure}, to which a failure to remove it is added. */
    void abandonAfter(Mark mark, RuntimeException failure) {
        try {
            abandon(mark);
        } catch (RuntimeException e) {
            // The mark lapses after its lease.
            failure.addSuppressed(e);
        }
    }

    /**
     * Whether {@code bucket} still exists once every deletion of it in progress has ended, read at
     * a quorum: one round, and more only while a deletion is under way.
     */
    boolean survives(String bucket) {
        byte[] from = MetaKeys.deletionMarks(bucket);
        for (long pause = 1; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS)) {
            ParallelCalls calls = new ParallelCalls();
            CompletableFuture<Optional<Entry>> record = calls.start(() -> quorum.get(MetaKeys.buckets(), MetaKeys.bucket(bucket)));
            CompletableFuture<List<Entry>> marks = calls.start(() -> quorum.range(MetaKeys.bucketDeletions(), from,
                    ByteKeys.pastPrefix(from), MARKS_PER_READ).thenApply(page -> page.entries()));
            boolean exists = Replies.join(record, "read bucket " + bucket).isPresent();
            List<Entry> pending = Replies.join(marks, "read deletions of bucket " + bucket);
            calls.counted();
            long now = table.clock().physicalMillis();
            if (!exists) {
                return false;
            }
            if (pending.stream().noneMatch(mark -> now - mark.timestamp().wall() < lease.toMillis())) {
                return true;
            }
            pause(pause);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MetadataStorageException("interrupted while a deletion of the bucket was under way", e);
        }
    }

    /**
     * What undoes {@code written} in a bucket found deleted: each live version written back dead at
     * its order (dead wins at one order, and a later version of the key, at a higher order, stays),
     * each version index and upload it wrote removed. Entries of other kinds (removed parts, a
     * removed upload) stay: they held nothing that outlives the bucket.
     */
    static List<Entry> withdrawal(List<Entry> written, Timestamp timestamp) {
        Map<List<ByteBuffer>, Entry> undone = new LinkedHashMap<>();
        for (Entry entry : written) {
            byte[] value = entry.value();
            if (value == null) {
                continue;
            }
            List<ByteBuffer> address = List.of(ByteBuffer.wrap(entry.partitionKey()), ByteBuffer.wrap(entry.sortKey()));
            if (MetadataMergeRule.isVersionSlot(entry) && VersionValue.isVersion(value)) {
                long order = VersionValue.order(value);
                Entry before = undone.get(address);
                if (!VersionValue.isDead(value) && (before == null || VersionValue.order(before.value()) < order)) {
                    undone.put(address, Entry.of(entry.partitionKey(), entry.sortKey(),
                            VersionValue.dead(order).encode(), timestamp));
                }
            } else if (entry.partitionKey()[0] == MetaKeys.OBJECT_TAG || entry.partitionKey()[0] == MetaKeys.UPLOAD_TAG) {
                undone.put(address, Entry.tombstone(entry.partitionKey(), entry.sortKey(), timestamp));
            }
        }
        return List.copyOf(undone.values());
    }

    /** The blocks of the live versions among {@code written}, which a withdrawal frees. */
    static List<BlockId> blocksOf(List<Entry> written) {
        List<BlockId> blocks = new ArrayList<>();
        for (Entry entry : written) {
            if (entry.value() != null && entry.partitionKey()[0] == MetaKeys.OBJECT_TAG) {
                for (ObjectVersion version : LocalReplica.versionsOf(entry)) {
                    MetadataStateMachine.blocksOf(version).forEach(block -> blocks.add(block.id()));
                }
            }
        }
        return blocks;
    }
}
