package dev.hangar.s3api.cors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Preflights, from AWS's documented examples (user guide "Elements of a CORS configuration" and
 * "Testing CORS"), ceph s3-tests' CORS tests, and responses LocalStack recorded against S3.
 */
class CorsPreflightTest {
    private static final String VARY = "Origin, Access-Control-Request-Headers, Access-Control-Request-Method";

    static CorsRule rule(List<String> origins, List<String> methods, List<String> allowedHeaders) {
        return new CorsRule(null, origins, methods, allowedHeaders, List.of(), null);
    }

    /** The user guide's Example 1: two origins allowed to write with any header, anyone to read. */
    static final CorsConfiguration EXAMPLE_1 = new CorsConfiguration(List.of(
            rule(List.of("http://www.example1.com"), List.of("PUT", "POST", "DELETE"), List.of("*")),
            rule(List.of("http://www.example2.com"), List.of("PUT", "POST", "DELETE"), List.of("*")),
            rule(List.of("*"), List.of("GET"), List.of())));

    private static Map<String, String> headers(Optional<PreflightAnswer> answer) {
        assertThat(answer).as("a rule allows the preflight").isPresent();
        return answer.orElseThrow().headers();
    }

    @Nested
    class DocumentedExamples {
        @Test
        void example1FirstOriginMayWriteWithAnyHeader() {
            var answer = Cors.preflight(EXAMPLE_1, "http://www.example1.com", "PUT",
                    List.of("Content-Type, x-amz-meta-author"));

            assertThat(answer.orElseThrow().rule()).isEqualTo(EXAMPLE_1.rules().get(0));
            assertThat(headers(answer)).containsExactly(
                    entry("Access-Control-Allow-Origin", "http://www.example1.com"),
                    entry("Access-Control-Allow-Methods", "PUT, POST, DELETE"),
                    entry("Access-Control-Allow-Headers", "content-type, x-amz-meta-author"),
                    entry("Access-Control-Allow-Credentials", "true"),
                    entry("Vary", VARY));
        }

        @Test
        void example1SecondOriginMatchesTheSecondRule() {
            var answer = Cors.preflight(EXAMPLE_1, "http://www.example2.com", "DELETE", List.of());

            assertThat(answer.orElseThrow().rule()).isEqualTo(EXAMPLE_1.rules().get(1));
            assertThat(headers(answer)).containsEntry("Access-Control-Allow-Origin", "http://www.example2.com");
        }

        @Test
        void example1AnyOriginMayReadAndIsAnsweredWithTheWildcard() {
            var answer = Cors.preflight(EXAMPLE_1, "https://somewhere.else", "GET", List.of());

            assertThat(headers(answer)).containsExactly(
                    entry("Access-Control-Allow-Origin", "*"),
                    entry("Access-Control-Allow-Methods", "GET"),
                    entry("Vary", VARY));
        }

        @Test
        void example1AnyOriginMayNotWrite() {
            assertThat(Cors.preflight(EXAMPLE_1, "https://somewhere.else", "PUT", List.of())).isEmpty();
        }

        @Test
        void example1FirstRuleWhoseMethodAlsoMatchesWins() {
            // The first rule allows the origin but not GET; the third allows both.
            var answer = Cors.preflight(EXAMPLE_1, "http://www.example1.com", "GET", List.of());

            assertThat(answer.orElseThrow().rule()).isEqualTo(EXAMPLE_1.rules().get(2));
            assertThat(headers(answer)).containsEntry("Access-Control-Allow-Origin", "*")
                    .doesNotContainKey("Access-Control-Allow-Credentials");
        }

        @Test
        void example1AnyOriginMayNotAskForHeadersTheReadRuleDoesNotList() {
            assertThat(Cors.preflight(EXAMPLE_1, "https://somewhere.else", "GET", List.of("x-amz-date"))).isEmpty();
        }

        @Test
        void example2SendsMaxAgeAndExposedHeaders() {
            var configuration = new CorsConfiguration(List.of(new CorsRule(null,
                    List.of("http://www.example.com"), List.of("PUT", "POST", "DELETE"), List.of("*"),
                    List.of("x-amz-server-side-encryption", "x-amz-request-id", "x-amz-id-2"), 3000)));

            var answer = Cors.preflight(configuration, "http://www.example.com", "POST", List.of());

            assertThat(headers(answer)).containsExactly(
                    entry("Access-Control-Allow-Origin", "http://www.example.com"),
                    entry("Access-Control-Allow-Methods", "PUT, POST, DELETE"),
                    entry("Access-Control-Expose-Headers", "x-amz-server-side-encryption, x-amz-request-id, x-amz-id-2"),
                    entry("Access-Control-Max-Age", "3000"),
                    entry("Access-Control-Allow-Credentials", "true"),
                    entry("Vary", VARY));
        }

        @Test
        void testingCorsSampleAnswer() {
            var configuration = new CorsConfiguration(List.of(new CorsRule(null,
                    List.of("http://www.example1.com"), List.of("GET", "PUT", "POST", "DELETE"),
                    List.of("Authorization"), List.of("x-amz-meta-custom-header"), null)));

            var answer = Cors.preflight(configuration, "http://www.example1.com", "PUT", List.of("Authorization"));

            assertThat(headers(answer)).containsExactly(
                    entry("Access-Control-Allow-Origin", "http://www.example1.com"),
                    entry("Access-Control-Allow-Methods", "GET, PUT, POST, DELETE"),
                    entry("Access-Control-Allow-Headers", "authorization"),
                    entry("Access-Control-Expose-Headers", "x-amz-meta-custom-header"),
                    entry("Access-Control-Allow-Credentials", "true"),
                    entry("Vary", VARY));
        }
    }

    @Nested
    class Origins {
        private final CorsConfiguration localhost = new CorsConfiguration(List.of(new CorsRule(null,
                List.of("https://localhost:4200"), List.of("GET", "PUT"), List.of("*"), List.of(), 3000)));

        @Test
        void recordedAnswerForTheRightOrigin() {
            var answer = Cors.preflight(localhost, "https://localhost:4200", "PUT", List.of());

            assertThat(headers(answer)).containsExactly(
                    entry("Access-Control-Allow-Origin", "https://localhost:4200"),
                    entry("Access-Control-Allow-Methods", "GET, PUT"),
                    entry("Access-Control-Max-Age", "3000"),
                    entry("Access-Control-Allow-Credentials", "true"),
                    entry("Vary", VARY));
        }

        @ParameterizedTest
        @ValueSource(strings = {"http://localhost:4200", "https://localhost:4201", "https://localhost",
                "https://localhost:4200/", "https://localhost:42000", "HTTPS://LOCALHOST:4200", ""})
        void schemeHostAndPortMustAllMatch(String origin) {
            assertThat(Cors.preflight(localhost, origin, "PUT", List.of())).isEmpty();
        }

        @Test
        void aDefaultPortWrittenOutIsAnotherOrigin() {
            var configuration = new CorsConfiguration(List.of(
                    rule(List.of("http://www.example.com"), List.of("GET"), List.of())));

            assertThat(Cors.preflight(configuration, "http://www.example.com:80", "GET", List.of())).isEmpty();
            assertThat(Cors.preflight(configuration, "https://www.example.com", "GET", List.of())).isEmpty();
        }

        @Test
        void aWildcardSubdomainEchoesTheOrigin() {
            var configuration = new CorsConfiguration(List.of(
                    rule(List.of("http://*.origin.com"), List.of("GET", "PUT"), List.of())));

            var answer = Cors.preflight(configuration, "http://test.origin.com", "GET", List.of());

            assertThat(headers(answer))
                    .containsEntry("Access-Control-Allow-Origin", "http://test.origin.com")
                    .containsEntry("Access-Control-Allow-Credentials", "true");
            assertThat(Cors.preflight(configuration, "http://test.origin.com/", "GET", List.of())).isEmpty();
            assertThat(Cors.preflight(configuration, "http://origin.com", "GET", List.of())).isEmpty();
            assertThat(Cors.preflight(configuration, "https://test.origin.com", "GET", List.of())).isEmpty();
        }

        /** ceph s3-tests' test_cors_origin_response: a wildcard anywhere, matching the empty string too. */
        private final CorsConfiguration patterns = new CorsConfiguration(List.of(
                rule(List.of("*suffix"), List.of("GET"), List.of()),
                rule(List.of("start*end"), List.of("GET"), List.of()),
                rule(List.of("prefix*"), List.of("GET"), List.of()),
                rule(List.of("*.put"), List.of("PUT"), List.of())));

        @ParameterizedTest
        @ValueSource(strings = {"foo.suffix", "startend", "start1end", "start12end", "prefix", "prefix.suffix"})
        void wildcardPatternsMatchWholeOrigins(String origin) {
            assertThat(headers(Cors.preflight(patterns, origin, "GET", List.of())))
                    .containsEntry("Access-Control-Allow-Origin", origin)
                    .containsEntry("Access-Control-Allow-Methods", "GET");
        }

        @ParameterizedTest
        @ValueSource(strings = {"foo.bar", "foo.suffix.get", "0start12end", "bla.prefix", "foo.put"})
        void wildcardPatternsAreAnchoredAtBothEnds(String origin) {
            assertThat(Cors.preflight(patterns, origin, "GET", List.of())).isEmpty();
        }

        @Test
        void theMethodChoosesAmongRulesForTheSameOrigin() {
            assertThat(headers(Cors.preflight(patterns, "foo.put", "PUT", List.of())))
                    .containsEntry("Access-Control-Allow-Origin", "foo.put")
                    .containsEntry("Access-Control-Allow-Methods", "PUT");
        }

        @ParameterizedTest
        @CsvSource({
                "https://a.example, https://a.example, https://a.example, true",
                "'*',               https://a.example, '*',               false",
                "https://a.example, https://b.example, '*',               false",
        })
        void theFirstMatchingPatternOfTheRuleDecidesBetweenEchoAndWildcard(
                String first, String origin, String allowOrigin, boolean credentials) {
            var configuration = new CorsConfiguration(List.of(
                    rule(List.of(first, "*"), List.of("GET"), List.of())));

            Map<String, String> headers = headers(Cors.preflight(configuration, origin, "GET", List.of()));

            assertThat(headers).containsEntry("Access-Control-Allow-Origin", allowOrigin);
            assertThat(headers.containsKey("Access-Control-Allow-Credentials")).isEqualTo(credentials);
        }

        @Test
        void anEmptyAllowedOriginMatchesOnlyAnEmptyOrigin() {
            var configuration = new CorsConfiguration(List.of(rule(List.of(""), List.of("GET"), List.of())));

            assertThat(Cors.preflight(configuration, "", "GET", List.of())).isPresent();
            assertThat(Cors.preflight(configuration, "http://a", "GET", List.of())).isEmpty();
        }
    }

    @Nested
    class Methods {
        private final CorsConfiguration getOnly = new CorsConfiguration(List.of(
                rule(List.of("https://localhost:4200"), List.of("GET"), List.of("*"))));

        @Test
        void theRequestedMethodMustBeListed() {
            assertThat(headers(Cors.preflight(getOnly, "https://localhost:4200", "GET", List.of())))
                    .containsEntry("Access-Control-Allow-Methods", "GET");
            assertThat(Cors.preflight(getOnly, "https://localhost:4200", "PUT", List.of())).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"get", "Get", "OPTIONS", "PATCH", ""})
        void methodsCompareExactly(String method) {
            assertThat(Cors.preflight(getOnly, "https://localhost:4200", method, List.of())).isEmpty();
        }
    }

    @Nested
    class RequestHeaders {
        private final CorsConfiguration named = new CorsConfiguration(List.of(new CorsRule(null,
                List.of("https://localhost:4200"), List.of("GET"),
                List.of("x-amz-expected-bucket-owner", "x-amz-server-side-encryption-customer-algorithm",
                        "x-AMZ-server-SIDE-encryption"),
                List.of(), 3000)));

        @Test
        void namesMatchWithoutRegardToCaseAndComeBackInLowerCase() {
            var answer = Cors.preflight(named, "https://localhost:4200", "GET",
                    List.of("x-AMZ-expected-BUCKET-owner, x-amz-server-side-encryption"));

            assertThat(headers(answer)).containsEntry("Access-Control-Allow-Headers",
                    "x-amz-expected-bucket-owner, x-amz-server-side-encryption");
        }

        @Test
        void theSpaceAfterTheCommaIsOptional() {
            var answer = Cors.preflight(named, "https://localhost:4200", "GET",
                    List.of("x-amz-expected-bucket-owner,x-amz-server-side-encryption"));

            assertThat(headers(answer)).containsEntry("Access-Control-Allow-Headers",
                    "x-amz-expected-bucket-owner, x-amz-server-side-encryption");
        }

        @Test
        void oneHeaderNotAllowedRefusesThePreflight() {
            assertThat(Cors.preflight(named, "https://localhost:4200", "GET",
                    List.of("x-amz-expected-bucket-owner, x-amz-request-payer"))).isEmpty();
            assertThat(Cors.preflight(named, "https://localhost:4200", "GET", List.of("x-amz-request-payer")))
                    .isEmpty();
        }

        @Test
        void aWildcardAllowsEveryNameInTheOrderAsked() {
            var any = new CorsConfiguration(List.of(
                    rule(List.of("https://localhost:4200"), List.of("GET"), List.of("*"))));

            var answer = Cors.preflight(any, "https://localhost:4200", "GET",
                    List.of("x-amz-request-payer, x-amz-expected-bucket-owner"));

            assertThat(headers(answer)).containsEntry("Access-Control-Allow-Headers",
                    "x-amz-request-payer, x-amz-expected-bucket-owner");
        }

        @Test
        void aPrefixWildcardAllowsItsFamilyOnly() {
            var amazon = new CorsConfiguration(List.of(rule(List.of("*"), List.of("PUT"), List.of("x-amz-*"))));

            assertThat(Cors.preflight(amazon, "https://a", "PUT", List.of("x-amz-date, X-Amz-Meta-Author")))
                    .isPresent();
            assertThat(Cors.preflight(amazon, "https://a", "PUT", List.of("x-amz-date, content-type"))).isEmpty();
        }

        @Test
        void aRuleWithoutAllowedHeadersAllowsNone() {
            // s3-tests' test_cors_header_option and LocalStack's test_put_cors_default_values.
            var configuration = new CorsConfiguration(List.of(new CorsRule(null,
                    List.of("*"), List.of("GET"), List.of(), List.of("x-amz-meta-header1"), null)));

            assertThat(Cors.preflight(configuration, "example.origin", "GET", List.of("x-amz-meta-header2")))
                    .isEmpty();
            assertThat(headers(Cors.preflight(configuration, "example.origin", "GET", List.of())))
                    .containsExactly(
                            entry("Access-Control-Allow-Origin", "*"),
                            entry("Access-Control-Allow-Methods", "GET"),
                            entry("Access-Control-Expose-Headers", "x-amz-meta-header1"),
                            entry("Vary", VARY));
        }

        @Test
        void namesMayComeAsSeveralLinesAndBlankElementsAreIgnored() {
            var answer = Cors.preflight(named, "https://localhost:4200", "GET",
                    List.of(" x-amz-expected-bucket-owner ,, ", "X-Amz-Server-Side-Encryption", ""));

            assertThat(headers(answer)).containsEntry("Access-Control-Allow-Headers",
                    "x-amz-expected-bucket-owner, x-amz-server-side-encryption");
        }

        @Test
        void blankRequestHeadersAreNoRequestHeaders() {
            assertThat(headers(Cors.preflight(named, "https://localhost:4200", "GET", List.of(" , "))))
                    .doesNotContainKey("Access-Control-Allow-Headers");
        }
    }

    @Test
    void theAnswerCannotBeChanged() {
        Map<String, String> headers = headers(Cors.preflight(EXAMPLE_1, "https://a", "GET", List.of()));

        assertThatThrownBy(() -> headers.put("X", "y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void rulesAreEvaluatedInOrderAndTheFirstMatchWins() {
        var configuration = new CorsConfiguration(List.of(
                new CorsRule("broad", List.of("*"), List.of("GET"), List.of(), List.of(), 10),
                new CorsRule("narrow", List.of("https://a.example"), List.of("GET"), List.of(), List.of(), 20)));

        var answer = Cors.preflight(configuration, "https://a.example", "GET", List.of());

        assertThat(answer.orElseThrow().rule().id()).isEqualTo("broad");
        assertThat(headers(answer)).containsEntry("Access-Control-Max-Age", "10");
    }

    @Test
    void noRuleNoAnswer() {
        var configuration = new CorsConfiguration(List.of(rule(List.of("https://a"), List.of("GET"), List.of())));

        assertThat(Cors.preflight(configuration, "https://b", "GET", List.of())).isEmpty();
    }
}
