package dev.hangar.cluster.meta;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every version of one object key, newest first: the value of the key's one table entry, so that
 * any mutation of the key is a read-modify-write of that entry, and the order of versions is the
 * order in which they were written through it.
 *
 * <p>Encoded as a format byte (1), a 4-byte count, then per version a 4-byte length and the
 * version in {@link RecordFormat}'s object format (which leaves out bucket and key: the entry's
 * partition and sort keys hold them).
 */
record VersionStack(List<ObjectVersion> versions) {
    static final VersionStack EMPTY = new VersionStack(List.of());
    private static final int FORMAT = 1;

    VersionStack {
        versions = List.copyOf(versions);
    }

    /** What a mutation leaves: the new stack, the version it removed, and blocks nobody references now. */
    record Change(VersionStack after, Optional<ObjectVersion> removed, Set<BlockId> unreferenced) {}

    static VersionStack decode(String bucket, String key, byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int format = in.readUnsignedByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("unknown version stack format " + format);
            }
            int count = in.readInt();
            List<ObjectVersion> versions = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                versions.add(RecordFormat.decodeObject(bucket, key, in.readNBytes(in.readInt())));
            }
            return new VersionStack(versions);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated version stack", e);
        }
    }

    /** The newest version alone, decoding none of the others: what a listing of current objects needs. */
    static Optional<ObjectVersion> decodeCurrent(String bucket, String key, byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int format = in.readUnsignedByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("unknown version stack format " + format);
            }
            if (in.readInt() == 0) {
                return Optional.empty();
            }
            return Optional.of(RecordFormat.decodeObject(bucket, key, in.readNBytes(in.readInt())));
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated version stack", e);
        }
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeInt(versions.size());
            for (ObjectVersion version : versions) {
                byte[] encoded = RecordFormat.encodeObject(version);
                out.writeInt(encoded.length);
                out.write(encoded);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    boolean isEmpty() {
        return versions.isEmpty();
    }

    Optional<ObjectVersion> current() {
        return versions.isEmpty() ? Optional.empty() : Optional.of(versions.getFirst());
    }

    int indexOf(String versionId) {
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).versionId().equals(versionId)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code version} on top; a {@code "null"} version replaces the previous {@code "null"} one, as
     * {@code RocksDbMetadataStore} does, versions with other ids are all kept.
     */
    Change withNewest(ObjectVersion version) {
        List<ObjectVersion> after = new ArrayList<>(versions.size() + 1);
        after.add(version);
        after.addAll(versions);
        if (!version.versionId().equals(ObjectVersion.NULL_VERSION)) {
            return new Change(new VersionStack(after), Optional.empty(), Set.of());
        }
        int replaced = indexOf(ObjectVersion.NULL_VERSION);
        if (replaced < 0) {
            return new Change(new VersionStack(after), Optional.empty(), Set.of());
        }
        ObjectVersion removed = after.remove(replaced + 1);
        return change(after, removed);
    }

    /** Without the newest version of this id; empty if there is none. */
    Optional<Change> without(String versionId) {
        int index = indexOf(versionId);
        if (index < 0) {
            return Optional.empty();
        }
        List<ObjectVersion> after = new ArrayList<>(versions);
        ObjectVersion removed = after.remove(index);
        return Optional.of(change(after, removed));
    }

    /** The version at {@code index} replaced in place. */
    VersionStack with(int index, ObjectVersion version) {
        List<ObjectVersion> after = new ArrayList<>(versions);
        after.set(index, version);
        return new VersionStack(after);
    }

    /**
     * The change from this stack to {@code after} when {@code after} was written without reading
     * this one first: what is removed is this stack's {@code "null"} version, and what goes
     * unreferenced is every block of this stack that {@code after} does not reference.
     */
    Change overwrittenBy(VersionStack after) {
        int nullVersion = indexOf(ObjectVersion.NULL_VERSION);
        Set<BlockId> kept = after.referencedIds();
        Set<BlockId> unreferenced = new LinkedHashSet<>();
        for (BlockId id : referencedIds()) {
            if (!kept.contains(id)) {
                unreferenced.add(id);
            }
        }
        return new Change(after, nullVersion < 0 ? Optional.empty() : Optional.of(versions.get(nullVersion)),
                unreferenced);
    }

    /** Ids of every block any version references. */
    Set<BlockId> referencedIds() {
        Set<BlockId> ids = new HashSet<>();
        for (ObjectVersion version : versions) {
            blocksOf(version).forEach(block -> ids.add(block.id()));
        }
        return ids;
    }

    static List<BlockRef> blocksOf(ObjectVersion version) {
        return version.content() instanceof ObjectContent.Blocks blocks ? blocks.blocks() : List.of();
    }

    private static Change change(List<ObjectVersion> remaining, ObjectVersion removed) {
        VersionStack after = new VersionStack(remaining);
        Set<BlockId> kept = after.referencedIds();
        Set<BlockId> unreferenced = new LinkedHashSet<>();
        for (BlockRef block : blocksOf(removed)) {
            if (!kept.contains(block.id())) {
                unreferenced.add(block.id());
            }
        }
        return new Change(after, Optional.of(removed), unreferenced);
    }
}
