package dev.hangar.metadata.state;

import java.util.Objects;

/**
 * What applying a command gave: its result, or why it was refused. A value rather than an exception,
 * so that it can travel back from wherever the command was applied.
 */
public sealed interface Outcome<R> {

    record Done<R>(R value) implements Outcome<R> {
        public Done {
            Objects.requireNonNull(value, "value");
        }
    }

    record Refused<R>(Refusal reason, String message) implements Outcome<R> {
        public Refused {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(message, "message");
        }
    }

    static <R> Outcome<R> done(R value) {
        return new Done<>(value);
    }

    static <R> Outcome<R> refused(Refusal reason, String message) {
        return new Refused<>(reason, message);
    }

    /** The result; a refusal throws {@link CommandRefusedException}. */
    default R value() {
        return switch (this) {
            case Done<R> done -> done.value();
            case Refused<R> refused -> throw new CommandRefusedException(refused.reason(), refused.message());
        };
    }
}
