package dev.hangar.metadata;

import dev.hangar.blockstore.BlockRef;
import java.util.List;

/** Where the bytes of one object version are: a variant of the record, not a special case. */
public sealed interface ObjectContent {

    /** Bytes at or below the inline threshold, stored inside the metadata record. */
    record Inline(byte[] data) implements ObjectContent {
        public Inline {
            if (data == null) {
                throw new IllegalArgumentException("inline data is required");
            }
        }
    }

    /** Bytes in blocks of the block store, in order. */
    record Blocks(List<BlockRef> blocks) implements ObjectContent {
        public Blocks {
            blocks = List.copyOf(blocks);
        }
    }

    /** A version that says the key was deleted (used once versioning exists). */
    record DeleteMarker() implements ObjectContent {}
}
