package dev.hangar.s3api.xml;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code CORSConfiguration} document, both ways. The parser refuses what PutBucketCors refuses,
 * with S3's codes: no rule, more than {@link S3Xml#MAXIMUM_CORS_RULES}, a rule without an origin or
 * a method, or an unreadable MaxAgeSeconds (MalformedXML); a method S3 does not support, an origin
 * or allowed header with more than one {@code *}, or an expose header with any (InvalidRequest).
 */
final class CorsDocuments {
    private static final String ROOT = "CORSConfiguration";
    private static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE", "HEAD");

    private CorsDocuments() {}

    static CorsConfiguration parse(InputStream body, int maximumBytes) {
        XmlDocumentReader document = RequestValues.open(body, maximumBytes, ROOT);
        List<CorsRule> rules = new ArrayList<>();
        while (document.nextChild(ROOT)) {
            if (document.isS3Element("CORSRule")) {
                if (rules.size() == S3Xml.MAXIMUM_CORS_RULES) {
                    // MalformedXML, as S3 answered in LocalStack's recordings; refused as soon as known.
                    throw XmlDocumentReader.malformed(
                            "The configuration has more than " + S3Xml.MAXIMUM_CORS_RULES + " CORSRule elements.");
                }
                rules.add(rule(document, "CORSRule " + (rules.size() + 1)));
            } else {
                document.skip();
            }
        }
        document.finish();
        if (rules.isEmpty()) {
            throw XmlDocumentReader.malformed("The configuration has no CORSRule.");
        }
        return new CorsConfiguration(rules);
    }

    private static CorsRule rule(XmlDocumentReader document, String context) {
        @Nullable String id = null;
        @Nullable Integer maxAgeSeconds = null;
        List<String> origins = new ArrayList<>();
        List<String> methods = new ArrayList<>();
        List<String> allowedHeaders = new ArrayList<>();
        List<String> exposeHeaders = new ArrayList<>();
        while (document.nextChild(context)) {
            String name = document.s3LocalName();
            switch (name == null ? "" : name) {
                case "ID" -> id = RequestValues.once(id, document.text(), context, "ID");
                case "AllowedOrigin" -> origins.add(document.text());
                case "AllowedMethod" -> methods.add(document.text().strip());
                case "AllowedHeader" -> allowedHeaders.add(document.text());
                case "ExposeHeader" -> exposeHeaders.add(document.text());
                case "MaxAgeSeconds" -> maxAgeSeconds =
                        RequestValues.once(maxAgeSeconds, maxAge(document.text()), context, "MaxAgeSeconds");
                default -> document.skip();
            }
        }
        if (origins.isEmpty() || methods.isEmpty()) {
            throw XmlDocumentReader.malformed(
                    context + " has to name at least one AllowedOrigin and one AllowedMethod.");
        }
        for (String method : methods) {
            if (!METHODS.contains(method)) {
                throw RequestValues.invalidRequest(
                        "Found unsupported HTTP method in CORS config. Unsupported method is " + method);
            }
        }
        for (String origin : origins) {
            if (origin.isEmpty()) {
                throw XmlDocumentReader.malformed(context + " has an empty AllowedOrigin.");
            }
            refuseSecondWildcard("AllowedOrigin", origin);
        }
        for (String header : allowedHeaders) {
            refuseSecondWildcard("AllowedHeader", header);
        }
        for (String header : exposeHeaders) {
            if (header.indexOf('*') >= 0) {
                throw RequestValues.invalidRequest("ExposeHeader " + header
                        + " contains a wildcard. Wildcards are currently not supported for ExposeHeader.");
            }
        }
        return new CorsRule(id, origins, methods, allowedHeaders, exposeHeaders, maxAgeSeconds);
    }

    private static int maxAge(String text) {
        int seconds = RequestValues.integer(text, "MaxAgeSeconds");
        if (seconds < 0) {
            throw XmlDocumentReader.malformed("MaxAgeSeconds must not be negative.");
        }
        return seconds;
    }

    private static void refuseSecondWildcard(String elementName, String value) {
        int first = value.indexOf('*');
        if (first >= 0 && value.indexOf('*', first + 1) >= 0) {
            throw RequestValues.invalidRequest(
                    elementName + " \"" + value + "\" can not have more than one wildcard.");
        }
    }

    static byte[] render(CorsConfiguration configuration) {
        XmlDocumentWriter document = XmlDocumentWriter.inS3Namespace(ROOT);
        for (CorsRule rule : configuration.rules()) {
            document.start("CORSRule").elementIfPresent("ID", rule.id());
            rule.allowedOrigins().forEach(origin -> document.element("AllowedOrigin", origin));
            rule.allowedMethods().forEach(method -> document.element("AllowedMethod", method));
            rule.allowedHeaders().forEach(header -> document.element("AllowedHeader", header));
            rule.exposeHeaders().forEach(header -> document.element("ExposeHeader", header));
            Integer maxAgeSeconds = rule.maxAgeSeconds();
            if (maxAgeSeconds != null) {
                document.element("MaxAgeSeconds", maxAgeSeconds.longValue());
            }
            document.end();
        }
        return document.finish();
    }
}
