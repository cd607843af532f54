package dev.hangar.cluster.membership;

import dev.hangar.cluster.layout.NodeId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * The id of the cluster a node belongs to, kept in {@code cluster-id} in its data directory beside
 * the layout.
 *
 * <p>The id is made once, by the node that forms the cluster's first layout, and travels from there
 * in every ping; a node without one takes the first it hears from an authenticated peer and keeps it
 * for good. From then on the node refuses peers of any other cluster, in the RPC handshake and in
 * gossip, even when they know the same secret: two clusters set up with one secret (a copied
 * configuration, a test cluster beside production) cannot merge their layouts or data.
 */
public final class ClusterIdentity {
    /** The file, in the data directory, that holds the id. */
    public static final String FILE = "cluster-id";

    private static final Logger LOG = Logger.getLogger(ClusterIdentity.class.getName());
    private static final int MAX_LENGTH = 64;

    private final Path file;
    private volatile String current;

    private ClusterIdentity(Path file, String current) {
        this.file = file;
        this.current = current;
    }

    /** The id kept in {@code dataDir}, or none yet. */
    public static ClusterIdentity load(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        try {
            String stored = Files.exists(file) ? check(Files.readString(file, StandardCharsets.US_ASCII).strip()) : "";
            return new ClusterIdentity(file, stored);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** This node's cluster id, or "" before it has one. */
    public String value() {
        return current;
    }

    /** The id, made now (and kept) if this node has none: for the node that forms the first layout. */
    public synchronized String establish() {
        if (current.isEmpty()) {
            keep(UUID.randomUUID().toString());
            LOG.info(() -> "formed cluster " + current);
        }
        return current;
    }

    /**
     * Takes in the cluster id a peer announced: kept if this node has none, accepted if it is this
     * node's own (or the peer has none yet).
     *
     * @throws ClusterMismatchException if this node belongs to another cluster
     */
    public synchronized void heard(String announced, NodeId peer) {
        String id = check(announced);
        if (id.isEmpty() || id.equals(current)) {
            return;
        }
        if (!current.isEmpty()) {
            throw new ClusterMismatchException(
                    peer + " belongs to cluster " + id + ", this node to cluster " + current);
        }
        keep(id);
        LOG.info(() -> "joined cluster " + id + " (heard from " + peer + ")");
    }

    private void keep(String id) {
        try {
            Files.createDirectories(file.getParent());
            AtomicFiles.write(file, (id + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the cluster id in " + file, e);
        }
        current = id;
    }

    private static String check(String id) {
        if (id.length() > MAX_LENGTH || !id.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
            throw new IllegalArgumentException("malformed cluster id");
        }
        return id;
    }
}
