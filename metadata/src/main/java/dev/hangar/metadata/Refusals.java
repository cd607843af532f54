package dev.hangar.metadata;

import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.Refusal;
import java.util.Optional;

/** Turns the refusals of {@link MetadataStore}'s shorthands into the exceptions they declare. */
final class Refusals {
    private Refusals() {}

    static Optional<ObjectVersion> putting(Outcome<Optional<ObjectVersion>> outcome)
            throws NoSuchBucketException, PreconditionFailedException {
        if (outcome instanceof Outcome.Refused<Optional<ObjectVersion>> refused) {
            switch (refused.reason()) {
                case NO_SUCH_BUCKET -> throw new NoSuchBucketException(refused.message());
                case PRECONDITION_FAILED -> throw new PreconditionFailedException(refused.message());
                default -> throw unchecked(refused.reason(), refused.message());
            }
        }
        return outcome.value();
    }

    static Optional<ObjectVersion> completing(Outcome<Optional<ObjectVersion>> outcome)
            throws NoSuchUploadException, PreconditionFailedException {
        if (outcome instanceof Outcome.Refused<Optional<ObjectVersion>> refused) {
            switch (refused.reason()) {
                case NO_SUCH_UPLOAD -> throw new NoSuchUploadException(refused.message());
                case PRECONDITION_FAILED -> throw new PreconditionFailedException(refused.message());
                default -> throw unchecked(refused.reason(), refused.message());
            }
        }
        return outcome.value();
    }

    static <R> R locking(Outcome<R> outcome) {
        if (outcome instanceof Outcome.Refused<R> refused) {
            throw unchecked(refused.reason(), refused.message());
        }
        return outcome.value();
    }

    static void creatingUpload(Outcome<Boolean> outcome) throws NoSuchBucketException {
        configuring(outcome);
    }

    static void configuring(Outcome<Boolean> outcome) throws NoSuchBucketException {
        if (outcome instanceof Outcome.Refused<Boolean> refused && refused.reason() == Refusal.NO_SUCH_BUCKET) {
            throw new NoSuchBucketException(refused.message());
        }
        outcome.value();
    }

    static void puttingPart(Outcome<Boolean> outcome) throws NoSuchUploadException {
        if (outcome instanceof Outcome.Refused<Boolean> refused && refused.reason() == Refusal.NO_SUCH_UPLOAD) {
            throw new NoSuchUploadException(refused.message());
        }
        outcome.value();
    }

    /** The unchecked exception of a refusal that no shorthand declares. */
    private static RuntimeException unchecked(Refusal reason, String message) {
        return switch (reason) {
            case OBJECT_LOCKED -> new ObjectLockedException(message);
            case PARTS_CHANGED -> new PartsChangedException(message);
            default -> new dev.hangar.metadata.state.CommandRefusedException(reason, message);
        };
    }
}
