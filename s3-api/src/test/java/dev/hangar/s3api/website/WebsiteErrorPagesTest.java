package dev.hangar.s3api.website;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.website.WebsiteOutcome.ErrorDocumentFailure;
import dev.hangar.s3api.website.WebsiteOutcome.ErrorPage;
import org.junit.jupiter.api.Test;

/** S3's HTML error pages for website endpoints. */
class WebsiteErrorPagesTest {
    private static final String NO_SUCH_KEY = "The specified key does not exist.";

    @Test
    void notFound() {
        var page = new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "index.html", null);

        assertThat(WebsiteErrorPages.render(page, "7J0S8F9Z", "host+id=")).isEqualTo("""
                <html>
                <head><title>404 Not Found</title></head>
                <body>
                <h1>404 Not Found</h1>
                <ul>
                <li>Code: NoSuchKey</li>
                <li>Message: The specified key does not exist.</li>
                <li>Key: index.html</li>
                <li>RequestId: 7J0S8F9Z</li>
                <li>HostId: host+id=</li>
                </ul>
                <hr/>
                </body>
                </html>
                """);
    }

    @Test
    void notFoundWithAMissingErrorDocument() {
        var page = new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "photos/x.jpg",
                new ErrorDocumentFailure("NoSuchKey", NO_SUCH_KEY, "error.html"));

        assertThat(WebsiteErrorPages.render(page, "R", "H")).isEqualTo("""
                <html>
                <head><title>404 Not Found</title></head>
                <body>
                <h1>404 Not Found</h1>
                <ul>
                <li>Code: NoSuchKey</li>
                <li>Message: The specified key does not exist.</li>
                <li>Key: photos/x.jpg</li>
                <li>RequestId: R</li>
                <li>HostId: H</li>
                </ul>
                <h3>An Error Occurred While Attempting to Retrieve a Custom Error Document</h3>
                <ul>
                <li>Code: NoSuchKey</li>
                <li>Message: The specified key does not exist.</li>
                <li>Key: error.html</li>
                </ul>
                <hr/>
                </body>
                </html>
                """);
    }

    @Test
    void forbiddenWithAnUnreadableErrorDocument() {
        var page = new ErrorPage(403, "AccessDenied", "Access Denied", null,
                new ErrorDocumentFailure("AccessDenied", "Access Denied", null));

        assertThat(WebsiteErrorPages.render(page, "R", "H")).isEqualTo("""
                <html>
                <head><title>403 Forbidden</title></head>
                <body>
                <h1>403 Forbidden</h1>
                <ul>
                <li>Code: AccessDenied</li>
                <li>Message: Access Denied</li>
                <li>RequestId: R</li>
                <li>HostId: H</li>
                </ul>
                <h3>An Error Occurred While Attempting to Retrieve a Custom Error Document</h3>
                <ul>
                <li>Code: AccessDenied</li>
                <li>Message: Access Denied</li>
                </ul>
                <hr/>
                </body>
                </html>
                """);
    }

    @Test
    void everyValueIsEscaped() {
        var page = new ErrorPage(404, "NoSuchKey", NO_SUCH_KEY, "<script>alert('x')</script>&\"",
                new ErrorDocumentFailure("NoSuchKey", NO_SUCH_KEY, "<b>err</b>.html"));

        String html = WebsiteErrorPages.render(page, "<id>", "a&b");

        assertThat(html)
                .contains("<li>Key: &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;</li>")
                .contains("<li>Key: &lt;b&gt;err&lt;/b&gt;.html</li>")
                .contains("<li>RequestId: &lt;id&gt;</li>")
                .contains("<li>HostId: a&amp;b</li>")
                .doesNotContain("<script>", "<b>", "<id>");
    }

    @Test
    void bucketErrorsNameTheBucket() {
        assertThat(WebsiteErrorPages.renderBucketError(S3Error.NO_SUCH_WEBSITE_CONFIGURATION, "my<bucket>", "R", "H"))
                .isEqualTo("""
                        <html>
                        <head><title>404 Not Found</title></head>
                        <body>
                        <h1>404 Not Found</h1>
                        <ul>
                        <li>Code: NoSuchWebsiteConfiguration</li>
                        <li>Message: The specified bucket does not have a website configuration</li>
                        <li>BucketName: my&lt;bucket&gt;</li>
                        <li>RequestId: R</li>
                        <li>HostId: H</li>
                        </ul>
                        <hr/>
                        </body>
                        </html>
                        """);
        assertThat(WebsiteErrorPages.renderBucketError(S3Error.NO_SUCH_BUCKET, "gone", "R", "H"))
                .contains("<li>Code: NoSuchBucket</li>", "<li>BucketName: gone</li>");
    }

    @Test
    void methodNotAllowed() {
        assertThat(WebsiteErrorPages.renderMethodNotAllowed("POST", "R", "H")).isEqualTo("""
                <html>
                <head><title>405 Method Not Allowed</title></head>
                <body>
                <h1>405 Method Not Allowed</h1>
                <ul>
                <li>Code: MethodNotAllowed</li>
                <li>Message: The specified method is not allowed against this resource.</li>
                <li>Method: POST</li>
                <li>ResourceType: OBJECT</li>
                <li>RequestId: R</li>
                <li>HostId: H</li>
                </ul>
                <hr/>
                </body>
                </html>
                """);
    }

    @Test
    void pagesFromResolutionRenderTheirStatus() {
        var page = (ErrorPage) Website.resolve(new WebsiteConfiguration("index.html", null, null, java.util.List.of()),
                new WebsiteRequest("/missing", "h", "http"), new FakeBucket());

        assertThat(WebsiteErrorPages.render(page, "R", "H"))
                .startsWith("<html>\n<head><title>404 Not Found</title></head>")
                .contains("<li>Key: missing</li>");
    }
}
