package dev.hangar.s3api.xml;

import static dev.hangar.s3api.xml.DomDocuments.child;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class WebsiteConfigurationTest {
    private static final String PROTOCOL = "Invalid protocol, protocol can be http or https. If not defined the "
            + "protocol will be selected automatically.";
    private static final RoutingRule DOCS = new RoutingRule(
            new RoutingRule.Condition("docs/", null), new RoutingRule.Redirect(null, null, "documents/", null, null));
    private static final RoutingRule ON_404 = new RoutingRule(
            new RoutingRule.Condition(null, 404),
            new RoutingRule.Redirect("https", "ec2-11-22-333-44.compute-1.amazonaws.com", "report-404/", null, 302));
    private static final RoutingRule EVERYTHING = new RoutingRule(
            null, new RoutingRule.Redirect(null, null, null, "moved.html", 301));

    private static String website(String elements) {
        return "<WebsiteConfiguration>" + elements + "</WebsiteConfiguration>";
    }

    private static String withRules(String rules) {
        return website("<IndexDocument><Suffix>index.html</Suffix></IndexDocument><RoutingRules>" + rules + "</RoutingRules>");
    }

    private static String rule(String redirect) {
        return "<RoutingRule><Redirect>" + redirect + "</Redirect></RoutingRule>";
    }

    static Stream<WebsiteConfiguration> configurations() {
        return Stream.of(
                WebsiteConfiguration.index("index.html", null),
                WebsiteConfiguration.index("index.html", "error.html"),
                new WebsiteConfiguration("index.html", "404.html", null, List.of(DOCS, ON_404, EVERYTHING)),
                WebsiteConfiguration.redirectAll(new RedirectAllRequestsTo("example.com", null)),
                WebsiteConfiguration.redirectAll(new RedirectAllRequestsTo("example.com", "https")));
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void survivesTheRoundTrip(WebsiteConfiguration configuration) {
        byte[] document = S3Xml.renderWebsiteConfiguration(configuration);

        assertThat(S3Xml.parseWebsiteConfiguration(body(document))).isEqualTo(configuration);
    }

    @Test
    void rendersTheIndexTheErrorDocumentThenTheRoutingRules() {
        Element root = DomDocuments.s3Root(S3Xml.renderWebsiteConfiguration(
                new WebsiteConfiguration("index.html", "404.html", null, List.of(DOCS, ON_404))), "WebsiteConfiguration");

        assertThat(childNames(root)).containsExactly("IndexDocument", "ErrorDocument", "RoutingRules");
        assertThat(text(child(root, "IndexDocument"), "Suffix")).isEqualTo("index.html");
        assertThat(text(child(root, "ErrorDocument"), "Key")).isEqualTo("404.html");
        List<Element> rules = children(child(root, "RoutingRules"), "RoutingRule");
        assertThat(rules).hasSize(2);
        assertThat(childNames(rules.get(0))).containsExactly("Condition", "Redirect");
        assertThat(childNames(child(rules.get(0), "Condition"))).containsExactly("KeyPrefixEquals");
        assertThat(childNames(child(rules.get(0), "Redirect"))).containsExactly("ReplaceKeyPrefixWith");
        assertThat(childNames(child(rules.get(1), "Condition"))).containsExactly("HttpErrorCodeReturnedEquals");
        assertThat(text(child(rules.get(1), "Condition"), "HttpErrorCodeReturnedEquals")).isEqualTo("404");
        assertThat(childNames(child(rules.get(1), "Redirect")))
                .containsExactly("Protocol", "HostName", "ReplaceKeyPrefixWith", "HttpRedirectCode");
        assertThat(text(child(rules.get(1), "Redirect"), "HttpRedirectCode")).isEqualTo("302");
    }

    @Test
    void rendersARedirectOfEverythingAlone() {
        Element root = DomDocuments.s3Root(S3Xml.renderWebsiteConfiguration(
                WebsiteConfiguration.redirectAll(new RedirectAllRequestsTo("example.com", "https"))), "WebsiteConfiguration");

        assertThat(childNames(root)).containsExactly("RedirectAllRequestsTo");
        assertThat(childNames(child(root, "RedirectAllRequestsTo"))).containsExactly("HostName", "Protocol");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", NAMESPACE})
    void readsTheUserGuideSample(String namespace) {
        WebsiteConfiguration configuration = S3Xml.parseWebsiteConfiguration(body("""
                <WebsiteConfiguration%s>
                  <IndexDocument><Suffix>index.html</Suffix></IndexDocument>
                  <ErrorDocument><Key>Error.html</Key></ErrorDocument>
                  <RoutingRules>
                    <RoutingRule>
                      <Condition><KeyPrefixEquals>docs/</KeyPrefixEquals></Condition>
                      <Redirect><ReplaceKeyPrefixWith>documents/</ReplaceKeyPrefixWith></Redirect>
                    </RoutingRule>
                  </RoutingRules>
                </WebsiteConfiguration>""".formatted(namespace)));

        assertThat(configuration).isEqualTo(new WebsiteConfiguration("index.html", "Error.html", null, List.of(DOCS)));
    }

    @Test
    void refusesRedirectingEverythingBesideAnythingElse() {
        String redirect = "<RedirectAllRequestsTo><HostName>example.com</HostName></RedirectAllRequestsTo>";
        for (String other : List.of(
                "<IndexDocument><Suffix>index.html</Suffix></IndexDocument>",
                "<ErrorDocument><Key>e.html</Key></ErrorDocument>",
                "<RoutingRules>" + rule("<HostName>x</HostName>") + "</RoutingRules>")) {
            assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(website(redirect + other))), S3Error.INVALID_ARGUMENT,
                    "RedirectAllRequestsTo cannot be provided in conjunction with other Routing Rules.");
        }
    }

    @Test
    void refusesARedirectOfEverythingWithoutAHostOrWithAnotherProtocol() {
        assertMalformed(() -> S3Xml.parseWebsiteConfiguration(body(website(
                "<RedirectAllRequestsTo><Protocol>https</Protocol></RedirectAllRequestsTo>"))), "no HostName");
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(website(
                        "<RedirectAllRequestsTo><HostName>h</HostName><Protocol>ftp</Protocol></RedirectAllRequestsTo>"))),
                S3Error.INVALID_REQUEST, PROTOCOL);
    }

    @Test
    void refusesAWebsiteWithoutAnIndexDocument() {
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(website("<ErrorDocument><Key>e.html</Key></ErrorDocument>"))),
                S3Error.INVALID_ARGUMENT, "A value for IndexDocument Suffix must be provided if RedirectAllRequestsTo is empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"<Suffix></Suffix>", "<Suffix>a/index.html</Suffix>", "<Suffix>/</Suffix>", ""})
    void refusesASuffixThatIsEmptyOrHoldsASlash(String suffix) {
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(website("<IndexDocument>" + suffix + "</IndexDocument>"))),
                S3Error.INVALID_ARGUMENT, "The IndexDocument Suffix is not well formed");
    }

    @Test
    void refusesAnErrorDocumentWithoutAGoodKey() {
        String index = "<IndexDocument><Suffix>index.html</Suffix></IndexDocument>";
        assertMalformed(() -> S3Xml.parseWebsiteConfiguration(body(website(index + "<ErrorDocument/>"))),
                "ErrorDocument has no Key");
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(website(index + "<ErrorDocument><Key/></ErrorDocument>"))),
                S3Error.INVALID_ARGUMENT, "The ErrorDocument Key is not well formed");
    }

    @Test
    void refusesEmptyRoutingRulesAndARuleWithoutRedirect() {
        assertMalformed(() -> S3Xml.parseWebsiteConfiguration(body(withRules(""))), "RoutingRules holds no RoutingRule");
        assertMalformed(() -> S3Xml.parseWebsiteConfiguration(body(withRules(
                "<RoutingRule><Condition><KeyPrefixEquals>a</KeyPrefixEquals></Condition></RoutingRule>"))),
                "RoutingRule 1 has no Redirect");
    }

    @Test
    void acceptsFiftyRoutingRulesAndRefusesMore() {
        String oneRule = rule("<HostName>example.com</HostName>");
        assertThat(S3Xml.parseWebsiteConfiguration(body(withRules(oneRule.repeat(50)))).routingRules()).hasSize(50);
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(withRules(oneRule.repeat(51)))), S3Error.INVALID_REQUEST,
                "51 routing rules provided, the number of routing rules in a website configuration is limited to 50.");
    }

    @Test
    void refusesAnEmptyCondition() {
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(withRules(
                        "<RoutingRule><Condition/><Redirect><HostName>h</HostName></Redirect></RoutingRule>"))),
                S3Error.INVALID_REQUEST, "Condition cannot be empty. To redirect all requests without a condition, the "
                        + "condition element shouldn't be present.");
    }

    @Test
    void refusesBothReplacements() {
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(withRules(
                        rule("<ReplaceKeyPrefixWith>a/</ReplaceKeyPrefixWith><ReplaceKeyWith>b</ReplaceKeyWith>")))),
                S3Error.INVALID_REQUEST, "You can only define ReplaceKeyPrefix or ReplaceKey but not both.");
    }

    @ParameterizedTest
    @ValueSource(ints = {300, 200, 400, 404})
    void refusesARedirectCodeThatIsNot3xxOrIs300(int code) {
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(withRules(
                        rule("<HttpRedirectCode>" + code + "</HttpRedirectCode>")))),
                S3Error.INVALID_REQUEST,
                "The provided HTTP redirect code (" + code + ") is not valid. Valid codes are 3XX except 300.");
    }

    @ParameterizedTest
    @ValueSource(ints = {302, 200, 600})
    void refusesAnErrorCodeThatIsNot4xxOr5xx(int code) {
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(withRules("<RoutingRule><Condition>"
                        + "<HttpErrorCodeReturnedEquals>" + code + "</HttpErrorCodeReturnedEquals></Condition>"
                        + "<Redirect><HostName>h</HostName></Redirect></RoutingRule>"))),
                S3Error.INVALID_REQUEST, "The provided HTTP error code (" + code + ") is not valid. Valid codes are 4XX or 5XX.");
    }

    @Test
    void refusesAnUnreadableCodeAndAnotherProtocolInARule() {
        assertMalformed(() -> S3Xml.parseWebsiteConfiguration(body(withRules(rule("<HttpRedirectCode>moved</HttpRedirectCode>")))),
                "HttpRedirectCode has to be an integer");
        assertRefused(() -> S3Xml.parseWebsiteConfiguration(body(withRules(rule("<Protocol>HTTP</Protocol>")))),
                S3Error.INVALID_REQUEST, PROTOCOL);
    }

    @Test
    void theRecordsRefuseWhatS3WouldNot() {
        assertThatThrownBy(() -> new WebsiteConfiguration(null, null, null, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WebsiteConfiguration("a/b", null, null, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WebsiteConfiguration("i", null, new RedirectAllRequestsTo("h", null), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RoutingRule.Condition(null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RoutingRule.Redirect(null, null, "a", "b", null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
