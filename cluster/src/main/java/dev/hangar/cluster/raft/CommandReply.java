package dev.hangar.cluster.raft;

import dev.hangar.metadata.MetadataUnavailableException;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.command.OutcomeCodec;
import dev.hangar.metadata.state.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a member answers for an applied log entry: byte 0 then the {@link OutcomeCodec} outcome; byte 1 then the
 * UTF-8 message of the {@link IllegalArgumentException} with which the store refused the command as invalid; or byte
 * 2 alone for an entry a restarted member replayed and skipped, having applied it before (only a client retry that
 * reaches the member's retry cache can see it).
 */
final class CommandReply {
    private static final byte OUTCOME = 0;
    private static final byte INVALID = 1;
    private static final byte REPLAYED = 2;

    private CommandReply() {}

    static <R> byte[] outcome(MetadataCommand<R> command, Outcome<R> outcome) {
        return tagged(OUTCOME, OutcomeCodec.encode(command, outcome));
    }

    /** The answer for an entry a restarted member replayed but had applied before: its outcome is not known. */
    static byte[] replayed() {
        return new byte[] {REPLAYED};
    }

    static byte[] invalid(String message) {
        return tagged(INVALID, String.valueOf(message).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The outcome a reply carries.
     *
     * @throws IllegalArgumentException the store's refusal of an invalid command, as it would be thrown on one node
     */
    static <R> Outcome<R> decode(MetadataCommand<R> command, byte[] reply) {
        if (reply.length == 0) {
            throw new IllegalStateException("empty reply to a Raft command");
        }
        byte[] body = Arrays.copyOfRange(reply, 1, reply.length);
        return switch (reply[0]) {
            case OUTCOME -> OutcomeCodec.decode(command, body);
            case INVALID -> throw new IllegalArgumentException(new String(body, StandardCharsets.UTF_8));
            case REPLAYED -> throw new MetadataUnavailableException("the command was applied before a restart of the"
                    + " member that answered; its outcome is not known");
            default -> throw new IllegalStateException("unknown Raft command reply kind " + reply[0]);
        };
    }

    private static byte[] tagged(byte kind, byte[] body) {
        byte[] reply = new byte[body.length + 1];
        reply[0] = kind;
        System.arraycopy(body, 0, reply, 1, body.length);
        return reply;
    }
}
