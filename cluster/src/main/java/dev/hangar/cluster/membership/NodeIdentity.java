package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A node's id, kept in {@code node-id} in its data directory.
 *
 * <p>The id names the node in every layout, so it must survive restarts: a node that came back under
 * a new id would be a stranger owning none of its own data.
 */
public final class NodeIdentity {
    /** The file, in the data directory, that holds the id. */
    public static final String FILE = "node-id";

    private NodeIdentity() {}

    /**
     * The id of the node whose data is in {@code dataDir}: {@code configured} if given, otherwise the
     * one stored there, otherwise a fresh random one, stored for next time. A configured id that
     * differs from the stored one is refused, because the directory's data belongs to the stored one.
     */
    public static NodeId loadOrCreate(Path dataDir, @Nullable String configured) {
        Path file = dataDir.resolve(FILE);
        try {
            if (Files.exists(file)) {
                NodeId stored = new NodeId(Files.readString(file, StandardCharsets.UTF_8).strip());
                if (configured != null && !configured.equals(stored.value())) {
                    throw new IllegalStateException("data directory " + dataDir + " belongs to node " + stored
                            + ", not to the configured node " + configured);
                }
                return stored;
            }
            NodeId id = configured != null ? new NodeId(configured) : NodeId.random();
            Files.createDirectories(dataDir);
            AtomicFiles.write(file, (id.value() + "\n").getBytes(StandardCharsets.UTF_8));
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + file, e);
        }
    }
}
