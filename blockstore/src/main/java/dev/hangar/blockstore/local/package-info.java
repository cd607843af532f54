/**
 * Blocks as files on a local file system: one file per block, fanned out over two levels of
 * directories named after the id's first hex digits, written to a temporary file and renamed into
 * place so that a block is either whole or absent.
 */
@NullMarked
package dev.hangar.blockstore.local;

import org.jspecify.annotations.NullMarked;
