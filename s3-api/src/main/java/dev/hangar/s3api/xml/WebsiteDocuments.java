package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code WebsiteConfiguration} document, both ways. The whole document is read before it is
 * judged, and the checks run in the order S3's answers suggest: the choice between redirecting
 * everything and an index document first, then the documents, then each routing rule. Codes and
 * messages are S3's as recorded (LocalStack's snapshots against S3, ceph s3-tests' notes).
 */
final class WebsiteDocuments {
    private static final String ROOT = "WebsiteConfiguration";
    private static final Set<String> SUFFIX = Set.of("Suffix");
    private static final Set<String> KEY = Set.of("Key");
    private static final Set<String> REDIRECT_ALL_ELEMENTS = Set.of("HostName", "Protocol");
    private static final Set<String> CONDITION_ELEMENTS = Set.of("KeyPrefixEquals", "HttpErrorCodeReturnedEquals");
    private static final Set<String> REDIRECT_ELEMENTS =
            Set.of("Protocol", "HostName", "ReplaceKeyPrefixWith", "ReplaceKeyWith", "HttpRedirectCode");
    private static final String PROTOCOL_MESSAGE = "Invalid protocol, protocol can be http or https. "
            + "If not defined the protocol will be selected automatically.";

    private WebsiteDocuments() {}

    /** A routing rule as read, judged once the whole document is known. */
    private record RawRule(@Nullable Map<String, String> condition, @Nullable Map<String, String> redirect) {}

    static WebsiteConfiguration parse(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        @Nullable Map<String, String> index = null;
        @Nullable Map<String, String> error = null;
        @Nullable Map<String, String> redirectAll = null;
        @Nullable List<RawRule> rules = null;
        while (document.nextChild(ROOT)) {
            String name = document.s3LocalName();
            switch (name == null ? "" : name) {
                case "IndexDocument" -> index =
                        RequestValues.once(index, document.readLeaves(SUFFIX, "IndexDocument"), ROOT, "IndexDocument");
                case "ErrorDocument" -> error =
                        RequestValues.once(error, document.readLeaves(KEY, "ErrorDocument"), ROOT, "ErrorDocument");
                case "RedirectAllRequestsTo" -> redirectAll = RequestValues.once(redirectAll,
                        document.readLeaves(REDIRECT_ALL_ELEMENTS, "RedirectAllRequestsTo"), ROOT,
                        "RedirectAllRequestsTo");
                case "RoutingRules" -> rules = RequestValues.once(rules, routingRules(document), ROOT, "RoutingRules");
                default -> document.skip();
            }
        }
        document.finish();

        if (redirectAll != null) {
            if (index != null || error != null || rules != null) {
                throw RequestValues.invalidArgument(
                        "RedirectAllRequestsTo cannot be provided in conjunction with other Routing Rules.");
            }
            String hostName = redirectAll.get("HostName");
            if (hostName == null || hostName.isBlank()) {
                throw XmlDocumentReader.malformed("RedirectAllRequestsTo has no HostName.");
            }
            return WebsiteConfiguration.redirectAll(new RedirectAllRequestsTo(hostName, protocol(redirectAll)));
        }
        if (index == null) {
            throw RequestValues.invalidArgument(
                    "A value for IndexDocument Suffix must be provided if RedirectAllRequestsTo is empty");
        }
        String suffix = index.get("Suffix");
        if (suffix == null || suffix.isEmpty() || suffix.contains("/")) {
            throw RequestValues.invalidArgument("The IndexDocument Suffix is not well formed");
        }
        @Nullable String errorKey = null;
        if (error != null) {
            errorKey = error.get("Key");
            if (errorKey == null) {
                throw XmlDocumentReader.malformed("ErrorDocument has no Key.");
            }
            if (errorKey.isEmpty()) {
                throw RequestValues.invalidArgument("The ErrorDocument Key is not well formed");
            }
        }
        List<RoutingRule> routingRules = new ArrayList<>();
        if (rules != null) {
            if (rules.isEmpty()) {
                throw XmlDocumentReader.malformed("RoutingRules holds no RoutingRule.");
            }
            if (rules.size() > S3Xml.MAXIMUM_ROUTING_RULES) {
                throw RequestValues.invalidRequest(rules.size() + " routing rules provided, the number of routing "
                        + "rules in a website configuration is limited to " + S3Xml.MAXIMUM_ROUTING_RULES + ".");
            }
            for (int position = 0; position < rules.size(); position++) {
                routingRules.add(routingRule(rules.get(position), "RoutingRule " + (position + 1)));
            }
        }
        return new WebsiteConfiguration(suffix, errorKey, null, routingRules);
    }

    private static List<RawRule> routingRules(XmlDocumentReader document) {
        List<RawRule> rules = new ArrayList<>();
        while (document.nextChild("RoutingRules")) {
            if (document.isS3Element("RoutingRule")) {
                String context = "RoutingRule " + (rules.size() + 1);
                @Nullable Map<String, String> condition = null;
                @Nullable Map<String, String> redirect = null;
                while (document.nextChild(context)) {
                    String name = document.s3LocalName();
                    if ("Condition".equals(name)) {
                        condition = RequestValues.once(
                                condition, document.readLeaves(CONDITION_ELEMENTS, "Condition"), context, "Condition");
                    } else if ("Redirect".equals(name)) {
                        redirect = RequestValues.once(
                                redirect, document.readLeaves(REDIRECT_ELEMENTS, "Redirect"), context, "Redirect");
                    } else {
                        document.skip();
                    }
                }
                rules.add(new RawRule(condition, redirect));
            } else {
                document.skip();
            }
        }
        return rules;
    }

    private static RoutingRule routingRule(RawRule raw, String context) {
        RoutingRule.@Nullable Condition condition = null;
        Map<String, String> rawCondition = raw.condition();
        if (rawCondition != null) {
            if (rawCondition.isEmpty()) {
                throw RequestValues.invalidRequest("Condition cannot be empty. To redirect all requests without a "
                        + "condition, the condition element shouldn't be present.");
            }
            @Nullable Integer errorCode = null;
            String errorCodeText = rawCondition.get("HttpErrorCodeReturnedEquals");
            if (errorCodeText != null) {
                errorCode = RequestValues.integer(errorCodeText, "HttpErrorCodeReturnedEquals");
                if (errorCode < 400 || errorCode > 599) {
                    throw RequestValues.invalidRequest("The provided HTTP error code (" + errorCode
                            + ") is not valid. Valid codes are 4XX or 5XX.");
                }
            }
            condition = new RoutingRule.Condition(rawCondition.get("KeyPrefixEquals"), errorCode);
        }
        Map<String, String> redirect = raw.redirect();
        if (redirect == null) {
            throw XmlDocumentReader.malformed(context + " has no Redirect.");
        }
        if (redirect.containsKey("ReplaceKeyPrefixWith") && redirect.containsKey("ReplaceKeyWith")) {
            throw RequestValues.invalidRequest("You can only define ReplaceKeyPrefix or ReplaceKey but not both.");
        }
        @Nullable Integer redirectCode = null;
        String redirectCodeText = redirect.get("HttpRedirectCode");
        if (redirectCodeText != null) {
            redirectCode = RequestValues.integer(redirectCodeText, "HttpRedirectCode");
            if (redirectCode <= 300 || redirectCode > 399) {
                throw RequestValues.invalidRequest("The provided HTTP redirect code (" + redirectCode
                        + ") is not valid. Valid codes are 3XX except 300.");
            }
        }
        return new RoutingRule(condition, new RoutingRule.Redirect(
                protocol(redirect),
                redirect.get("HostName"),
                redirect.get("ReplaceKeyPrefixWith"),
                redirect.get("ReplaceKeyWith"),
                redirectCode));
    }

    private static @Nullable String protocol(Map<String, String> leaves) {
        String protocol = leaves.get("Protocol");
        if (protocol == null) {
            return null;
        }
        String value = protocol.strip();
        if (!value.equals("http") && !value.equals("https")) {
            throw RequestValues.invalidRequest(PROTOCOL_MESSAGE);
        }
        return value;
    }

    static byte[] render(WebsiteConfiguration configuration) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace(ROOT);
        RedirectAllRequestsTo redirectAll = configuration.redirectAllRequestsTo();
        if (redirectAll != null) {
            return document.start("RedirectAllRequestsTo")
                    .element("HostName", redirectAll.hostName())
                    .elementIfPresent("Protocol", redirectAll.protocol())
                    .end()
                    .finish();
        }
        String suffix = configuration.indexDocumentSuffix();
        if (suffix != null) {
            document.start("IndexDocument").element("Suffix", suffix).end();
        }
        String errorKey = configuration.errorDocumentKey();
        if (errorKey != null) {
            document.start("ErrorDocument").element("Key", errorKey).end();
        }
        if (!configuration.routingRules().isEmpty()) {
            document.start("RoutingRules");
            for (RoutingRule rule : configuration.routingRules()) {
                document.start("RoutingRule");
                RoutingRule.Condition condition = rule.condition();
                if (condition != null) {
                    document.start("Condition").elementIfPresent("KeyPrefixEquals", condition.keyPrefixEquals());
                    Integer errorCode = condition.httpErrorCodeReturnedEquals();
                    if (errorCode != null) {
                        document.element("HttpErrorCodeReturnedEquals", errorCode.longValue());
                    }
                    document.end();
                }
                RoutingRule.Redirect redirect = rule.redirect();
                document.start("Redirect")
                        .elementIfPresent("Protocol", redirect.protocol())
                        .elementIfPresent("HostName", redirect.hostName())
                        .elementIfPresent("ReplaceKeyPrefixWith", redirect.replaceKeyPrefixWith())
                        .elementIfPresent("ReplaceKeyWith", redirect.replaceKeyWith());
                Integer redirectCode = redirect.httpRedirectCode();
                if (redirectCode != null) {
                    document.element("HttpRedirectCode", redirectCode.longValue());
                }
                document.end().end();
            }
            document.end();
        }
        return document.finish();
    }
}
