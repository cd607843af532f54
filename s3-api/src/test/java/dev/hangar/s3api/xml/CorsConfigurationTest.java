package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.childNames;
import static dev.hangar.s3api.xml.DomDocuments.children;
import static dev.hangar.s3api.xml.DomDocuments.text;
import static dev.hangar.s3api.xml.RequestBodies.NAMESPACE;
import static dev.hangar.s3api.xml.RequestBodies.assertMalformed;
import static dev.hangar.s3api.xml.RequestBodies.assertRefused;
import static dev.hangar.s3api.xml.RequestBodies.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class CorsConfigurationTest {
    private static final CorsRule FULL = new CorsRule(
            "web", List.of("http://www.example.com", "https://*.example.com"), List.of("PUT", "POST", "DELETE"),
            List.of("*"), List.of("x-amz-server-side-encryption", "ETag"), 3000);
    private static final CorsRule MINIMAL = new CorsRule(null, List.of("*"), List.of("GET"), List.of(), List.of(), null);

    private static String rulesOf(int count) {
        return "<CORSConfiguration>"
                + "<CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule>".repeat(count)
                + "</CORSConfiguration>";
    }

    private static String ruleWith(String elements) {
        return "<CORSConfiguration><CORSRule>" + elements + "</CORSRule></CORSConfiguration>";
    }

    @Test
    void rendersEachRuleWithOriginsAndMethodsFirst() {
        Element root = DomDocuments.s3Root(
                S3Xml.renderCorsConfiguration(new CorsConfiguration(List.of(FULL, MINIMAL))), "CORSConfiguration");

        List<Element> rules = children(root, "CORSRule");
        assertThat(childNames(root)).containsExactly("CORSRule", "CORSRule");
        assertThat(childNames(rules.get(0))).containsExactly(
                "ID", "AllowedOrigin", "AllowedOrigin", "AllowedMethod", "AllowedMethod", "AllowedMethod",
                "AllowedHeader", "ExposeHeader", "ExposeHeader", "MaxAgeSeconds");
        assertThat(text(rules.get(0), "ID")).isEqualTo("web");
        assertThat(text(rules.get(0), "MaxAgeSeconds")).isEqualTo("3000");
        assertThat(childNames(rules.get(1))).containsExactly("AllowedOrigin", "AllowedMethod");
    }

    @Test
    void survivesTheRoundTrip() {
        var configuration = new CorsConfiguration(List.of(FULL, MINIMAL));

        assertThat(S3Xml.parseCorsConfiguration(body(S3Xml.renderCorsConfiguration(configuration)))).isEqualTo(configuration);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", NAMESPACE})
    void readsTheApiReferenceSampleInAnyElementOrder(String namespace) {
        CorsConfiguration configuration = S3Xml.parseCorsConfiguration(body("""
                <CORSConfiguration%s>
                  <CORSRule>
                    <AllowedOrigin>http://www.example.com</AllowedOrigin>
                    <AllowedMethod>PUT</AllowedMethod>
                    <AllowedHeader>*</AllowedHeader>
                    <MaxAgeSeconds>3000</MaxAgeSeconds>
                    <ExposeHeader>x-amz-server-side-encryption</ExposeHeader>
                    <AllowedMethod>DELETE</AllowedMethod>
                  </CORSRule>
                </CORSConfiguration>""".formatted(namespace)));

        assertThat(configuration.rules()).containsExactly(new CorsRule(
                null, List.of("http://www.example.com"), List.of("PUT", "DELETE"), List.of("*"),
                List.of("x-amz-server-side-encryption"), 3000));
    }

    @Test
    void acceptsAHundredRules() {
        assertThat(S3Xml.parseCorsConfiguration(body(rulesOf(100))).rules()).hasSize(100);
    }

    @Test
    void refusesMoreThanAHundredRulesAndNone() {
        assertMalformed(() -> S3Xml.parseCorsConfiguration(body(rulesOf(101))), "more than 100 CORSRule");
        assertMalformed(() -> S3Xml.parseCorsConfiguration(body(rulesOf(0))), "no CORSRule");
    }

    @Test
    void refusesARuleWithoutAnOriginOrAMethod() {
        assertMalformed(() -> S3Xml.parseCorsConfiguration(body(ruleWith("<AllowedMethod>GET</AllowedMethod>"))),
                "CORSRule 1 has to name at least one AllowedOrigin and one AllowedMethod");
        assertMalformed(() -> S3Xml.parseCorsConfiguration(body(ruleWith("<AllowedOrigin>*</AllowedOrigin>"))),
                "CORSRule 1 has to name at least one AllowedOrigin and one AllowedMethod");
    }

    @ParameterizedTest
    @ValueSource(strings = {"PATCH", "OPTIONS", "get", "CONNECT"})
    void refusesAMethodS3DoesNotSupport(String method) {
        assertRefused(
                () -> S3Xml.parseCorsConfiguration(body(ruleWith(
                        "<AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>" + method
                                + "</AllowedMethod>"))),
                S3Error.INVALID_REQUEST,
                "Found unsupported HTTP method in CORS config. Unsupported method is " + method);
    }

    @Test
    void refusesASecondWildcardInAnOriginOrAnAllowedHeader() {
        assertRefused(
                () -> S3Xml.parseCorsConfiguration(body(ruleWith(
                        "<AllowedOrigin>http://*.*.com</AllowedOrigin><AllowedMethod>GET</AllowedMethod>"))),
                S3Error.INVALID_REQUEST, "AllowedOrigin \"http://*.*.com\" can not have more than one wildcard.");
        assertRefused(
                () -> S3Xml.parseCorsConfiguration(body(ruleWith(
                        "<AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedHeader>x-*-*</AllowedHeader>"))),
                S3Error.INVALID_REQUEST, "AllowedHeader \"x-*-*\" can not have more than one wildcard.");
    }

    @Test
    void refusesAWildcardInAnExposeHeader() {
        assertRefused(
                () -> S3Xml.parseCorsConfiguration(body(ruleWith(
                        "<AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><ExposeHeader>x-*</ExposeHeader>"))),
                S3Error.INVALID_REQUEST,
                "ExposeHeader x-* contains a wildcard. Wildcards are currently not supported for ExposeHeader.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "soon", "3.5"})
    void refusesAMaxAgeThatIsNotANonNegativeInteger(String seconds) {
        assertMalformed(
                () -> S3Xml.parseCorsConfiguration(body(ruleWith("<AllowedOrigin>*</AllowedOrigin>"
                        + "<AllowedMethod>GET</AllowedMethod><MaxAgeSeconds>" + seconds + "</MaxAgeSeconds>"))),
                "MaxAgeSeconds");
    }

    @Test
    void refusesAnEmptyOriginAndTwoIds() {
        assertMalformed(
                () -> S3Xml.parseCorsConfiguration(body(ruleWith("<AllowedOrigin></AllowedOrigin><AllowedMethod>GET</AllowedMethod>"))),
                "empty AllowedOrigin");
        assertMalformed(
                () -> S3Xml.parseCorsConfiguration(body(ruleWith(
                        "<ID>a</ID><ID>b</ID><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod>"))),
                "more than one ID");
    }

    @Test
    void theRecordsRefuseWhatS3WouldNot() {
        assertThatThrownBy(() -> new CorsConfiguration(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CorsRule(null, List.of(), List.of("GET"), List.of(), List.of(), null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
