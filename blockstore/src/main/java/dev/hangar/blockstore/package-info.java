/**
 * Blocks: the immutable chunks that object data is cut into.
 *
 * <p>A {@link dev.hangar.blockstore.BlockStore} keeps blocks under random {@link
 * dev.hangar.blockstore.BlockId}s; {@link dev.hangar.blockstore.BlockStores} builds one per backend
 * (a sub-package per mechanism). {@link dev.hangar.blockstore.ChunkedStreams} turns an object's
 * byte stream into a list of {@link dev.hangar.blockstore.BlockRef}s and back, streaming both ways
 * so that an object of any size is moved in a small, fixed heap.
 */
@NullMarked
package dev.hangar.blockstore;

import org.jspecify.annotations.NullMarked;
