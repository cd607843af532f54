package dev.hangar.metadata.state;

/** Why a command was refused: nothing it would have changed has changed. */
public enum Refusal {
    /** The command needs a bucket that does not exist. */
    NO_SUCH_BUCKET,
    /** A bucket still holds versions or uploads. */
    BUCKET_NOT_EMPTY,
    /** The current version does not meet the command's precondition. */
    PRECONDITION_FAILED,
    /** The multipart upload is gone (completed or aborted). */
    NO_SUCH_UPLOAD,
    /** A completion names blocks that no current part holds: a part was uploaded again meanwhile. */
    PARTS_CHANGED,
    /** Object Lock protects the version the command would remove or whose retention it would relax. */
    OBJECT_LOCKED,
    /** The command contradicts what is stored, e.g. a secret replaced meanwhile. */
    CONFLICT
}
