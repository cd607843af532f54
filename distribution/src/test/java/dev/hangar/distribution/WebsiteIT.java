package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.hangar.distribution.support.S3Clients;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.http.Header;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpHead;
import org.apache.http.client.methods.HttpOptions;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.client.methods.HttpRequestBase;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.RoutingRule;
import software.amazon.awssdk.services.s3.model.WebsiteConfiguration;

/**
 * The static website listener, as a browser sees it: the bucket named by the Host
 * ({@code bucket.website.localhost}, or a whole host name as with a CNAME), anonymous GET and HEAD,
 * index and error documents, redirects of every kind, S3's HTML error pages, and access as the
 * bucket policy allows. Configurations are stored through the SDK; pages are fetched with a plain
 * HTTP client that follows no redirect.
 */
class WebsiteIT extends AbstractS3IT {

    private static final String HTML = "text/html; charset=utf-8";
    private static final String INDEX = "<html><body>home</body></html>";
    private static final String ERROR = "<html><body>custom error</body></html>";

    @Autowired
    private MeterRegistry registry;

    private CloseableHttpClient browser;

    @BeforeAll
    void openBrowser() {
        browser = HttpClients.custom()
            .setDnsResolver(S3Clients.LOCALHOST_RESOLVER)
            .disableRedirectHandling()
            .disableContentCompression()
            .disableAutomaticRetries()
            .disableCookieManagement()
            .build();
    }

    @AfterAll
    void closeBrowser() throws IOException {
        browser.close();
    }

    @Test
    void indexDocumentIsServedAtTheRootAndInFolders() {
        String bucket = publicSite("index", website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "index.html", INDEX, "text/html");
        put(bucket, "docs/index.html", "<p>docs</p>", "text/html");
        put(bucket, "docs/guide.css", "body{}", "text/css");

        Page root = get(bucket, "/");
        assertThat(root.status()).isEqualTo(200);
        assertThat(root.body()).isEqualTo(INDEX);
        assertThat(root.header("Content-Type")).isEqualTo("text/html");
        assertThat(root.header("Content-Length")).isEqualTo(Integer.toString(INDEX.length()));
        assertThat(root.header("ETag")).isEqualTo(s3.headObject(r -> r.bucket(bucket).key("index.html")).eTag());
        assertThat(root.header("Last-Modified")).endsWith("GMT");

        assertThat(get(bucket, "").body()).isEqualTo(INDEX);
        Page folder = get(bucket, "/docs/");
        assertThat(folder.status()).isEqualTo(200);
        assertThat(folder.body()).isEqualTo("<p>docs</p>");
        Page asset = get(bucket, "/docs/guide.css");
        assertThat(asset.status()).isEqualTo(200);
        assertThat(asset.header("Content-Type")).isEqualTo("text/css");
        assertThat(asset.body()).isEqualTo("body{}");
    }

    @Test
    void folderWithoutTrailingSlashIsRedirectedToIt() {
        String bucket = publicSite("folder", website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "docs/index.html", "<p>docs</p>", "text/html");

        Page page = get(bucket, "/docs");
        assertThat(page.status()).isEqualTo(302);
        assertThat(page.header("Location")).isEqualTo("/docs/");
    }

    @Test
    void keysArePercentDecoded() {
        String bucket = publicSite("decode", website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "my page+1 é.html", "spaces", "text/html");

        Page page = get(bucket, "/my%20page+1%20%C3%A9.html");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).isEqualTo("spaces");
    }

    @Test
    void errorDocumentIsServedWithTheErrorStatus() {
        String bucket = publicSite("errordoc", website -> website
            .indexDocument(index -> index.suffix("index.html"))
            .errorDocument(error -> error.key("error.html")));
        put(bucket, "error.html", ERROR, "text/html");

        Page missing = get(bucket, "/no/such/page.html");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body()).isEqualTo(ERROR);
        assertThat(missing.header("Content-Type")).isEqualTo("text/html");

        Page missingIndex = get(bucket, "/");
        assertThat(missingIndex.status()).isEqualTo(404);
        assertThat(missingIndex.body()).isEqualTo(ERROR);
    }

    @Test
    void withoutAnErrorDocumentTheErrorIsS3sHtmlPage() {
        String bucket = publicSite("htmlpage", website -> website.indexDocument(index -> index.suffix("index.html")));

        Page missing = get(bucket, "/missing.html");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("Content-Type")).isEqualTo(HTML);
        assertThat(missing.body())
            .contains("<title>404 Not Found</title>")
            .contains("<li>Code: NoSuchKey</li>")
            .contains("<li>Key: missing.html</li>")
            .contains("<li>RequestId: " + missing.header("x-amz-request-id") + "</li>");

        Page folderIndex = get(bucket, "/a/");
        assertThat(folderIndex.body()).contains("<li>Key: a/index.html</li>");
    }

    @Test
    void missingErrorDocumentIsReportedOnThePage() {
        String bucket = publicSite("noerrordoc", website -> website
            .indexDocument(index -> index.suffix("index.html"))
            .errorDocument(error -> error.key("error.html")));

        Page missing = get(bucket, "/missing.html");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("Content-Type")).isEqualTo(HTML);
        assertThat(missing.body())
            .contains("<li>Code: NoSuchKey</li>")
            .contains("An Error Occurred While Attempting to Retrieve a Custom Error Document")
            .contains("<li>Key: error.html</li>");
    }

    @Test
    void redirectAllRequestsKeepsPathAndQuery() {
        String bucket = publicSite("redirectall", website -> website
            .redirectAllRequestsTo(to -> to.hostName("www.example.com").protocol("https")));

        Page page = get(bucket, "/a/b.html?x=1&y=2");
        assertThat(page.status()).isEqualTo(301);
        assertThat(page.header("Location")).isEqualTo("https://www.example.com/a/b.html?x=1&y=2");

        Page root = get(bucket, "/");
        assertThat(root.status()).isEqualTo(301);
        assertThat(root.header("Location")).isEqualTo("https://www.example.com/");
    }

    @Test
    void redirectAllRequestsWithoutProtocolKeepsTheRequestsOne() {
        String bucket = publicSite("redirectproto", website -> website
            .redirectAllRequestsTo(to -> to.hostName("example.org")));

        assertThat(get(bucket, "/x").header("Location")).isEqualTo("http://example.org/x");
    }

    @Test
    void routingRuleReplacesAKeyPrefix() {
        String bucket = publicSite("prefixrule", website -> website
            .indexDocument(index -> index.suffix("index.html"))
            .routingRules(RoutingRule.builder()
                .condition(condition -> condition.keyPrefixEquals("docs/"))
                .redirect(redirect -> redirect.replaceKeyPrefixWith("documents/"))
                .build()));
        put(bucket, "docs/page.html", "old place", "text/html");

        Page page = get(bucket, "/docs/page.html");
        assertThat(page.status()).isEqualTo(301);
        assertThat(page.header("Location")).isEqualTo(siteRoot(bucket) + "/documents/page.html");

        assertThat(get(bucket, "/other.html").status()).as("keys outside the prefix are not redirected").isEqualTo(404);
    }

    @Test
    void routingRuleOnErrorCodeRedirectsMissingKeysOnly() {
        String bucket = publicSite("errorrule", website -> website
            .indexDocument(index -> index.suffix("index.html"))
            .errorDocument(error -> error.key("error.html"))
            .routingRules(RoutingRule.builder()
                .condition(condition -> condition.httpErrorCodeReturnedEquals("404"))
                .redirect(redirect -> redirect
                    .hostName("fallback.example.com")
                    .protocol("https")
                    .httpRedirectCode("302")
                    .replaceKeyPrefixWith("missing/"))
                .build()));
        put(bucket, "present.html", "here", "text/html");
        put(bucket, "error.html", ERROR, "text/html");

        Page missing = get(bucket, "/gone.html");
        assertThat(missing.status()).isEqualTo(302);
        assertThat(missing.header("Location")).isEqualTo("https://fallback.example.com/missing/gone.html");

        Page present = get(bucket, "/present.html");
        assertThat(present.status()).isEqualTo(200);
        assertThat(present.body()).isEqualTo("here");
    }

    @Test
    void objectRedirectLocationRedirects() {
        String bucket = publicSite("objredirect", website -> website.indexDocument(index -> index.suffix("index.html")));
        s3.putObject(PutObjectRequest.builder().bucket(bucket).key("moved.html")
            .websiteRedirectLocation("/new-place.html").build(), RequestBody.fromString(""));
        s3.putObject(PutObjectRequest.builder().bucket(bucket).key("away.html")
            .websiteRedirectLocation("https://www.example.com/away").build(), RequestBody.fromString(""));

        Page moved = get(bucket, "/moved.html");
        assertThat(moved.status()).isEqualTo(301);
        assertThat(moved.header("Location")).isEqualTo("/new-place.html");
        assertThat(get(bucket, "/away.html").header("Location")).isEqualTo("https://www.example.com/away");
    }

    @Test
    void objectsThePolicyDoesNotOpenAreForbidden() {
        String bucket = createBucket("private");
        putWebsite(bucket, website -> website.indexDocument(index -> index.suffix("index.html")));
        s3.putBucketPolicy(request -> request.bucket(bucket).policy("""
            {"Version":"2012-10-17","Statement":[
              {"Sid":"PublicRead","Effect":"Allow","Principal":"*","Action":"s3:GetObject",
               "Resource":"arn:aws:s3:::%1$s/*"},
              {"Sid":"KeepPrivate","Effect":"Deny","Principal":"*","Action":"s3:GetObject",
               "Resource":"arn:aws:s3:::%1$s/private/*"}]}
            """.formatted(bucket)));
        put(bucket, "index.html", INDEX, "text/html");
        put(bucket, "private/secret.html", "secret", "text/html");

        assertThat(get(bucket, "/").status()).isEqualTo(200);
        Page secret = get(bucket, "/private/secret.html");
        assertThat(secret.status()).isEqualTo(403);
        assertThat(secret.header("Content-Type")).isEqualTo(HTML);
        assertThat(secret.body())
            .contains("<title>403 Forbidden</title>")
            .contains("<li>Code: AccessDenied</li>")
            .doesNotContain("secret</");
    }

    @Test
    void bucketWithoutPublicAccessIsForbiddenEvenForItsErrorDocument() {
        String bucket = createBucket("nopolicy");
        putWebsite(bucket, website -> website
            .indexDocument(index -> index.suffix("index.html"))
            .errorDocument(error -> error.key("error.html")));
        put(bucket, "index.html", INDEX, "text/html");
        put(bucket, "error.html", ERROR, "text/html");

        Page page = get(bucket, "/");
        assertThat(page.status()).isEqualTo(403);
        assertThat(page.body())
            .contains("<li>Code: AccessDenied</li>")
            .contains("An Error Occurred While Attempting to Retrieve a Custom Error Document")
            .doesNotContain(ERROR);
    }

    @Test
    void headAnswersHeadersWithoutBody() {
        String bucket = publicSite("head", website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "index.html", INDEX, "text/html");

        Page root = send(new HttpHead(siteRoot(bucket) + "/"));
        assertThat(root.status()).isEqualTo(200);
        assertThat(root.header("Content-Length")).isEqualTo(Integer.toString(INDEX.length()));
        assertThat(root.header("Content-Type")).isEqualTo("text/html");
        assertThat(root.header("ETag")).isNotBlank();
        assertThat(root.body()).isEmpty();

        Page missing = send(new HttpHead(siteRoot(bucket) + "/missing.html"));
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body()).isEmpty();
    }

    @Test
    void rangesAndConditionalRequestsApplyToThePage() {
        String bucket = publicSite("range", website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "digits.txt", "0123456789", "text/plain");

        HttpGet range = new HttpGet(siteRoot(bucket) + "/digits.txt");
        range.setHeader("Range", "bytes=2-5");
        Page partial = send(range);
        assertThat(partial.status()).isEqualTo(206);
        assertThat(partial.body()).isEqualTo("2345");
        assertThat(partial.header("Content-Range")).isEqualTo("bytes 2-5/10");

        HttpGet conditional = new HttpGet(siteRoot(bucket) + "/digits.txt");
        conditional.setHeader("If-None-Match", get(bucket, "/digits.txt").header("ETag"));
        assertThat(send(conditional).status()).isEqualTo(304);
    }

    @Test
    void largeObjectsAreStreamedWhole() throws IOException {
        String bucket = publicSite("large", website -> website.indexDocument(index -> index.suffix("index.html")));
        byte[] content = new byte[5 * MIB / 2 + 17];
        new Random(42).nextBytes(content);
        s3.putObject(request -> request.bucket(bucket).key("video.bin"), RequestBody.fromBytes(content));

        try (CloseableHttpResponse response = browser.execute(new HttpGet(siteRoot(bucket) + "/video.bin"))) {
            assertThat(response.getStatusLine().getStatusCode()).isEqualTo(200);
            assertThat(response.getFirstHeader("Content-Length").getValue()).isEqualTo(Integer.toString(content.length));
            assertThat(EntityUtils.toByteArray(response.getEntity())).isEqualTo(content);
        }
    }

    @Test
    void bucketWithoutWebsiteConfigurationIsNotFound() {
        String bucket = createBucket("nowebsite");
        put(bucket, "index.html", INDEX, "text/html");

        Page page = get(bucket, "/");
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.header("Content-Type")).isEqualTo(HTML);
        assertThat(page.body())
            .contains("<li>Code: NoSuchWebsiteConfiguration</li>")
            .contains("<li>BucketName: " + bucket + "</li>");
    }

    @Test
    void missingBucketIsNotFound() {
        String bucket = newBucketName("absent");

        Page page = get(bucket, "/index.html");
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.body())
            .contains("<li>Code: NoSuchBucket</li>")
            .contains("<li>BucketName: " + bucket + "</li>");
    }

    @Test
    void onlyGetAndHeadAreServed() {
        String bucket = publicSite("methods", website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "index.html", INDEX, "text/html");

        Page post = send(new HttpPost(siteRoot(bucket) + "/index.html"));
        assertThat(post.status()).isEqualTo(405);
        assertThat(post.header("Content-Type")).isEqualTo(HTML);
        assertThat(post.body())
            .contains("<li>Code: MethodNotAllowed</li>")
            .contains("<li>Method: POST</li>");
        assertThat(s3.headObject(r -> r.bucket(bucket).key("index.html")).contentLength()).isEqualTo(INDEX.length());

        HttpOptions preflight = new HttpOptions(siteRoot(bucket) + "/index.html");
        preflight.setHeader("Origin", "https://app.example.com");
        preflight.setHeader("Access-Control-Request-Method", "GET");
        Page options = send(preflight);
        assertThat(options.status()).isEqualTo(405);
        assertThat(options.body()).contains("<li>Method: OPTIONS</li>");
    }

    @Test
    void aHostOutsideTheWebsiteDomainNamesTheBucketWhole() {
        // A CNAME: the bucket is named after the host name the site is served under.
        String bucket = newBucketName("cname") + ".localhost";
        s3.createBucket(request -> request.bucket(bucket));
        putPublicReadPolicy(bucket);
        putWebsite(bucket, website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "index.html", INDEX, "text/html");

        Page page = send(new HttpGet("http://" + bucket + ":" + websitePort() + "/"));
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).isEqualTo(INDEX);
    }

    @Test
    void corsRulesApplyToWebsitePages() {
        String bucket = publicSite("cors", website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "font.woff", "font", "font/woff");
        s3.putBucketCors(request -> request.bucket(bucket).corsConfiguration(cors -> cors.corsRules(
            CORSRule.builder().allowedOrigins("https://app.example.com").allowedMethods("GET").build())));

        HttpGet fromApp = new HttpGet(siteRoot(bucket) + "/font.woff");
        fromApp.setHeader("Origin", "https://app.example.com");
        Page page = send(fromApp);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Access-Control-Allow-Origin")).isEqualTo("https://app.example.com");

        HttpGet fromElsewhere = new HttpGet(siteRoot(bucket) + "/font.woff");
        fromElsewhere.setHeader("Origin", "https://evil.example.com");
        assertThat(send(fromElsewhere).header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void websiteRequestsAreTimed() {
        String bucket = publicSite("metrics", website -> website.indexDocument(index -> index.suffix("index.html")));
        put(bucket, "index.html", INDEX, "text/html");

        long pages = timerCount("200");
        long missing = timerCount("404");

        get(bucket, "/");
        get(bucket, "/missing.html");

        // The timer stops once the response is written, which may be just after the client has it.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(timerCount("200")).isGreaterThan(pages);
            assertThat(timerCount("404")).isGreaterThan(missing);
        });
    }

    private long timerCount(String status) {
        return registry.find("hangar.s3.requests").tags("operation", "WebsiteGet", "status", status).timers().stream()
            .mapToLong(Timer::count)
            .sum();
    }

    /** A bucket anyone may read, with this website configuration. */
    private String publicSite(String prefix, Consumer<WebsiteConfiguration.Builder> website) {
        String bucket = createBucket(prefix);
        putPublicReadPolicy(bucket);
        putWebsite(bucket, website);
        return bucket;
    }

    private void putPublicReadPolicy(String bucket) {
        s3.putBucketPolicy(request -> request.bucket(bucket).policy("""
            {"Version":"2012-10-17","Statement":[{"Sid":"PublicRead","Effect":"Allow","Principal":"*",
              "Action":"s3:GetObject","Resource":"arn:aws:s3:::%s/*"}]}
            """.formatted(bucket)));
    }

    private void putWebsite(String bucket, Consumer<WebsiteConfiguration.Builder> website) {
        s3.putBucketWebsite(request -> request.bucket(bucket).websiteConfiguration(website));
    }

    private void put(String bucket, String key, String content, String contentType) {
        s3.putObject(request -> request.bucket(bucket).key(key).contentType(contentType), RequestBody.fromString(content));
    }

    private String siteRoot(String bucket) {
        return "http://" + bucket + "." + WEBSITE_DOMAIN + ":" + websitePort();
    }

    private Page get(String bucket, String path) {
        return send(new HttpGet(siteRoot(bucket) + path));
    }

    private Page send(HttpRequestBase request) {
        try (CloseableHttpResponse response = browser.execute(request)) {
            Map<String, String> headers = new LinkedHashMap<>();
            for (Header header : response.getAllHeaders()) {
                headers.put(header.getName().toLowerCase(Locale.ROOT), header.getValue());
            }
            String body = response.getEntity() == null
                ? ""
                : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
            return new Page(response.getStatusLine().getStatusCode(), headers, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A response of the website listener. */
    private record Page(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }
}
