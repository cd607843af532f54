package dev.hangar.s3api.xml;

import java.util.List;

/**
 * An object's or a bucket's tag set, the document of Put/GetObjectTagging and
 * Put/GetBucketTagging: {@code <Tagging><TagSet><Tag><Key/><Value/></Tag>...</TagSet></Tagging>}.
 * An empty tag set is a valid request (S3 then removes the tags) and what GetObjectTagging answers
 * for an untagged object. The tags keep the order they were sent in; the parsers have checked that
 * the keys are distinct.
 */
public record Tagging(List<Tag> tagSet) {
    private static final Tagging NONE = new Tagging(List.of());

    public Tagging {
        tagSet = List.copyOf(tagSet);
    }

    /** The empty tag set. */
    public static Tagging none() {
        return NONE;
    }
}
