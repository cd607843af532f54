package dev.hangar.s3api.website;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.website.WebsiteOutcome.ErrorDocumentFailure;
import dev.hangar.s3api.website.WebsiteOutcome.ErrorPage;

/**
 * S3's HTML error pages for website endpoints, in S3's layout: a title and heading of status and
 * reason, a list of {@code Code}, {@code Message}, the resource, {@code RequestId} and
 * {@code HostId}, then, when the bucket's error document could not be served, the same list for
 * that failure under "An Error Occurred While Attempting to Retrieve a Custom Error Document".
 * Every value is HTML-escaped. Send the page as {@code text/html; charset=utf-8}.
 */
public final class WebsiteErrorPages {
    private WebsiteErrorPages() {}

    /** The page for an {@link ErrorPage} outcome. */
    public static String render(ErrorPage page, String requestId, String hostId) {
        var html = new StringBuilder(512);
        open(html, page.status());
        item(html, "Code", page.code());
        item(html, "Message", page.message());
        if (page.key() != null) {
            item(html, "Key", page.key());
        }
        item(html, "RequestId", requestId);
        item(html, "HostId", hostId);
        html.append("</ul>\n");
        ErrorDocumentFailure failure = page.errorDocumentFailure();
        if (failure != null) {
            html.append("<h3>An Error Occurred While Attempting to Retrieve a Custom Error Document</h3>\n<ul>\n");
            item(html, "Code", failure.code());
            item(html, "Message", failure.message());
            if (failure.key() != null) {
                item(html, "Key", failure.key());
            }
            html.append("</ul>\n");
        }
        return close(html);
    }

    /**
     * The page for an error about the bucket rather than a key, such as
     * {@link S3Error#NO_SUCH_BUCKET} or {@link S3Error#NO_SUCH_WEBSITE_CONFIGURATION}: it names the
     * bucket in a {@code BucketName} line.
     */
    public static String renderBucketError(S3Error error, String bucketName, String requestId, String hostId) {
        var html = new StringBuilder(512);
        open(html, error.status());
        item(html, "Code", error.code());
        item(html, "Message", error.message());
        item(html, "BucketName", bucketName);
        item(html, "RequestId", requestId);
        item(html, "HostId", hostId);
        html.append("</ul>\n");
        return close(html);
    }

    /** The 405 page for a method a website endpoint does not serve (it serves GET and HEAD). */
    public static String renderMethodNotAllowed(String method, String requestId, String hostId) {
        var html = new StringBuilder(512);
        open(html, S3Error.METHOD_NOT_ALLOWED.status());
        item(html, "Code", S3Error.METHOD_NOT_ALLOWED.code());
        item(html, "Message", S3Error.METHOD_NOT_ALLOWED.message());
        item(html, "Method", method);
        item(html, "ResourceType", "OBJECT");
        item(html, "RequestId", requestId);
        item(html, "HostId", hostId);
        html.append("</ul>\n");
        return close(html);
    }

    private static void open(StringBuilder html, int status) {
        String title = status + " " + reason(status);
        html.append("<html>\n<head><title>").append(title).append("</title></head>\n<body>\n<h1>")
                .append(title).append("</h1>\n<ul>\n");
    }

    private static String close(StringBuilder html) {
        return html.append("<hr/>\n</body>\n</html>\n").toString();
    }

    private static void item(StringBuilder html, String name, String value) {
        html.append("<li>").append(name).append(": ").append(escape(value)).append("</li>\n");
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 500 -> "Service Error";
            case 503 -> "Service Unavailable";
            default -> "Error";
        };
    }

    static String escape(String text) {
        var escaped = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
