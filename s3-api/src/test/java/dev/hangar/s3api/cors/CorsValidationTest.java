package dev.hangar.s3api.cors;

import static dev.hangar.s3api.cors.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.s3api.S3Error;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PutBucketCors's refusals, with the codes and messages S3 answers. */
class CorsValidationTest {
    private static CorsRule rule(List<String> origins, List<String> methods, List<String> headers) {
        return new CorsRule(null, origins, methods, headers, List.of(), null);
    }

    private static CorsConfiguration configuration(CorsRule... rules) {
        return new CorsConfiguration(List.of(rules));
    }

    @Test
    void acceptsTheDocumentedExamples() {
        assertThatCode(() -> Cors.validate(CorsPreflightTest.EXAMPLE_1)).doesNotThrowAnyException();
        assertThatCode(() -> Cors.validate(configuration(new CorsRule("example-2",
                List.of("http://www.example.com"), List.of("PUT", "POST", "DELETE"), List.of("*"),
                List.of("x-amz-server-side-encryption", "x-amz-request-id", "x-amz-id-2"), 3000))))
                .doesNotThrowAnyException();
    }

    @Test
    void acceptsEveryMethodS3Supports() {
        assertThatCode(() -> Cors.validate(configuration(
                rule(List.of("*"), List.of("GET", "PUT", "POST", "DELETE", "HEAD"), List.of()))))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "http://*.example.com", "*.example.com", "https://example.*", "", "localhost:4566"})
    void acceptsOriginsWithAtMostOneWildcard(String origin) {
        assertThatCode(() -> Cors.validate(configuration(rule(List.of(origin), List.of("GET"), List.of()))))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesAConfigurationWithoutRulesAsMalformedXml() {
        assertS3Error(() -> Cors.validate(new CorsConfiguration(List.of())), S3Error.MALFORMED_XML);
    }

    @Test
    void acceptsOneHundredRulesButNotMore() {
        CorsRule one = rule(List.of("*"), List.of("GET"), List.of());

        assertThatCode(() -> Cors.validate(new CorsConfiguration(Collections.nCopies(100, one))))
                .doesNotThrowAnyException();
        assertS3Error(() -> Cors.validate(new CorsConfiguration(Collections.nCopies(101, one))),
                S3Error.MALFORMED_XML);
    }

    @Test
    void refusesARuleWithoutOriginOrMethodAsMalformedXml() {
        assertS3Error(() -> Cors.validate(configuration(rule(List.of(), List.of("GET"), List.of()))),
                S3Error.MALFORMED_XML);
        assertS3Error(() -> Cors.validate(configuration(rule(List.of("*"), List.of(), List.of()))),
                S3Error.MALFORMED_XML);
    }

    @ParameterizedTest
    @ValueSource(strings = {"MYMETHOD", "OPTIONS", "PATCH", "get", ""})
    void refusesOtherMethodsNamingThem(String method) {
        assertS3Error(() -> Cors.validate(configuration(rule(List.of("*"), List.of("GET", method), List.of()))),
                S3Error.INVALID_REQUEST,
                "Found unsupported HTTP method in CORS config. Unsupported method is " + method);
    }

    @Test
    void refusesAnOriginWithTwoWildcards() {
        assertS3Error(() -> Cors.validate(configuration(
                        rule(List.of("https://ok.example", "*example*.com"), List.of("GET"), List.of()))),
                S3Error.INVALID_REQUEST, "AllowedOrigin \"*example*.com\" can not have more than one wildcard.");
    }

    @Test
    void refusesAnAllowedHeaderWithTwoWildcards() {
        assertThatCode(() -> Cors.validate(configuration(rule(List.of("*"), List.of("PUT"), List.of("x-amz-*")))))
                .doesNotThrowAnyException();
        assertS3Error(() -> Cors.validate(configuration(rule(List.of("*"), List.of("PUT"), List.of("x-*-*")))),
                S3Error.INVALID_REQUEST, "AllowedHeader \"x-*-*\" can not have more than one wildcard.");
    }

    @Test
    void checksEveryRuleNotOnlyTheFirst() {
        assertS3Error(() -> Cors.validate(configuration(
                        rule(List.of("*"), List.of("GET"), List.of()),
                        rule(List.of("*"), List.of("TRACE"), List.of()))),
                S3Error.INVALID_REQUEST, "Found unsupported HTTP method in CORS config. Unsupported method is TRACE");
    }

    @Test
    void aPreflightNoRuleAllowsIsAccessForbidden() {
        var refusal = Cors.preflightNotAllowed();

        assertThat(refusal.error().code()).isEqualTo("AccessForbidden");
        assertThat(refusal.error().status()).isEqualTo(403);
        assertThat(refusal.getMessage()).isEqualTo("CORSResponse: This CORS request is not allowed. This is usually "
                + "because the evalution of Origin, request method / Access-Control-Request-Method or "
                + "Access-Control-Request-Headers are not whitelisted by the resource's CORS spec.");
    }

    @Test
    void aPreflightToABucketWithoutCorsIsAccessForbidden() {
        var refusal = Cors.notEnabled();

        assertThat(refusal.error()).isEqualTo(S3Error.ACCESS_FORBIDDEN);
        assertThat(refusal.getMessage()).isEqualTo("CORSResponse: CORS is not enabled for this bucket.");
    }

    @Test
    void aPreflightWithoutOriginIsABadRequest() {
        var refusal = Cors.originMissing();

        assertThat(refusal.error().code()).isEqualTo("BadRequest");
        assertThat(refusal.error().status()).isEqualTo(400);
        assertThat(refusal.getMessage()).isEqualTo("Insufficient information. Origin request header needed.");
    }

    @Test
    void theModelKeepsItsOwnCopies() {
        var origins = new java.util.ArrayList<>(List.of("https://a"));
        var rule = rule(origins, List.of("GET"), List.of());
        origins.add("https://b");

        assertThat(rule.allowedOrigins()).containsExactly("https://a");
    }
}
