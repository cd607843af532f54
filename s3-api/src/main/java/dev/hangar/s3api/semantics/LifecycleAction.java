package dev.hangar.s3api.semantics;

/** What the lifecycle worker did to one version or upload; the {@code action} tag of {@code hangar.lifecycle.actions}. */
public enum LifecycleAction {
    /** A current object of a bucket never versioned was deleted for good ({@code Expiration}). */
    EXPIRE_OBJECT("expire-object"),
    /** A delete marker was put on top of a current object of a versioned bucket ({@code Expiration}). */
    ADD_DELETE_MARKER("add-delete-marker"),
    /** A delete marker with no noncurrent version beneath it was removed ({@code ExpiredObjectDeleteMarker}). */
    REMOVE_DELETE_MARKER("remove-delete-marker"),
    /** A noncurrent version was deleted for good ({@code NoncurrentVersionExpiration}). */
    EXPIRE_NONCURRENT_VERSION("expire-noncurrent-version"),
    /** An incomplete multipart upload was aborted ({@code AbortIncompleteMultipartUpload}). */
    ABORT_UPLOAD("abort-upload");

    private final String tag;

    LifecycleAction(String tag) {
        this.tag = tag;
    }

    /** The metric tag value: lower case, dashed. */
    public String tag() {
        return tag;
    }
}
