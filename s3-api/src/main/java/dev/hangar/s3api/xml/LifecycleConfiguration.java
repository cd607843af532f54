package dev.hangar.s3api.xml;

import java.util.List;

/**
 * A bucket's lifecycle configuration, the document of PutBucketLifecycleConfiguration and
 * GetBucketLifecycleConfiguration: between 1 and {@link S3Xml#MAXIMUM_LIFECYCLE_RULES} rules, in
 * the order given.
 */
public record LifecycleConfiguration(List<LifecycleRule> rules) {
    public LifecycleConfiguration {
        rules = List.copyOf(rules);
        if (rules.isEmpty() || rules.size() > S3Xml.MAXIMUM_LIFECYCLE_RULES) {
            throw new IllegalArgumentException("a lifecycle configuration has between 1 and "
                    + S3Xml.MAXIMUM_LIFECYCLE_RULES + " rules: " + rules.size());
        }
    }
}
