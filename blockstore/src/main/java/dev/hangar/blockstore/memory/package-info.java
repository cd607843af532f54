/**
 * Blocks in the heap, for tests and for wiring a store without a disk. Nothing survives the
 * process.
 */
@NullMarked
package dev.hangar.blockstore.memory;

import org.jspecify.annotations.NullMarked;
