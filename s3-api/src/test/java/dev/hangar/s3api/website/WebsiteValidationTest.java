package dev.hangar.s3api.website;

import static dev.hangar.s3api.website.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.s3api.S3Error;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PutBucketWebsite's refusals, with the codes and messages S3 answers. */
class WebsiteValidationTest {
    private static final String INVALID_PROTOCOL = "Invalid protocol, protocol can be http or https. "
            + "If not defined the protocol will be selected automatically.";

    private static WebsiteConfiguration withRules(List<RoutingRule> rules) {
        return new WebsiteConfiguration("index.html", null, null, rules);
    }

    private static WebsiteConfiguration withRule(RoutingRule rule) {
        return withRules(List.of(rule));
    }

    private static Redirect toHost(String host) {
        return new Redirect(host, null, null, null, null);
    }

    @Test
    void acceptsTheDocumentedConfigurations() {
        var examples = List.of(
                new RoutingRule("docs/", null, new Redirect(null, null, null, "documents/", null)),
                new RoutingRule("images/", null, new Redirect(null, null, null, null, "folderdeleted.html")),
                new RoutingRule(null, 404,
                        new Redirect("ec2-11-22-333-44.compute-1.amazonaws.com", null, null, "report-404/", null)),
                new RoutingRule("archive/", 404, new Redirect("archive.myhost.com", "https", 301, null, "nf.html")),
                new RoutingRule(null, null, toHost("example.com")));

        assertThatCode(() -> Website.validate(new WebsiteConfiguration("index.html", null, null, List.of())))
                .doesNotThrowAnyException();
        assertThatCode(() -> Website.validate(new WebsiteConfiguration("index.html", "error.html", null, examples)))
                .doesNotThrowAnyException();
        assertThatCode(() -> Website.validate(
                new WebsiteConfiguration(null, null, new RedirectAll("example.com", null), List.of())))
                .doesNotThrowAnyException();
        assertThatCode(() -> Website.validate(
                new WebsiteConfiguration(null, null, new RedirectAll("example.com", "https"), List.of())))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesRedirectAllWithAnythingElse() {
        var all = new RedirectAll("example.com", null);
        String message = "RedirectAllRequestsTo cannot be provided in conjunction with other Routing Rules.";

        assertS3Error(() -> Website.validate(new WebsiteConfiguration("index.html", null, all, List.of())),
                S3Error.INVALID_ARGUMENT, message);
        assertS3Error(() -> Website.validate(new WebsiteConfiguration(null, "error.html", all, List.of())),
                S3Error.INVALID_ARGUMENT, message);
        assertS3Error(() -> Website.validate(new WebsiteConfiguration(null, null, all,
                        List.of(new RoutingRule("", null, toHost("example.com"))))),
                S3Error.INVALID_ARGUMENT, message);
    }

    @Test
    void refusesRedirectAllWithoutHost() {
        assertS3Error(() -> Website.validate(new WebsiteConfiguration(null, null, new RedirectAll("", null), List.of())),
                S3Error.INVALID_REQUEST, "A host name must be provided to redirect all requests (e.g. \"example.com\").");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp", "HTTPS", "http2", ""})
    void refusesOtherProtocols(String protocol) {
        assertS3Error(() -> Website.validate(
                        new WebsiteConfiguration(null, null, new RedirectAll("example.com", protocol), List.of())),
                S3Error.INVALID_REQUEST, INVALID_PROTOCOL);
        assertS3Error(() -> Website.validate(withRule(
                        new RoutingRule("docs/", null, new Redirect(null, protocol, null, "documents/", null)))),
                S3Error.INVALID_REQUEST, INVALID_PROTOCOL);
    }

    @Test
    void refusesAWebsiteWithoutIndexDocument() {
        assertS3Error(() -> Website.validate(new WebsiteConfiguration(null, "error.html", null, List.of())),
                S3Error.INVALID_ARGUMENT,
                "A value for IndexDocument Suffix must be provided if RedirectAllRequestsTo is empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a/index.html", "/", "index.html/"})
    void refusesAnEmptySuffixOrOneWithASlash(String suffix) {
        assertS3Error(() -> Website.validate(new WebsiteConfiguration(suffix, null, null, List.of())),
                S3Error.INVALID_ARGUMENT, "The IndexDocument Suffix is not well formed");
    }

    @Test
    void refusesAnEmptyErrorDocumentKey() {
        assertS3Error(() -> Website.validate(new WebsiteConfiguration("index.html", "", null, List.of())),
                S3Error.MALFORMED_XML);
    }

    @Test
    void acceptsFiftyRoutingRulesButNotMore() {
        var rule = new RoutingRule(null, null, toHost("example.com"));

        assertThatCode(() -> Website.validate(withRules(Collections.nCopies(50, rule)))).doesNotThrowAnyException();
        assertS3Error(() -> Website.validate(withRules(Collections.nCopies(51, rule))), S3Error.INVALID_REQUEST,
                "51 routing rules provided, the number of routing rules in a website configuration is limited to 50.");
    }

    @ParameterizedTest
    @ValueSource(ints = {301, 302, 303, 304, 305, 307, 308, 399})
    void acceptsRedirectCodesOf3xxButNot300(int code) {
        assertThatCode(() -> Website.validate(withRule(
                new RoutingRule(null, null, new Redirect(null, null, code, null, null))))).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(ints = {300, 200, 400, 0, -301})
    void refusesOtherRedirectCodes(int code) {
        assertS3Error(() -> Website.validate(withRule(
                        new RoutingRule(null, null, new Redirect(null, null, code, null, null)))),
                S3Error.INVALID_REQUEST,
                "The provided HTTP redirect code (" + code + ") is not valid. Valid codes are 3XX except 300.");
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 403, 404, 500, 503, 599})
    void acceptsErrorCodesOf4xxAnd5xx(int code) {
        assertThatCode(() -> Website.validate(withRule(new RoutingRule(null, code, toHost("example.com")))))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(ints = {302, 399, 600, 200})
    void refusesOtherErrorCodes(int code) {
        assertS3Error(() -> Website.validate(withRule(new RoutingRule(null, code, toHost("example.com")))),
                S3Error.INVALID_REQUEST,
                "The provided HTTP error code (" + code + ") is not valid. Valid codes are 4XX or 5XX.");
    }

    @Test
    void refusesBothKeyReplacements() {
        assertS3Error(() -> Website.validate(withRule(
                        new RoutingRule(null, null, new Redirect(null, null, null, "b/", "a")))),
                S3Error.INVALID_REQUEST, "You can only define ReplaceKeyPrefix or ReplaceKey but not both.");
    }

    @Test
    void refusesARedirectWithNothingInIt() {
        assertS3Error(() -> Website.validate(withRule(
                new RoutingRule("docs/", null, new Redirect(null, null, null, null, null)))), S3Error.MALFORMED_XML);
    }

    @Test
    void refusesAnEmptyHostName() {
        assertS3Error(() -> Website.validate(withRule(new RoutingRule("docs/", null, toHost("")))),
                S3Error.INVALID_REQUEST,
                "The HostName cannot be blank. To redirect within the same domain, the element should not be present.");
    }

    @Test
    void acceptsEmptyReplacements() {
        // An empty ReplaceKeyPrefixWith removes the prefix; an empty KeyPrefixEquals matches every key.
        assertThatCode(() -> Website.validate(withRule(
                new RoutingRule("", null, new Redirect(null, null, null, "", null))))).doesNotThrowAnyException();
    }

    @Test
    void checksEveryRule() {
        assertS3Error(() -> Website.validate(withRules(List.of(
                        new RoutingRule(null, null, toHost("example.com")),
                        new RoutingRule(null, 302, toHost("example.com"))))),
                S3Error.INVALID_REQUEST, "The provided HTTP error code (302) is not valid. Valid codes are 4XX or 5XX.");
    }
}
