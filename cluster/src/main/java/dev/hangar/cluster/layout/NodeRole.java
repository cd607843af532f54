package dev.hangar.cluster.layout;

import java.util.Objects;

/**
 * What a node contributes to the layout: its failure domain ({@code zone}) and how much data it
 * should hold relative to the others ({@code capacity}, in any unit as long as all nodes use the
 * same one). Capacity 0 makes a gateway: it serves S3 requests but holds no partition.
 */
public record NodeRole(NodeId id, String zone, long capacity) {
    public NodeRole {
        Objects.requireNonNull(id, "id");
        if (zone == null || zone.isBlank()) {
            throw new IllegalArgumentException("zone must not be blank for node " + id);
        }
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative for node " + id);
        }
    }

    /** Whether the node holds data (a gateway does not). */
    public boolean isStorage() {
        return capacity > 0;
    }
}
