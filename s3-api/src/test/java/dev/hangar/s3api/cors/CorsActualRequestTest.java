package dev.hangar.s3api.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.List;
import org.junit.jupiter.api.Test;

/** CORS headers on requests that are not preflights, as LocalStack recorded them against S3. */
class CorsActualRequestTest {
    private static final String VARY = "Origin, Access-Control-Request-Headers, Access-Control-Request-Method";

    private final CorsConfiguration localhost = new CorsConfiguration(List.of(new CorsRule(null,
            List.of("https://localhost:4200"), List.of("GET", "PUT"), List.of("*"), List.of(), 3000)));

    @Test
    void anAllowedOriginGetsTheRulesHeadersButNoAllowedHeaders() {
        assertThat(Cors.actualRequestHeaders(localhost, "https://localhost:4200", "GET").orElseThrow())
                .containsExactly(
                        entry("Access-Control-Allow-Origin", "https://localhost:4200"),
                        entry("Access-Control-Allow-Methods", "GET, PUT"),
                        entry("Access-Control-Max-Age", "3000"),
                        entry("Access-Control-Allow-Credentials", "true"),
                        entry("Vary", VARY));
    }

    @Test
    void anyOriginUnderAWildcardGetsTheWildcardAndNoCredentials() {
        var any = new CorsConfiguration(List.of(new CorsRule(null,
                List.of("*"), List.of("GET", "PUT"), List.of("*"), List.of(), 3000)));

        assertThat(Cors.actualRequestHeaders(any, "http://random:1234", "GET").orElseThrow())
                .containsExactly(
                        entry("Access-Control-Allow-Origin", "*"),
                        entry("Access-Control-Allow-Methods", "GET, PUT"),
                        entry("Access-Control-Max-Age", "3000"),
                        entry("Vary", VARY));
    }

    @Test
    void anOriginNoRuleAllowsGetsNothing() {
        assertThat(Cors.actualRequestHeaders(localhost, "http://localhost:4200", "GET")).isEmpty();
    }

    @Test
    void aMethodTheRuleDoesNotListGetsNothing() {
        var getOnly = new CorsConfiguration(List.of(new CorsRule(null,
                List.of("https://localhost:4200"), List.of("GET"), List.of("*"), List.of(), 3000)));

        assertThat(Cors.actualRequestHeaders(getOnly, "https://localhost:4200", "PUT")).isEmpty();
        assertThat(Cors.actualRequestHeaders(getOnly, "https://localhost:4200", "DELETE")).isEmpty();
    }

    @Test
    void exposedHeadersAreSentWithTheActualResponse() {
        var exposing = new CorsConfiguration(List.of(new CorsRule(null,
                List.of("*"), List.of("GET"), List.of(), List.of("ETag", "x-amz-request-id"), null)));

        assertThat(Cors.actualRequestHeaders(exposing, "https://app.example", "GET").orElseThrow())
                .containsExactly(
                        entry("Access-Control-Allow-Origin", "*"),
                        entry("Access-Control-Allow-Methods", "GET"),
                        entry("Access-Control-Expose-Headers", "ETag, x-amz-request-id"),
                        entry("Vary", VARY));
    }

    @Test
    void theFirstRuleAllowingOriginAndMethodAnswers() {
        var configuration = new CorsConfiguration(List.of(
                new CorsRule(null, List.of("http://www.example1.com"), List.of("PUT"), List.of(), List.of(), 1),
                new CorsRule(null, List.of("http://*.example1.com"), List.of("GET"), List.of(), List.of(), 2)));

        assertThat(Cors.actualRequestHeaders(configuration, "http://www.example1.com", "GET").orElseThrow())
                .containsEntry("Access-Control-Allow-Origin", "http://www.example1.com")
                .containsEntry("Access-Control-Max-Age", "2");
    }
}
