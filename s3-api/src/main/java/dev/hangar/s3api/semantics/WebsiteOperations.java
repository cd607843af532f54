package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Operation;
import dev.hangar.s3api.request.S3Request;
import dev.hangar.s3api.website.Website;
import dev.hangar.s3api.website.WebsiteConfiguration;
import dev.hangar.s3api.website.WebsiteErrorPages;
import dev.hangar.s3api.website.WebsiteObject;
import dev.hangar.s3api.website.WebsiteOutcome;
import dev.hangar.s3api.website.WebsiteRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The static website endpoint: a request for a bucket named by its Host, resolved against the
 * bucket's website configuration by {@link Website#resolve} and answered with an object, a redirect
 * or S3's HTML error page. Every key is looked up for the caller (anonymous, on the website
 * listener) as a GetObject would be: a key the caller may not read is {@code AccessDenied}, a key
 * it may read that does not exist is {@code NoSuchKey}.
 */
final class WebsiteOperations {
    static final String HTML = "text/html; charset=utf-8";
    private static final String REDIRECT_LOCATION = "x-amz-website-redirect-location";
    private static final S3Operation GET_OBJECT = new S3Operation.GetObject();
    /** Range and preconditions apply to the page asked for, not to an error document served instead. */
    private static final Set<String> READ_ONLY_HEADERS = Set.of(
            "range", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since");

    private final BucketConfigurations configurations;
    private final AccessGuard guard;
    private final ObjectOperations objects;

    WebsiteOperations(BucketConfigurations configurations, AccessGuard guard, ObjectOperations objects) {
        this.configurations = configurations;
        this.guard = guard;
        this.objects = objects;
    }

    /**
     * Answers a website request; never throws {@link S3Exception}: every S3 error becomes its HTML
     * page (headers only for {@code HEAD}).
     *
     * @param request the bucket the Host names, the percent-decoded key (null or empty for the root),
     *     method, headers and request id
     */
    S3Response serve(S3Request request, WebsiteRequest website, Caller caller) {
        String bucket = request.requireBucket();
        String method = request.method();
        boolean headOnly = method.equals("HEAD");
        try {
            if (!headOnly && !method.equals("GET")) {
                return page(S3Error.METHOD_NOT_ALLOWED.status(),
                        WebsiteErrorPages.renderMethodNotAllowed(method, request.requestId(), request.requestId()),
                        false);
            }
            objects.requireBucket(bucket);
            WebsiteConfiguration configuration = configurations.website(bucket)
                    .orElseThrow(() -> new S3Exception(S3Error.NO_SUCH_WEBSITE_CONFIGURATION));
            WebsiteOutcome outcome = Website.resolve(configuration, website, key -> lookup(request, key, caller));
            return switch (outcome) {
                case WebsiteOutcome.Serve serve -> object(request, serve, headOnly);
                case WebsiteOutcome.Redirect redirect ->
                        S3Response.empty(redirect.status(), Map.of("Location", redirect.location()));
                case WebsiteOutcome.ErrorPage errorPage -> page(errorPage.status(),
                        WebsiteErrorPages.render(errorPage, request.requestId(), request.requestId()), headOnly);
            };
        } catch (S3Exception e) {
            return errorPage(e, bucket, request.requestId(), headOnly);
        }
    }

    /** The object a key names, if the caller may read it; throws AccessDenied when it may not. */
    private Optional<WebsiteObject> lookup(S3Request request, String key, Caller caller) {
        guard.authorize(GET_OBJECT, objectRequest(request, key, request.headers()), caller);
        ObjectVersion version;
        try {
            version = objects.find(request.requireBucket(), key);
        } catch (S3Exception e) {
            if (e.error() == S3Error.NO_SUCH_KEY) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(new WebsiteObject(key, version.headers().get(REDIRECT_LOCATION)));
    }

    /**
     * The object's body and headers, as GetObject or HeadObject answers them: with range and
     * preconditions for the page asked for (200, 206, 304), without for an error document, which is
     * sent with the error's status.
     */
    private S3Response object(S3Request request, WebsiteOutcome.Serve serve, boolean headOnly) {
        boolean errorDocument = serve.status() != 200;
        RequestHeaders headers = errorDocument ? withoutReadConditions(request.headers()) : request.headers();
        S3Response response = objects.get(objectRequest(request, serve.key(), headers), headOnly);
        if (!errorDocument) {
            return response;
        }
        return new S3Response(serve.status(), response.headers(), response.body());
    }

    /** A GetObject of the key, without query parameters: website requests have no sub-resources. */
    private static S3Request objectRequest(S3Request request, String key, RequestHeaders headers) {
        return new S3Request("GET", request.requireBucket(), key, Map.of(), headers, request.host(),
                request.requestId());
    }

    private static RequestHeaders withoutReadConditions(RequestHeaders headers) {
        Map<String, List<String>> kept = new TreeMap<>(headers.values());
        kept.keySet().removeAll(READ_ONLY_HEADERS);
        return new RequestHeaders(kept);
    }

    private static S3Response errorPage(S3Exception error, String bucket, String requestId, boolean headOnly) {
        S3Error code = error.error();
        String html = switch (code) {
            case NO_SUCH_BUCKET, NO_SUCH_WEBSITE_CONFIGURATION ->
                    WebsiteErrorPages.renderBucketError(code, bucket, requestId, requestId);
            default -> WebsiteErrorPages.render(
                    new WebsiteOutcome.ErrorPage(code.status(), code.code(), error.getMessage(), null, null),
                    requestId, requestId);
        };
        return page(code.status(), html, headOnly);
    }

    private static S3Response page(int status, String html, boolean headOnly) {
        if (headOnly) {
            return S3Response.empty(status, Map.of("Content-Type", HTML));
        }
        return new S3Response(status, Map.of(), new S3Response.Body.Bytes(html.getBytes(StandardCharsets.UTF_8), HTML));
    }
}
