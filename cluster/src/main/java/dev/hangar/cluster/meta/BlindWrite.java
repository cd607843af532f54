package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.ReplicatedTable;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.rocksdb.RecordFormat;
import dev.hangar.metadata.state.MetadataStateMachine;
import dev.hangar.metadata.state.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A PUT or DELETE of the {@code "null"} version of a key in a bucket that never had versioning
 * enabled, in one round instead of two: such a key holds at most its {@code "null"} slot, so the
 * write need not read it first.
 *
 * <p>The rules stay in the state machine. It runs first on a guess of the key's state (nothing, for
 * a PUT; a version in the slot, for a DELETE), and what it writes — one entry, the slot — is
 * swapped in blindly; the swap answers what the replicas held in the slot and at the key's legacy
 * entry. The state machine then runs again on that real state (no round: it reads only what the
 * swap returned), for the outcome and the blocks to free. If what it would have written leaves the
 * slot as the blind write left it, that was enough; otherwise (the slot held a version of a higher
 * order than the stamp, through a clock ahead of this node's; a legacy stack to migrate) its writes
 * go out in a second round, before the command returns. Readers may meet the blind write in
 * between.
 */
final class BlindWrite {
    /** The configuration kind whose presence means versioning was configured once (it is never removed). */
    private static final String VERSIONING = "versioning";

    private final ReplicatedTable table;
    private final SettingsCache settings;

    BlindWrite(ReplicatedTable table, SettingsCache settings) {
        this.table = table;
        this.settings = settings;
    }

    /** What applying a command gave, the entries it wrote, and the blocks to queue once it returned. */
    record Applied<R>(Outcome<R> outcome, List<Entry> written, List<BlockId> garbage) {}

    /**
     * Applies {@code command} blindly if it may be ({@code "null"} version, no precondition, no lock
     * to check, a bucket that exists and never had versioning configured, as the settings cache
     * says); empty if it may not, and then nothing was written.
     */
    <R> Optional<Applied<R>> apply(MetadataCommand<R> command) {
        String bucket;
        String key;
        switch (command) {
            case MetadataCommand.PutVersion put when put.version().versionId().equals(ObjectVersion.NULL_VERSION)
                    && put.precondition() instanceof Precondition.None && !put.replacing().checks() -> {
                bucket = put.bucket();
                key = put.version().key();
            }
            case MetadataCommand.DeleteVersion delete when delete.versionId().equals(ObjectVersion.NULL_VERSION)
                    && !delete.lock().checks() && delete.expected() == null -> {
                bucket = delete.bucket();
                key = delete.key();
            }
            default -> {
                return Optional.empty();
            }
        }
        byte[] keyBytes = ObjectSlots.readable(key);
        if (keyBytes == null || !neverVersioned(bucket)) {
            return Optional.empty();
        }
        long stamp = VersionValue.stamp(table.clock().now());
        byte[] slot = ObjectSlots.nullSlot(keyBytes);
        List<Entry> guess = command instanceof MetadataCommand.DeleteVersion
                ? List.of(Entry.of(MetaKeys.objects(bucket), slot, VersionValue.live(stamp,
                        RecordFormat.encodeObject(placeholder(bucket, key))).encode(), table.clock().last()))
                : List.of();
        ReplicatedState guessed = new ReplicatedState(EntrySource.of(guess), settings, false);
        Outcome<R> guessedOutcome = MetadataStateMachine.apply(command, stamp, guessed);
        List<Entry> blind = guessed.entries(table.clock().now());
        if (!(guessedOutcome instanceof Outcome.Done<R>) || blind.size() != 1
                || !Arrays.equals(blind.getFirst().sortKey(), slot)) {
            return Optional.empty();
        }
        ReplicatedTable.Swapped swapped = Replies.join(
                table.swap(blind.getFirst(), List.of(ObjectSlots.legacy(keyBytes))), "write object " + key);
        List<Entry> found = new ArrayList<>();
        swapped.previous().ifPresent(found::add);
        swapped.peeked().getFirst().ifPresent(found::add);
        ReplicatedState real = new ReplicatedState(EntrySource.of(found), settings, false);
        Outcome<R> outcome = MetadataStateMachine.apply(command, stamp, real);
        List<Entry> needed = real.entries(table.clock().now());
        List<Entry> written = new ArrayList<>(blind);
        if (outcome instanceof Outcome.Done<R>
                && !leavesTheSame(swapped.previous().orElse(null), blind.getFirst(), needed, slot)) {
            Replies.join(table.putAll(needed), "write object " + key);
            written.addAll(needed);
        }
        return Optional.of(new Applied<>(outcome, written, real.garbage()));
    }

    /**
     * Whether the bucket exists and never had versioning configured, so that each of its keys holds
     * at most its {@code "null"} version: both from the settings cache, usually no round at all.
     */
    private boolean neverVersioned(String bucket) {
        ParallelCalls calls = new ParallelCalls();
        CompletableFuture<Optional<Entry>> bucketRead =
                calls.start(() -> settings.get(MetaKeys.buckets(), MetaKeys.bucket(bucket)));
        CompletableFuture<Optional<Entry>> versioningRead =
                calls.start(() -> settings.get(MetaKeys.configs(bucket), MetaKeys.configKind(VERSIONING)));
        boolean exists = Replies.join(bucketRead, "read bucket " + bucket).isPresent();
        boolean versioned = Replies.join(versioningRead, "read versioning of " + bucket).isPresent();
        calls.counted();
        return exists && !versioned;
    }

    /**
     * Whether the slot, as the replicas held it ({@code previous}), shows the same after the blind
     * write as after the writes the state machine wanted on the real state: nothing (absent or
     * dead) both times, or the same version at the same order.
     */
    private static boolean leavesTheSame(@Nullable Entry previous, Entry blind, List<Entry> needed, byte[] slot) {
        for (Entry entry : needed) {
            if (!Arrays.equals(entry.sortKey(), slot)) {
                return false;
            }
        }
        MetadataMergeRule rule = MetadataMergeRule.INSTANCE;
        Entry afterBlind = rule.winner(previous, blind);
        Entry afterNeeded = needed.isEmpty() ? previous : rule.winner(previous, needed.getFirst());
        return visible(afterBlind).equals(visible(afterNeeded));
    }

    private static Optional<VersionValue> visible(@Nullable Entry slot) {
        if (slot == null || slot.value() == null || !VersionValue.isVersion(slot.value())) {
            return Optional.empty();
        }
        VersionValue value = VersionValue.decode(slot.value());
        // What readers see: field stamps are the merge's business.
        return value.dead() ? Optional.empty() : Optional.of(value.unstamped());
    }

    /** What a DELETE guesses the slot holds: a version to remove, whatever it is (its blocks are the real state's business). */
    private static ObjectVersion placeholder(String bucket, String key) {
        return new ObjectVersion(bucket, key, ObjectVersion.NULL_VERSION, Instant.EPOCH, 0, "\"\"",
                new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null, List.of());
    }
}
