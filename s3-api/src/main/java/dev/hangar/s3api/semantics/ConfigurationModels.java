package dev.hangar.s3api.semantics;

import dev.hangar.s3api.cors.CorsConfiguration;
import dev.hangar.s3api.cors.CorsRule;
import dev.hangar.s3api.lifecycle.LifecycleRule;
import dev.hangar.s3api.lifecycle.RuleFilter;
import dev.hangar.s3api.website.Redirect;
import dev.hangar.s3api.website.RedirectAll;
import dev.hangar.s3api.website.RoutingRule;
import dev.hangar.s3api.website.WebsiteConfiguration;
import dev.hangar.s3api.xml.LifecycleConfiguration;
import dev.hangar.s3api.xml.LifecycleExpiration;
import dev.hangar.s3api.xml.LifecycleFilter;
import dev.hangar.s3api.xml.Tag;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps the parsed XML documents onto the models the CORS, website and lifecycle rules evaluate: the
 * XML layer mirrors the wire, the models what the rules need.
 */
final class ConfigurationModels {
    private ConfigurationModels() {}

    static CorsConfiguration cors(dev.hangar.s3api.xml.CorsConfiguration document) {
        return new CorsConfiguration(document.rules().stream()
                .map(rule -> new CorsRule(rule.id(), rule.allowedOrigins(), rule.allowedMethods(), rule.allowedHeaders(),
                        rule.exposeHeaders(), rule.maxAgeSeconds()))
                .toList());
    }

    static WebsiteConfiguration website(dev.hangar.s3api.xml.WebsiteConfiguration document) {
        RedirectAll redirectAll = document.redirectAllRequestsTo() == null
                ? null
                : new RedirectAll(document.redirectAllRequestsTo().hostName(), document.redirectAllRequestsTo().protocol());
        List<RoutingRule> rules = document.routingRules().stream()
                .map(rule -> new RoutingRule(
                        rule.condition() == null ? null : rule.condition().keyPrefixEquals(),
                        rule.condition() == null ? null : rule.condition().httpErrorCodeReturnedEquals(),
                        new Redirect(rule.redirect().hostName(), rule.redirect().protocol(),
                                rule.redirect().httpRedirectCode(), rule.redirect().replaceKeyPrefixWith(),
                                rule.redirect().replaceKeyWith())))
                .toList();
        return new WebsiteConfiguration(document.indexDocumentSuffix(), document.errorDocumentKey(), redirectAll, rules);
    }

    static List<LifecycleRule> lifecycle(LifecycleConfiguration document) {
        return document.rules().stream().map(ConfigurationModels::lifecycleRule).toList();
    }

    private static LifecycleRule lifecycleRule(dev.hangar.s3api.xml.LifecycleRule rule) {
        LifecycleExpiration expiration = rule.expiration();
        Integer expirationDays = expiration == null ? null : expiration.days();
        LocalDate expirationDate = expiration == null || expiration.date() == null
                ? null
                : LocalDate.ofInstant(expiration.date(), ZoneOffset.UTC);
        boolean expiredMarkers = expiration != null && Boolean.TRUE.equals(expiration.expiredObjectDeleteMarker());
        Integer noncurrentDays = rule.noncurrentVersionExpiration() == null
                ? null
                : rule.noncurrentVersionExpiration().noncurrentDays();
        Integer newerNoncurrent = rule.noncurrentVersionExpiration() == null
                ? null
                : rule.noncurrentVersionExpiration().newerNoncurrentVersions();
        Integer abortDays = rule.abortIncompleteMultipartUpload() == null
                ? null
                : rule.abortIncompleteMultipartUpload().daysAfterInitiation();
        return new LifecycleRule(rule.id(), rule.status() == dev.hangar.s3api.xml.LifecycleRule.Status.ENABLED,
                filter(rule), expirationDays, expirationDate, expiredMarkers, noncurrentDays, newerNoncurrent, abortDays);
    }

    private static RuleFilter filter(dev.hangar.s3api.xml.LifecycleRule rule) {
        LifecycleFilter filter = rule.filter();
        if (filter == null) {
            return RuleFilter.prefix(rule.prefix() == null ? "" : rule.prefix());
        }
        if (filter.and() != null) {
            LifecycleFilter.And and = filter.and();
            return new RuleFilter(and.prefix() == null ? "" : and.prefix(), tags(and.tags()),
                    and.objectSizeGreaterThan(), and.objectSizeLessThan());
        }
        return new RuleFilter(filter.prefix() == null ? "" : filter.prefix(),
                filter.tag() == null ? Map.of() : tags(List.of(filter.tag())), filter.objectSizeGreaterThan(),
                filter.objectSizeLessThan());
    }

    private static Map<String, String> tags(List<Tag> tags) {
        Map<String, String> map = new LinkedHashMap<>();
        tags.forEach(tag -> map.put(tag.key(), tag.value()));
        return map;
    }
}
