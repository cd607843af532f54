package dev.hangar.distribution;

import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.web.S3Api;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The web console on the management port: a page of static files under {@value #PATH}/, and the calls it makes.
 * Those are the administration API under {@code /actuator} and, under {@value #S3_API_PATH}, the S3 API path style
 * as the root key; both need the administration token ({@link AdministrationFilter} guards them), which the page
 * asks for and keeps in the browser tab's session storage only. The page itself holds nothing but code, so it is
 * served without the token. It runs no script but its own (a content security policy says so) and may not be
 * framed by another page.
 */
final class Console {
    static final String PATH = "/console";
    static final String S3_API_PATH = PATH + "/api/s3";
    private static final String FILES = "dev/hangar/distribution/console/";
    private static final String SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none';"
            + " base-uri 'none'";

    private Console() {}

    static RouterFunction<ServerResponse> routes(S3Api api, AccessKey root) {
        RouterFunction<ServerResponse> page = RouterFunctions.route()
                .GET(PATH, request -> ServerResponse.permanentRedirect(URI.create(PATH + "/")).build())
                .GET(PATH + "/", request -> ServerResponse.ok()
                        .contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                        .bodyValue(new ClassPathResource(FILES + "index.html")))
                .add(RouterFunctions.resources(PATH + "/**", new ClassPathResource(FILES)))
                .filter((request, next) -> {
                    harden(request.exchange().getResponse().getHeaders());
                    return next.handle(request);
                })
                .build();
        // The S3 routes first: the static files' pattern would otherwise take their GETs.
        return api.delegatedRoutes(S3_API_PATH, () -> root).and(page);
    }

    /** The page's responses: no caching of code that changes with the version, no framing, no foreign scripts. */
    private static void harden(HttpHeaders headers) {
        headers.set("Content-Security-Policy", SECURITY_POLICY);
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "no-referrer");
        headers.setCacheControl(CacheControl.noCache());
    }
}
