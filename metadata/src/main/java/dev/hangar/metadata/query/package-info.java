/**
 * Reads of a {@link dev.hangar.metadata.MetadataStore} as values, for a node that sends them to
 * another: {@link dev.hangar.metadata.query.ReadQuery} names one read and its arguments and runs it
 * on a store; {@link dev.hangar.metadata.query.QueryCodec} encodes a query and its result, so that a
 * node outside the metadata's Raft group reads through a member (a Raft query) and gets the answer
 * back as bytes.
 */
@NullMarked
package dev.hangar.metadata.query;

import org.jspecify.annotations.NullMarked;
