package dev.hangar.metadata;

import dev.hangar.blockstore.BlockRef;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** One uploaded part of a multipart upload; part bytes always live in blocks. */
public record Part(
        String uploadId,
        int partNumber,
        Instant lastModified,
        long size,
        String etag,
        List<BlockRef> blocks,
        @Nullable Checksum checksum) {
    public Part {
        if (partNumber < 1 || partNumber > 10_000) {
            throw new IllegalArgumentException("part number must be 1..10000: " + partNumber);
        }
        blocks = List.copyOf(blocks);
    }
}
