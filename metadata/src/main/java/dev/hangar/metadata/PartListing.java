package dev.hangar.metadata;

import java.util.List;

/** One page of ListParts, by part number; {@code nextPartNumberMarker} is 0 when not truncated. */
public record PartListing(List<Part> parts, boolean truncated, int nextPartNumberMarker) {
    public PartListing {
        parts = List.copyOf(parts);
    }
}
