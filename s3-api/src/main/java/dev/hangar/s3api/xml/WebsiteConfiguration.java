package dev.hangar.s3api.xml;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A bucket's website configuration, the document of PutBucketWebsite and GetBucketWebsite. Either
 * {@code RedirectAllRequestsTo} alone, or {@code IndexDocument} with an optional {@code
 * ErrorDocument} and optional {@code RoutingRules}. Rendered in that order: {@code
 * RedirectAllRequestsTo}, or {@code IndexDocument} ({@code Suffix}), {@code ErrorDocument} ({@code
 * Key}), {@code RoutingRules} (every {@code RoutingRule}), the 2006 schema's sequence and the order
 * of the API reference's samples.
 *
 * @param indexDocumentSuffix the {@code IndexDocument}'s {@code Suffix}: not empty, no {@code /};
 *     null exactly when the bucket redirects all requests
 * @param errorDocumentKey the {@code ErrorDocument}'s {@code Key}, or null
 * @param redirectAllRequestsTo where every request goes, or null
 * @param routingRules at most {@link S3Xml#MAXIMUM_ROUTING_RULES}, in the order S3 evaluates them;
 *     empty for none (S3 refuses an empty {@code RoutingRules} element)
 */
public record WebsiteConfiguration(
        @Nullable String indexDocumentSuffix,
        @Nullable String errorDocumentKey,
        @Nullable RedirectAllRequestsTo redirectAllRequestsTo,
        List<RoutingRule> routingRules) {

    public WebsiteConfiguration {
        routingRules = List.copyOf(routingRules);
        if (redirectAllRequestsTo != null) {
            if (indexDocumentSuffix != null || errorDocumentKey != null || !routingRules.isEmpty()) {
                throw new IllegalArgumentException("RedirectAllRequestsTo excludes every other element");
            }
        } else if (indexDocumentSuffix == null || indexDocumentSuffix.isEmpty() || indexDocumentSuffix.contains("/")) {
            throw new IllegalArgumentException(
                    "without RedirectAllRequestsTo, an IndexDocument suffix without '/' is required: "
                            + indexDocumentSuffix);
        }
        if (routingRules.size() > S3Xml.MAXIMUM_ROUTING_RULES) {
            throw new IllegalArgumentException("at most " + S3Xml.MAXIMUM_ROUTING_RULES + " routing rules");
        }
    }

    /** A website that serves {@code suffix} for directory requests and {@code errorKey} (or nothing) on errors. */
    public static WebsiteConfiguration index(String suffix, @Nullable String errorKey) {
        return new WebsiteConfiguration(suffix, errorKey, null, List.of());
    }

    /** A website that sends every request to another host. */
    public static WebsiteConfiguration redirectAll(RedirectAllRequestsTo redirect) {
        return new WebsiteConfiguration(null, null, redirect, List.of());
    }
}
