package dev.hangar.metadata.state;

/** A command was refused ({@link Outcome.Refused}); nothing changed. */
public final class CommandRefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final Refusal reason;

    public CommandRefusedException(Refusal reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Refusal reason() {
        return reason;
    }
}
