package dev.hangar.metadata.listing;

import org.jspecify.annotations.Nullable;

/**
 * What one object key holds in a listing, in listing order, read from the listing's cursor as the
 * rules ask for it: its current object, its versions newest first, or its uploads by id.
 */
public interface KeyItems<T> {
    /**
     * The key's next item; null once it has no more. The cursor may stay on the item's record
     * until the next call, so that a page that stops after it has not read past it.
     */
    @Nullable T next();

    /** Moves the cursor past the key's records that {@link #next} did not reach. */
    void skipRest();
}
