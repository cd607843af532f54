package dev.hangar.s3api.website;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A bucket's website configuration, values as the client sent them. Either {@code redirectAll}
 * alone, or an index document suffix with an optional error document and routing rules; {@link
 * Website#validate} enforces that, the constructor does not, so that any document can be judged.
 *
 * @param indexSuffix the {@code IndexDocument} {@code Suffix}, e.g. {@code index.html}
 * @param errorKey the {@code ErrorDocument} {@code Key}
 * @param redirectAll {@code RedirectAllRequestsTo}
 * @param rules the {@code RoutingRules}, in the order S3 evaluates them
 */
public record WebsiteConfiguration(
        @Nullable String indexSuffix,
        @Nullable String errorKey,
        @Nullable RedirectAll redirectAll,
        List<RoutingRule> rules) {

    public WebsiteConfiguration {
        rules = List.copyOf(rules);
    }
}
