package dev.hangar.cluster.raft;

import dev.hangar.metadata.MetadataStore;

/** Answers an encoded read that a node outside a group sent to one of its members. */
interface RemoteReads {
    /** The encoded answer of the encoded read {@code query} on {@code store}. */
    byte[] answer(byte[] query, MetadataStore store);

    /** Until reads can be encoded, a non-member cannot read. */
    RemoteReads NONE = (query, store) -> {
        throw new UnsupportedOperationException("reads from nodes outside the group are not supported yet");
    };
}
