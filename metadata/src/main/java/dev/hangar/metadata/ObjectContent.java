package dev.hangar.metadata;

import dev.hangar.blockstore.BlockRef;
import java.util.Arrays;
import java.util.List;

/** Where the bytes of one object version are: a variant of the record, not a special case. */
public sealed interface ObjectContent {

    /**
     * Bytes at or below the inline threshold, stored inside the metadata record.
     *
     * <p>Equality compares the bytes (a record would compare the array's identity), so that two
     * versions read from the store compare equal. The array is not copied: do not modify it.
     */
    record Inline(byte[] data) implements ObjectContent {
        public Inline {
            if (data == null) {
                throw new IllegalArgumentException("inline data is required");
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Inline inline && Arrays.equals(data, inline.data);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "Inline[" + data.length + " bytes]";
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
