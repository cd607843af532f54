package dev.hangar.s3api.website;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.website.WebsiteOutcome.ErrorDocumentFailure;
import dev.hangar.s3api.website.WebsiteOutcome.ErrorPage;
import dev.hangar.s3api.website.WebsiteOutcome.Serve;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * S3 static website hosting: resolving a request against a bucket's website configuration, and
 * refusing configurations as PutBucketWebsite does. See the package documentation for the order
 * of decisions.
 */
public final class Website {
    /** The most routing rules one configuration may hold. */
    public static final int MAX_ROUTING_RULES = 50;

    private static final int MOVED_PERMANENTLY = 301;
    private static final int FOUND = 302;
    private static final int OK = 200;

    private static final String INVALID_PROTOCOL = "Invalid protocol, protocol can be http or https. "
            + "If not defined the protocol will be selected automatically.";

    private Website() {}

    /**
     * Decides what a {@code GET} or {@code HEAD} to the website endpoint answers.
     *
     * @param configuration a configuration {@link #validate} accepted
     * @param lookup finds a key the requester may read: empty when it does not exist, or throws
     *     {@link S3Exception} with {@link S3Error#ACCESS_DENIED} when the requester may not read it
     *     (or, lacking {@code s3:ListBucket}, may not learn that it is missing). Other exceptions
     *     pass through. Called at most three times: the key, the folder's index document, the
     *     error document.
     * @throws IllegalArgumentException for a configuration with neither {@code RedirectAllRequestsTo}
     *     nor an index document, which {@link #validate} refuses
     */
    public static WebsiteOutcome resolve(
            WebsiteConfiguration configuration,
            WebsiteRequest request,
            Function<String, Optional<WebsiteObject>> lookup) {
        RedirectAll redirectAll = configuration.redirectAll();
        if (redirectAll != null) {
            String protocol = redirectAll.protocol() != null ? redirectAll.protocol() : request.protocol();
            String query = request.rawQuery() == null || request.rawQuery().isEmpty() ? "" : "?" + request.rawQuery();
            return new WebsiteOutcome.Redirect(MOVED_PERMANENTLY,
                    protocol + "://" + redirectAll.hostName() + "/" + Locations.encodeKey(request.key()) + query);
        }
        String indexSuffix = configuration.indexSuffix();
        if (indexSuffix == null) {
            throw new IllegalArgumentException("a website configuration without RedirectAllRequestsTo needs an index "
                    + "document suffix");
        }

        String requestedKey = request.key();
        for (RoutingRule rule : configuration.rules()) {
            if (rule.httpErrorCodeReturnedEquals() == null && prefixMatches(rule, requestedKey)) {
                return redirect(rule, requestedKey, request);
            }
        }

        boolean folder = requestedKey.isEmpty() || requestedKey.endsWith("/");
        String key = folder ? requestedKey + indexSuffix : requestedKey;
        Lookup found = Lookup.of(lookup, key);
        if (found.object() != null) {
            return serve(found.object(), OK);
        }
        if (!folder && Lookup.of(lookup, requestedKey + "/" + indexSuffix).object() != null) {
            return new WebsiteOutcome.Redirect(FOUND, "/" + Locations.encodeKey(requestedKey) + "/");
        }

        S3Error error = found.error();
        for (RoutingRule rule : configuration.rules()) {
            Integer code = rule.httpErrorCodeReturnedEquals();
            if (code != null && code == error.status() && prefixMatches(rule, requestedKey)) {
                return redirect(rule, requestedKey, request);
            }
        }

        @Nullable String shownKey = error == S3Error.NO_SUCH_KEY ? key : null;
        String errorKey = configuration.errorKey();
        if (errorKey == null) {
            return new ErrorPage(error.status(), error.code(), error.message(), shownKey, null);
        }
        Lookup errorDocument = Lookup.of(lookup, errorKey);
        if (errorDocument.object() != null) {
            return serve(errorDocument.object(), error.status());
        }
        S3Error documentError = errorDocument.error();
        var failure = new ErrorDocumentFailure(documentError.code(), documentError.message(),
                documentError == S3Error.NO_SUCH_KEY ? errorKey : null);
        return new ErrorPage(error.status(), error.code(), error.message(), shownKey, failure);
    }

    /**
     * Refuses a configuration PutBucketWebsite refuses, with S3's code and message:
     * <ul>
     *   <li>{@code RedirectAllRequestsTo} with anything else ({@code InvalidArgument}), with an
     *       empty host name or a protocol other than {@code http} and {@code https}
     *       ({@code InvalidRequest});</li>
     *   <li>no index document ({@code InvalidArgument}), or a suffix that is empty or holds a
     *       slash ({@code InvalidArgument}); an empty error document key ({@code MalformedXML});</li>
     *   <li>more than {@value #MAX_ROUTING_RULES} routing rules ({@code InvalidRequest});</li>
     *   <li>in a rule: an {@code HttpErrorCodeReturnedEquals} outside 4XX and 5XX, a redirect with
     *       no element ({@code MalformedXML}), an empty host name, a protocol other than
     *       {@code http} and {@code https}, an {@code HttpRedirectCode} outside 301 to 399, or both
     *       {@code ReplaceKeyPrefixWith} and {@code ReplaceKeyWith} ({@code InvalidRequest}).</li>
     * </ul>
     * AWS's {@code InvalidArgument} document also names the argument: {@code ArgumentName}
     * {@code IndexDocument} or {@code RedirectAllRequestsTo}, with its {@code ArgumentValue}.
     * An empty {@code <Condition/>} is refused by S3 too ("Condition cannot be empty. To redirect
     * all requests without a condition, the condition element shouldn't be present."), but this
     * model cannot tell it from no condition: that check belongs to the XML reader.
     *
     * @throws S3Exception with the error and message S3 answers
     */
    public static void validate(WebsiteConfiguration configuration) {
        RedirectAll redirectAll = configuration.redirectAll();
        if (redirectAll != null) {
            if (configuration.indexSuffix() != null || configuration.errorKey() != null
                    || !configuration.rules().isEmpty()) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT,
                        "RedirectAllRequestsTo cannot be provided in conjunction with other Routing Rules.");
            }
            if (redirectAll.hostName().isEmpty()) {
                throw new S3Exception(S3Error.INVALID_REQUEST,
                        "A host name must be provided to redirect all requests (e.g. \"example.com\").");
            }
            checkProtocol(redirectAll.protocol());
            return;
        }
        String indexSuffix = configuration.indexSuffix();
        if (indexSuffix == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "A value for IndexDocument Suffix must be provided if RedirectAllRequestsTo is empty");
        }
        if (indexSuffix.isEmpty() || indexSuffix.contains("/")) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "The IndexDocument Suffix is not well formed");
        }
        if (configuration.errorKey() != null && configuration.errorKey().isEmpty()) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        List<RoutingRule> rules = configuration.rules();
        if (rules.size() > MAX_ROUTING_RULES) {
            throw new S3Exception(S3Error.INVALID_REQUEST, rules.size() + " routing rules provided, the number of "
                    + "routing rules in a website configuration is limited to " + MAX_ROUTING_RULES + ".");
        }
        for (RoutingRule rule : rules) {
            checkRule(rule);
        }
    }

    private static void checkRule(RoutingRule rule) {
        Integer errorCode = rule.httpErrorCodeReturnedEquals();
        if (errorCode != null && (errorCode < 400 || errorCode > 599)) {
            throw new S3Exception(S3Error.INVALID_REQUEST,
                    "The provided HTTP error code (" + errorCode + ") is not valid. Valid codes are 4XX or 5XX.");
        }
        Redirect redirect = rule.redirect();
        if (redirect.hostName() == null && redirect.protocol() == null && redirect.httpRedirectCode() == null
                && redirect.replaceKeyPrefixWith() == null && redirect.replaceKeyWith() == null) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        if (redirect.hostName() != null && redirect.hostName().isEmpty()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The HostName cannot be blank. To redirect within the "
                    + "same domain, the element should not be present.");
        }
        checkProtocol(redirect.protocol());
        Integer redirectCode = redirect.httpRedirectCode();
        if (redirectCode != null && (redirectCode <= 300 || redirectCode > 399)) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "The provided HTTP redirect code (" + redirectCode
                    + ") is not valid. Valid codes are 3XX except 300.");
        }
        if (redirect.replaceKeyPrefixWith() != null && redirect.replaceKeyWith() != null) {
            throw new S3Exception(S3Error.INVALID_REQUEST,
                    "You can only define ReplaceKeyPrefix or ReplaceKey but not both.");
        }
    }

    private static void checkProtocol(@Nullable String protocol) {
        if (protocol != null && !protocol.equals("http") && !protocol.equals("https")) {
            throw new S3Exception(S3Error.INVALID_REQUEST, INVALID_PROTOCOL);
        }
    }

    private static boolean prefixMatches(RoutingRule rule, String key) {
        return rule.keyPrefixEquals() == null || key.startsWith(rule.keyPrefixEquals());
    }

    private static WebsiteOutcome serve(WebsiteObject object, int status) {
        if (object.redirectLocation() != null) {
            return new WebsiteOutcome.Redirect(MOVED_PERMANENTLY, object.redirectLocation());
        }
        return new Serve(object.key(), status);
    }

    /**
     * The redirect a routing rule makes: its host and protocol or the request's, and the requested
     * key with its prefix or the whole of it replaced. Configured text goes into the
     * {@code Location} as written (owners use {@code #!/} in {@code ReplaceKeyPrefixWith} for
     * single-page applications); the part taken from the request is percent-encoded.
     */
    private static WebsiteOutcome.Redirect redirect(RoutingRule rule, String requestedKey, WebsiteRequest request) {
        Redirect redirect = rule.redirect();
        String protocol = redirect.protocol() != null ? redirect.protocol() : request.protocol();
        String host = redirect.hostName() != null ? redirect.hostName() : request.host();
        String path;
        if (redirect.replaceKeyWith() != null) {
            path = Locations.encodeConfigured(redirect.replaceKeyWith());
        } else if (redirect.replaceKeyPrefixWith() != null) {
            String prefix = rule.keyPrefixEquals() == null ? "" : rule.keyPrefixEquals();
            path = Locations.encodeConfigured(redirect.replaceKeyPrefixWith())
                    + Locations.encodeKey(requestedKey.substring(prefix.length()));
        } else {
            path = Locations.encodeKey(requestedKey);
        }
        int status = redirect.httpRedirectCode() != null ? redirect.httpRedirectCode() : MOVED_PERMANENTLY;
        return new WebsiteOutcome.Redirect(status, protocol + "://" + host + "/" + path);
    }

    /**
     * What looking a key up gave: the object, or why there is none ({@code error} is
     * {@link S3Error#NO_SUCH_KEY} or {@link S3Error#ACCESS_DENIED}, and means nothing when the
     * object was found).
     */
    private record Lookup(@Nullable WebsiteObject object, S3Error error) {
        static Lookup of(Function<String, Optional<WebsiteObject>> lookup, String key) {
            Optional<WebsiteObject> object;
            try {
                object = lookup.apply(key);
            } catch (S3Exception e) {
                return switch (e.error()) {
                    case ACCESS_DENIED -> new Lookup(null, S3Error.ACCESS_DENIED);
                    case NO_SUCH_KEY -> new Lookup(null, S3Error.NO_SUCH_KEY);
                    default -> throw e;
                };
            }
            return object.map(found -> new Lookup(found, S3Error.NO_SUCH_KEY))
                    .orElseGet(() -> new Lookup(null, S3Error.NO_SUCH_KEY));
        }
    }
}
