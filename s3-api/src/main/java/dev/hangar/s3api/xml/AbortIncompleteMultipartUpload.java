package dev.hangar.s3api.xml;

/**
 * A lifecycle rule's {@code AbortIncompleteMultipartUpload}: {@code DaysAfterInitiation}.
 *
 * @param daysAfterInitiation how many days after it began an unfinished upload is aborted; positive
 */
public record AbortIncompleteMultipartUpload(int daysAfterInitiation) {
    public AbortIncompleteMultipartUpload {
        if (daysAfterInitiation <= 0) {
            throw new IllegalArgumentException("days after initiation must be positive: " + daysAfterInitiation);
        }
    }
}
