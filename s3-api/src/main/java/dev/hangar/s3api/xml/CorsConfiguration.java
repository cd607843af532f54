package dev.hangar.s3api.xml;

import java.util.List;

/**
 * A bucket's CORS configuration, the document of PutBucketCors and GetBucketCors (root {@code
 * CORSConfiguration}): between 1 and {@link S3Xml#MAXIMUM_CORS_RULES} rules, in the order given,
 * which is the order S3 evaluates them.
 */
public record CorsConfiguration(List<CorsRule> rules) {
    public CorsConfiguration {
        rules = List.copyOf(rules);
        if (rules.isEmpty() || rules.size() > S3Xml.MAXIMUM_CORS_RULES) {
            throw new IllegalArgumentException(
                    "a CORS configuration has between 1 and " + S3Xml.MAXIMUM_CORS_RULES + " rules: " + rules.size());
        }
    }
}
