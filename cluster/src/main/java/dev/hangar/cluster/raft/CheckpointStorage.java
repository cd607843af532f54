package dev.hangar.cluster.raft;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.jspecify.annotations.Nullable;

/**
 * A group member's snapshots: RocksDB checkpoints of its store, one folder each, named {@code <term>_<index>} after
 * the last log entry they contain, under {@code sm/snapshots}, the newest kept. Ratis sends the newest one's files to
 * a member too far behind for the leader's log (as {@code sm/<term>_<index>/<file>}) into {@code sm/snapshots-tmp},
 * and on completion puts them in place of the snapshots folder, where they have the same layout; the state machine
 * then rebuilds its store from them ({@link CommandStateMachine#reinitialize}).
 */
final class CheckpointStorage implements StateMachineStorage {
    private static final Pattern NAME = Pattern.compile("(\\d+)_(\\d+)");

    private @Nullable Path snapshots;
    private @Nullable Path tmp;

    @Override
    public void init(RaftStorage storage) throws IOException {
        Path machine = storage.getStorageDir().getStateMachineDir().toPath();
        snapshots = machine.resolve("snapshots");
        tmp = machine.resolve("snapshots-tmp");
        Files.createDirectories(snapshots);
        Files.createDirectories(tmp);
    }

    /** A snapshot: its folder and the last entry it contains. */
    record Checkpoint(Path folder, TermIndex last) {}

    /**
     * The newest complete snapshot. A snapshot being replaced may vanish while this looks: its folder is then
     * skipped, and the listing tried again if the folder itself went.
     */
    Optional<Checkpoint> latest() {
        Path root = folder();
        for (int attempt = 0; ; attempt++) {
            try (Stream<Path> children = Files.list(root)) {
                return children.map(CheckpointStorage::parse)
                        .flatMap(Optional::stream)
                        .filter(checkpoint -> Files.exists(checkpoint.folder().resolve("CURRENT")))
                        .max(Comparator.comparing(Checkpoint::last));
            } catch (NoSuchFileException | UncheckedIOException e) {
                if (attempt >= 3) {
                    return Optional.empty();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list the snapshots in " + root, e);
            }
        }
    }

    private static Optional<Checkpoint> parse(Path folder) {
        Matcher matcher = NAME.matcher(folder.getFileName().toString());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        return Optional.of(new Checkpoint(folder,
                TermIndex.valueOf(Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2)))));
    }

    /** Where a new snapshot up to {@code last} goes. */
    Path folderFor(TermIndex last) {
        return folder().resolve(last.getTerm() + "_" + last.getIndex());
    }

    /** Deletes every snapshot but {@code kept}. */
    void keepOnly(Path kept) throws IOException {
        try (Stream<Path> children = Files.list(folder())) {
            for (Path child : children.toList()) {
                if (!child.equals(kept)) {
                    deleteTree(child);
                }
            }
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private Path folder() {
        if (snapshots == null) {
            throw new IllegalStateException("the snapshot storage is not initialised");
        }
        return snapshots;
    }

    @Override
    public @Nullable SnapshotInfo getLatestSnapshot() {
        Optional<Checkpoint> latest = latest();
        if (latest.isEmpty()) {
            return null;
        }
        List<FileInfo> files = new ArrayList<>();
        try (Stream<Path> listed = Files.list(latest.get().folder())) {
            for (Path file : listed.filter(Files::isRegularFile)
                    .filter(path -> !path.getFileName().toString().endsWith(".md5")).toList()) {
                // No digest: Ratis computes one while it sends a file, and checks it where it arrives.
                files.add(new FileInfo(file.toAbsolutePath(), null));
            }
        } catch (IOException | UncheckedIOException e) {
            // Replaced by a newer one meanwhile: that one is the latest.
            return getLatestSnapshot();
        }
        return new FileListSnapshotInfo(files, latest.get().last());
    }

    @Override
    public void format() {}

    // Only the newest snapshot is ever kept (keepOnly after each new one).
    @Override
    public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) {}

    @Override
    public File getSnapshotDir() {
        return folder().toFile();
    }

    @Override
    public @Nullable File getTmpDir() {
        return tmp == null ? null : tmp.toFile();
    }
}
