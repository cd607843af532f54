package dev.hangar.s3api.xml;

/**
 * What a tag set is for, which decides how many tags it may hold and how S3 words the refusal of
 * one more: 400 {@code InvalidTag} in both cases, with the message AWS sends.
 */
public enum TaggedResource {
    /** An object: at most 10 tags. */
    OBJECT(10, "Object tags cannot be greater than 10"),
    /** A bucket: at most 50 tags. */
    BUCKET(50, "Bucket tag count cannot be greater than 50");

    private final int maximumTags;
    private final String tooManyTagsMessage;

    TaggedResource(int maximumTags, String tooManyTagsMessage) {
        this.maximumTags = maximumTags;
        this.tooManyTagsMessage = tooManyTagsMessage;
    }

    public int maximumTags() {
        return maximumTags;
    }

    /** The message of the {@code BadRequest} S3 answers for a tag set over {@link #maximumTags()}. */
    public String tooManyTagsMessage() {
        return tooManyTagsMessage;
    }
}
