package dev.hangar.cluster.raft;

import dev.hangar.metadata.command.CommandCodec;
import dev.hangar.metadata.command.MetadataCommand;
import java.nio.ByteBuffer;

/**
 * A command as the Raft log carries it: format byte (1), the stamp the coordinator gave it (8 bytes, big-endian:
 * the time in microseconds that orders the versions it adds, so that every member orders them alike), then the
 * command in {@link CommandCodec}'s format. The stamp is not part of the command because the leaderless and single
 * node modes take it from the applying store.
 */
record LogEntry(long stamp, MetadataCommand<?> command) {
    static final byte FORMAT = 1;
    private static final int HEADER = 1 + Long.BYTES;

    byte[] encode() {
        byte[] body = CommandCodec.encode(command);
        return ByteBuffer.allocate(HEADER + body.length).put(FORMAT).putLong(stamp).put(body).array();
    }

    /** Decodes an entry; {@link IllegalArgumentException} if the bytes are not one. */
    static LogEntry decode(ByteBuffer bytes) {
        if (bytes.remaining() < HEADER) {
            throw new IllegalArgumentException("truncated Raft log entry: " + bytes.remaining() + " bytes");
        }
        byte format = bytes.get();
        if (format != FORMAT) {
            throw new IllegalArgumentException("unknown Raft log entry format " + format + ", this node reads " + FORMAT);
        }
        long stamp = bytes.getLong();
        byte[] body = new byte[bytes.remaining()];
        bytes.get(body);
        return new LogEntry(stamp, CommandCodec.decode(body));
    }
}
