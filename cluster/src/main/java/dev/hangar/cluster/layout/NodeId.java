package dev.hangar.cluster.layout;

import java.util.UUID;

/**
 * Identity of one node, stable across restarts (generated once and persisted by the node).
 *
 * <p>A string rather than a UUID so that operators may name nodes; the only rule is that it be
 * printable and free of whitespace, since it appears in logs, metrics and the admin API.
 */
public record NodeId(String value) implements Comparable<NodeId> {
    public NodeId {
        if (value == null || value.isEmpty() || value.length() > 255) {
            throw new IllegalArgumentException("node id must be 1 to 255 characters: " + value);
        }
        if (!value.chars().allMatch(c -> c > ' ' && c < 0x7f)) {
            throw new IllegalArgumentException("node id must be printable ASCII without spaces: " + value);
        }
    }

    /** A fresh random id, for a node that starts without one. */
    public static NodeId random() {
        return new NodeId(UUID.randomUUID().toString());
    }

    @Override
    public int compareTo(NodeId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
