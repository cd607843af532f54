package dev.hangar.s3api.website;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.website.WebsiteOutcome.ErrorDocumentFailure;
import dev.hangar.s3api.website.WebsiteOutcome.ErrorPage;
import dev.hangar.s3api.website.WebsiteOutcome.Serve;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Website request resolution, from AWS's user guide ("Configuring an index document",
 * "Configuring a custom error document", "Configuring a webpage redirect" and its routing rule
 * examples), ceph s3-tests' website tests and responses recorded against S3 website endpoints.
 */
class WebsiteResolutionTest {
    private static final String HOST = "example-bucket.s3-website.us-east-1.amazonaws.com";
    private static final String NO_SUCH_KEY = "The specified key does not exist.";

    private static WebsiteConfiguration site(@Nullable String errorKey, RoutingRule... rules) {
        return new WebsiteConfiguration("index.html", errorKey, null, List.of(rules));
    }

    private static WebsiteOutcome get(WebsiteConfiguration configuration, String path, FakeBucket bucket) {
        return Website.resolve(configuration, new WebsiteRequest(path, HOST, "http"), bucket);
    }

    private static WebsiteOutcome.Redirect redirect(int status, String location) {
        return new WebsiteOutcome.Redirect(status, location);
    }

    private static RoutingRule onPrefix(String prefix, Redirect redirect) {
        return new RoutingRule(prefix, null, redirect);
    }

    private static RoutingRule onError(int status, Redirect redirect) {
        return new RoutingRule(null, status, redirect);
    }

    private static Redirect toHost(String host) {
        return new Redirect(host, null, null, null, null);
    }

    private static Redirect replaceKeyPrefixWith(String prefix) {
        return new Redirect(null, null, null, prefix, null);
    }

    private static Redirect replaceKeyWith(String key) {
        return new Redirect(null, null, null, null, key);
    }

    @Nested
    class IndexDocuments {
        @ParameterizedTest
        @ValueSource(strings = {"", "/"})
        void theRootServesTheIndexDocumentWithOrWithoutItsSlash(String path) {
            var bucket = new FakeBucket().with("index.html");

            assertThat(get(site(null), path, bucket)).isEqualTo(new Serve("index.html", 200));
        }

        @Test
        void aFolderWithItsSlashServesItsIndexDocument() {
            var bucket = new FakeBucket().with("photos/index.html");

            assertThat(get(site(null), "/photos/", bucket)).isEqualTo(new Serve("photos/index.html", 200));
            assertThat(bucket.lookedUp).containsExactly("photos/index.html");
        }

        @Test
        void aFolderWithoutItsSlashIsFoundAndRedirectedThere() {
            var bucket = new FakeBucket().with("photos/index.html");

            assertThat(get(site(null), "/photos", bucket)).isEqualTo(redirect(302, "/photos/"));
            assertThat(bucket.lookedUp).containsExactly("photos", "photos/index.html");
        }

        @Test
        void anObjectNamedLikeTheFolderIsServedFirst() {
            var bucket = new FakeBucket().with("key", "key/index.html");

            assertThat(get(site(null), "/key", bucket)).isEqualTo(new Serve("key", 200));
        }

        @Test
        void anObjectEndingWithASlashIsNotAnIndexDocument() {
            var bucket = new FakeBucket().with("key/");

            assertThat(get(site(null), "/key/", bucket))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "key/index.html", null));
        }

        @Test
        void nestedFoldersEachHaveTheirOwnIndexDocument() {
            var bucket = new FakeBucket().with("photos/2006/Jan/index.html");

            assertThat(get(site(null), "/photos/2006/Jan/", bucket))
                    .isEqualTo(new Serve("photos/2006/Jan/index.html", 200));
            assertThat(get(site(null), "/photos/2006/", bucket))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "photos/2006/index.html", null));
        }

        @Test
        void anObjectIsServedByItsKey() {
            var bucket = new FakeBucket().with("sample1.jpg", "photos/2006/Jan/sample2.jpg");

            assertThat(get(site(null), "/photos/2006/Jan/sample2.jpg", bucket))
                    .isEqualTo(new Serve("photos/2006/Jan/sample2.jpg", 200));
        }

        @Test
        void theIndexDocumentNameIsCaseSensitive() {
            var bucket = new FakeBucket().with("Index.html");

            assertThat(get(site(null), "/", bucket)).isInstanceOf(ErrorPage.class);
        }

        @Test
        void aMissingFolderWithoutItsSlashIsNotFound() {
            var bucket = new FakeBucket();

            assertThat(get(site(null), "/photos", bucket))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "photos", null));
        }
    }

    @Nested
    class Errors {
        @Test
        void aMissingKeyWithoutErrorDocumentIsS3sPage() {
            assertThat(get(site(null), "/x", new FakeBucket()))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "x", null));
        }

        @Test
        void aMissingIndexDocumentNamesItsKey() {
            assertThat(get(site(null), "/", new FakeBucket()))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "index.html", null));
        }

        @Test
        void theErrorDocumentIsServedWithTheErrorsStatus() {
            var bucket = new FakeBucket().with("error.html");

            assertThat(get(site("error.html"), "/key", bucket)).isEqualTo(new Serve("error.html", 404));
        }

        @Test
        void aMissingErrorDocumentIsReportedOnS3sPage() {
            assertThat(get(site("error.html"), "/key", new FakeBucket())).isEqualTo(new ErrorPage(
                    404, "NoSuchKey", NO_SUCH_KEY, "key",
                    new ErrorDocumentFailure("NoSuchKey", NO_SUCH_KEY, "error.html")));
        }

        @Test
        void anUnreadableErrorDocumentIsReportedAsAccessDenied() {
            var bucket = new FakeBucket().withPrivate("error.html");

            assertThat(get(site("error.html"), "/", bucket)).isEqualTo(new ErrorPage(
                    404, "NoSuchKey", NO_SUCH_KEY, "index.html",
                    new ErrorDocumentFailure("AccessDenied", "Access Denied", null)));
        }

        @Test
        void aPrivateObjectIsForbiddenAndItsKeyIsNotShown() {
            var bucket = new FakeBucket().withPrivate("index.html");

            assertThat(get(site(null), "/", bucket))
                    .isEqualTo(new ErrorPage(403, "AccessDenied", "Access Denied", null, null));
        }

        @Test
        void aPrivateObjectGetsTheErrorDocumentWithStatus403() {
            var bucket = new FakeBucket().withPrivate("index.html").with("error.html");

            assertThat(get(site("error.html"), "/", bucket)).isEqualTo(new Serve("error.html", 403));
        }

        @Test
        void anUnlistableBucketAnswersMissingKeysWithAccessDenied() {
            var bucket = new FakeBucket().unlistable();

            assertThat(get(site("error.html"), "/", bucket)).isEqualTo(new ErrorPage(
                    403, "AccessDenied", "Access Denied", null,
                    new ErrorDocumentFailure("AccessDenied", "Access Denied", null)));
        }

        @Test
        void anUnlistableBucketStillRedirectsAFolderWithoutItsSlash() {
            var bucket = new FakeBucket().with("photos/index.html").unlistable();

            assertThat(get(site(null), "/photos", bucket)).isEqualTo(redirect(302, "/photos/"));
        }

        @Test
        void aLookupThatSaysNoSuchKeyIsAMissingKey() {
            WebsiteOutcome outcome = Website.resolve(site(null), new WebsiteRequest("/x", HOST, "http"), key -> {
                throw new S3Exception(S3Error.NO_SUCH_KEY);
            });

            assertThat(outcome).isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "x", null));
        }

        @Test
        void otherLookupFailuresPassThrough() {
            var failure = new S3Exception(S3Error.SERVICE_UNAVAILABLE);

            assertThatThrownBy(() -> Website.resolve(site(null), new WebsiteRequest("/x", HOST, "http"), key -> {
                throw failure;
            })).isSameAs(failure);
        }
    }

    @Nested
    class ObjectRedirects {
        @Test
        void aRelativeRedirectLocationIsSentAsItIs() {
            var bucket = new FakeBucket().withRedirect("page1.html", "/page2.html");

            assertThat(get(site(null), "/page1.html", bucket)).isEqualTo(redirect(301, "/page2.html"));
        }

        @Test
        void anAbsoluteRedirectLocationIsSentAsItIs() {
            var bucket = new FakeBucket().withRedirect("key", "https://example.org/example");

            assertThat(get(site(null), "/key", bucket)).isEqualTo(redirect(301, "https://example.org/example"));
        }

        @Test
        void anIndexDocumentMayRedirect() {
            var bucket = new FakeBucket().withRedirect("key/index.html", "/example");

            assertThat(get(site(null), "/key/", bucket)).isEqualTo(redirect(301, "/example"));
        }

        @Test
        void anErrorDocumentMayRedirect() {
            var bucket = new FakeBucket().withRedirect("error.html", "/example");

            assertThat(get(site("error.html"), "/key", bucket)).isEqualTo(redirect(301, "/example"));
        }

        @Test
        void aPrivateObjectDoesNotRevealItsRedirect() {
            var bucket = new FakeBucket().withRedirect("page", "http://example.com/foo").withPrivate("page");

            assertThat(get(site(null), "/page", bucket))
                    .isEqualTo(new ErrorPage(403, "AccessDenied", "Access Denied", null, null));
        }
    }

    @Nested
    class RedirectAllRequests {
        private final WebsiteConfiguration toExample =
                new WebsiteConfiguration(null, null, new RedirectAll("example.com", null), List.of());

        @Test
        void theRootGoesToTheOtherHostsRoot() {
            var bucket = new FakeBucket();

            assertThat(get(toExample, "", bucket)).isEqualTo(redirect(301, "http://example.com/"));
            assertThat(get(toExample, "/", bucket)).isEqualTo(redirect(301, "http://example.com/"));
            assertThat(bucket.lookedUp).isEmpty();
        }

        @Test
        void thePathIsKept() {
            assertThat(get(toExample, "/docs/a.html", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://example.com/docs/a.html"));
        }

        @Test
        void theQueryStringIsKept() {
            var request = new WebsiteRequest("/key", HOST, "http", "query=string");
            var acl = new WebsiteRequest("/key", HOST, "http", "acl");

            assertThat(Website.resolve(toExample, request, new FakeBucket()))
                    .isEqualTo(redirect(301, "http://example.com/key?query=string"));
            assertThat(Website.resolve(toExample, acl, new FakeBucket()))
                    .isEqualTo(redirect(301, "http://example.com/key?acl"));
        }

        @Test
        void theConfiguredProtocolReplacesTheRequests() {
            var https = new WebsiteConfiguration(null, null, new RedirectAll("burrito.example.com", "https"), List.of());

            assertThat(get(https, "/key", new FakeBucket())).isEqualTo(redirect(301, "https://burrito.example.com/key"));
        }

        @Test
        void withoutAConfiguredProtocolTheRequestsIsKept() {
            var request = new WebsiteRequest("/key", HOST, "https");

            assertThat(Website.resolve(toExample, request, new FakeBucket()))
                    .isEqualTo(redirect(301, "https://example.com/key"));
        }

        @Test
        void theKeyIsPercentEncodedInTheLocation() {
            assertThat(get(toExample, "/a b/caf\u00e9?#%.html", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://example.com/a%20b/caf%C3%A9%3F%23%25.html"));
        }
    }

    @Nested
    class RoutingRules {
        /** Example 1: the docs/ folder was renamed documents/. */
        private final RoutingRule renamed = onPrefix("docs/", replaceKeyPrefixWith("documents/"));

        @Test
        void example1RedirectsTheRenamedPrefix() {
            var bucket = new FakeBucket().with("index.html", "docs/article1.html");

            assertThat(get(site(null, renamed), "/docs/article1.html", bucket))
                    .isEqualTo(redirect(301, "http://" + HOST + "/documents/article1.html"));
            assertThat(get(site(null, renamed), "/docs/", bucket))
                    .isEqualTo(redirect(301, "http://" + HOST + "/documents/"));
            assertThat(bucket.lookedUp).as("a prefix rule applies before any lookup").isEmpty();
        }

        @Test
        void example1LeavesOtherKeysAlone() {
            var bucket = new FakeBucket().with("index.html");

            assertThat(get(site(null, renamed), "/", bucket)).isEqualTo(new Serve("index.html", 200));
            assertThat(get(site(null, renamed), "/x", bucket))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "x", null));
        }

        @Test
        void example1WithProtocolAndHost() {
            var https = onPrefix("docs/", new Redirect(null, "https", null, "documents/", null));
            var elsewhere = onPrefix("docs/", new Redirect("xyzzy", "https", null, "documents/", null));

            assertThat(get(site(null, https), "/docs/x", new FakeBucket()))
                    .isEqualTo(redirect(301, "https://" + HOST + "/documents/x"));
            assertThat(get(site(null, elsewhere), "/docs/x", new FakeBucket()))
                    .isEqualTo(redirect(301, "https://xyzzy/documents/x"));
        }

        /** Example 2: the images/ folder was deleted. */
        @Test
        void example2RedirectsTheDeletedFolderToOnePage() {
            var deleted = onPrefix("images/", replaceKeyWith("folderdeleted.html"));

            assertThat(get(site(null, deleted), "/images/", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://" + HOST + "/folderdeleted.html"));
            assertThat(get(site(null, deleted), "/images/x", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://" + HOST + "/folderdeleted.html"));
        }

        @ParameterizedTest
        @ValueSource(ints = {301, 302, 303, 304, 305, 307, 308})
        void example2WithAnHttpRedirectCode(int code) {
            var deleted = onPrefix("images/", new Redirect(null, null, code, null, "folderdeleted.html"));

            assertThat(get(site(null, deleted), "/images/x", new FakeBucket()))
                    .isEqualTo(redirect(code, "http://" + HOST + "/folderdeleted.html"));
        }

        /** Example 3: a 404 goes to an EC2 instance, under report-404/. */
        private final RoutingRule report404 = onError(404,
                new Redirect("ec2-11-22-333-44.compute-1.amazonaws.com", null, null, "report-404/", null));

        @Test
        void example3RedirectsNotFoundToAnotherHost() {
            assertThat(get(site("error.html", report404), "/ExamplePage.html", new FakeBucket().with("error.html")))
                    .isEqualTo(redirect(301, "http://ec2-11-22-333-44.compute-1.amazonaws.com/report-404/ExamplePage.html"));
            assertThat(get(site(null, report404), "/images/x", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://ec2-11-22-333-44.compute-1.amazonaws.com/report-404/images/x"));
        }

        @Test
        void example3TakesPrecedenceOverTheErrorDocument() {
            var bucket = new FakeBucket().with("error.html");

            get(site("error.html", report404), "/x", bucket);

            assertThat(bucket.lookedUp).containsExactly("x", "x/index.html");
        }

        @Test
        void example3LeavesFoundKeysAlone() {
            var bucket = new FakeBucket().with("ExamplePage.html");

            assertThat(get(site(null, report404), "/ExamplePage.html", bucket))
                    .isEqualTo(new Serve("ExamplePage.html", 200));
        }

        @Test
        void example3WithAPrefixReplacesThatPrefix() {
            var images404 = new RoutingRule("images/", 404,
                    new Redirect("ec2-11-22-333-44.compute-1.amazonaws.com", null, null, "report-404/", null));

            assertThat(get(site(null, images404), "/x", new FakeBucket()))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "x", null));
            assertThat(get(site(null, images404), "/images/x", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://ec2-11-22-333-44.compute-1.amazonaws.com/report-404/x"));
        }

        @Test
        void anErrorCodeRuleAppliesToThatStatusOnly() {
            var on403 = onError(403, toHost("glitter.example.com"));

            assertThat(get(site(null, on403), "/bad", new FakeBucket()))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "bad", null));
            assertThat(get(site(null, on403), "/bad", new FakeBucket().unlistable()))
                    .isEqualTo(redirect(301, "http://glitter.example.com/bad"));
        }

        @Test
        void aRuleWithoutConditionRedirectsEverything() {
            var always = new RoutingRule(null, null, toHost("apples.example.com"));

            assertThat(get(site(null, always), "/any", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://apples.example.com/any"));
        }

        @Test
        void theFirstMatchingRuleWins() {
            var first = new RoutingRule(null, null, toHost("first.example.com"));
            var second = new RoutingRule(null, null, toHost("second.example.com"));

            assertThat(get(site(null, first, second), "/any", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://first.example.com/any"));
        }

        @Test
        void anEmptyPrefixMatchesEveryKey() {
            var all = onPrefix("", toHost("example.com"));

            assertThat(get(site(null, all), "/any", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://example.com/any"));
            assertThat(get(site(null, all), "/", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://example.com/"));
        }

        @Test
        void aPrefixRuleRedirectsAKeyThatExists() {
            var bucket = new FakeBucket().with("r");

            assertThat(get(site(null, onPrefix("r", toHost("example.com"))), "/r", bucket))
                    .isEqualTo(redirect(301, "http://example.com/r"));
        }

        @Test
        void aPrefixRuleMatchesTheRequestedKeyNotTheIndexDocument() {
            var bucket = new FakeBucket().with("r/index.html");

            assertThat(get(site(null, onPrefix("r/", toHost("example.com"))), "/r/", bucket))
                    .isEqualTo(redirect(301, "http://example.com/r/"));
            assertThat(get(site(null, onPrefix("r", toHost("example.com"))), "/bad", bucket))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "bad", null));
        }

        @Test
        void prefixesAreCaseSensitive() {
            assertThat(get(site(null, renamed), "/Docs/a.html", new FakeBucket()))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "Docs/a.html", null));
        }

        @Test
        void bothConditionsMustHold() {
            var both = new RoutingRule("r", 404, toHost("aerial.example.com"));

            assertThat(get(site(null, both), "/rad", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://aerial.example.com/rad"));
            assertThat(get(site(null, both), "/bad", new FakeBucket()))
                    .isEqualTo(new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "bad", null));
            assertThat(get(site(null, both), "/rad", new FakeBucket().with("rad")))
                    .isEqualTo(new Serve("rad", 200));
        }

        /** LocalStack's test_routing_rules_conditions, run against S3. */
        @Test
        void prefixRulesBeforeTheLookupErrorRulesAfterIt() {
            var configuration = site("error.html",
                    new RoutingRule("both-prefixed/", 404, replaceKeyWith("redirected-both.html")),
                    onPrefix("prefixed", replaceKeyWith("redirected.html")),
                    onError(404, replaceKeyWith("redirected.html")));
            var bucket = new FakeBucket().with("redirected.html", "prefixed-key-test", "redirected-both.html");

            assertThat(get(configuration, "/non-existent-key", bucket))
                    .isEqualTo(redirect(301, "http://" + HOST + "/redirected.html"));
            assertThat(get(configuration, "/prefixed-key-test", bucket))
                    .isEqualTo(redirect(301, "http://" + HOST + "/redirected.html"));
            assertThat(get(configuration, "/both-prefixed/", bucket))
                    .isEqualTo(redirect(301, "http://" + HOST + "/redirected-both.html"));
        }

        @Test
        void configuredTextKeepsItsMeaningTheRequestedKeyIsEncoded() {
            // The single-page application trick: send every 404 to the app under #!/.
            var spa = onError(404, new Redirect("myhostname.com", null, null, "#!/", null));

            assertThat(get(site(null, spa), "/about us", new FakeBucket()))
                    .isEqualTo(redirect(301, "http://myhostname.com/#!/about%20us"));
        }

        @Test
        void withoutAReplacementTheKeyIsKept() {
            var https = onPrefix("secure/", new Redirect(null, "https", null, null, null));

            assertThat(get(site(null, https), "/secure/caf\u00e9", new FakeBucket()))
                    .isEqualTo(redirect(301, "https://" + HOST + "/secure/caf%C3%A9"));
        }

        @Test
        void aFolderRedirectEncodesTheKey() {
            var bucket = new FakeBucket().with("my folder/index.html");

            assertThat(get(site(null), "/my folder", bucket)).isEqualTo(redirect(302, "/my%20folder/"));
        }
    }

    @Test
    void aConfigurationWithNeitherIndexNorRedirectIsRefused() {
        var broken = new WebsiteConfiguration(null, "error.html", null, List.of());

        assertThatThrownBy(() -> get(broken, "/", new FakeBucket())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRequestedKeyIsThePathWithoutItsLeadingSlash() {
        assertThat(new WebsiteRequest("/a/b", HOST, "http").key()).isEqualTo("a/b");
        assertThat(new WebsiteRequest("/", HOST, "http").key()).isEmpty();
        assertThat(new WebsiteRequest("", HOST, "http").key()).isEmpty();
        assertThat(new WebsiteRequest("//a", HOST, "http").key()).isEqualTo("/a");
    }

    @Test
    void theServedKeyIsTheOneTheLookupFound() {
        WebsiteOutcome outcome = Website.resolve(site(null), new WebsiteRequest("/", HOST, "http"),
                key -> Optional.of(new WebsiteObject(key, null)));

        assertThat(outcome).isEqualTo(new Serve("index.html", 200));
    }
}
