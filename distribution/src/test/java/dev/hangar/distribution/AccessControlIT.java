package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;

/**
 * Bucket policies and canned ACLs, checked on every request: anonymous requests (plain {@code java.net.http},
 * unsigned) get exactly what a policy or an ACL gives them, and a Deny names a key whatever it was granted.
 */
class AccessControlIT extends AbstractS3IT {

    private AdminApi admin;

    @BeforeAll
    void connectAdmin() {
        admin = new AdminApi(managementEndpoint(), http);
    }

    @Test
    void aPublicReadPolicyLetsAnonymousRequestsReadButNotWrite() {
        String bucket = createBucket("acl-policy");
        s3.putObject(request -> request.bucket(bucket).key("page.html"), RequestBody.fromString("<p>hello</p>"));
        assertThat(anonymousGet(bucket, "page.html").status()).isEqualTo(403);

        policy(bucket, """
                {"Version": "2012-10-17", "Statement": [{"Sid": "PublicRead", "Effect": "Allow", "Principal": "*",
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*"}]}""".formatted(bucket));

        RawS3.Response read = anonymousGet(bucket, "page.html");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.bodyText()).isEqualTo("<p>hello</p>");
        RawS3.Response write = anonymousPut(bucket, "page.html", "defaced");
        assertThat(write.status()).isEqualTo(403);
        assertThat(write.errorCode()).contains("AccessDenied");
        // Listing is another action than reading objects.
        assertThat(anonymousGet(bucket, null).status()).isEqualTo(403);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("page.html")).asUtf8String())
                .isEqualTo("<p>hello</p>");
    }

    @Test
    void aDenyNamingAKeyOverridesItsPermission() {
        String bucket = createBucket("acl-deny");
        s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
        AdminApi.Key denied = admin.createKey();
        AdminApi.Key allowed = admin.createKey();
        admin.permit(denied.id(), bucket, true, true, false);
        admin.permit(allowed.id(), bucket, true, true, false);
        policy(bucket, """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": {"AWS": ["%s"]},
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*"}]}""".formatted(denied.id(), bucket));

        try (S3Client deniedClient = clientFor(denied); S3Client allowedClient = clientFor(allowed)) {
            assertS3Error(() -> deniedClient.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")),
                    403, "AccessDenied");
            // The Deny names GetObject only.
            deniedClient.putObject(request -> request.bucket(bucket).key("other.txt"), RequestBody.fromString("x"));
            assertThat(allowedClient.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt"))
                    .asUtf8String()).isEqualTo("contents");
        }
        // The root key is never denied, so that a wrong policy can always be repaired.
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("doc.txt")).asUtf8String())
                .isEqualTo("contents");
    }

    @Test
    void aSourceIpConditionAllowsOnlyTheAddressesItNames() {
        String local = createBucket("acl-ip-local");
        String remote = createBucket("acl-ip-remote");
        for (String bucket : new String[] {local, remote}) {
            s3.putObject(request -> request.bucket(bucket).key("doc.txt"), RequestBody.fromString("contents"));
        }
        policy(local, ipPolicy(local, "127.0.0.1/32"));
        policy(remote, ipPolicy(remote, "192.0.2.0/24"));

        RawS3.Response fromHere = anonymousGet(local, "doc.txt");
        assertThat(fromHere.status()).isEqualTo(200);
        assertThat(fromHere.bodyText()).isEqualTo("contents");
        assertThat(anonymousGet(remote, "doc.txt").status()).isEqualTo(403);
    }

    @Test
    void aPublicReadObjectAclOpensThatObjectOnly() {
        String bucket = createBucket("acl-object");
        s3.putObject(request -> request.bucket(bucket).key("public.txt").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("public"));
        s3.putObject(request -> request.bucket(bucket).key("private.txt"), RequestBody.fromString("private"));

        RawS3.Response open = anonymousGet(bucket, "public.txt");
        assertThat(open.status()).isEqualTo(200);
        assertThat(open.bodyText()).isEqualTo("public");
        RawS3.Response closed = anonymousGet(bucket, "private.txt");
        assertThat(closed.status()).isEqualTo(403);
        assertThat(closed.errorCode()).contains("AccessDenied");
        assertThat(anonymousPut(bucket, "public.txt", "defaced").status()).isEqualTo(403);
        assertThat(anonymousGet(bucket, null).status()).isEqualTo(403);
    }

    // Helpers

    private static String ipPolicy(String bucket, String range) {
        return """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": "*",
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*",
                  "Condition": {"IpAddress": {"aws:SourceIp": "%s"}}}]}""".formatted(bucket, range);
    }

    private void policy(String bucket, String document) {
        s3.putBucketPolicy(request -> request.bucket(bucket).policy(document));
    }

    /** An unsigned GET of an object, or of the bucket (a listing) when key is null, from 127.0.0.1. */
    private RawS3.Response anonymousGet(String bucket, String key) {
        return raw.send(HttpRequest.newBuilder(anonymousUri(bucket, key)).GET().build());
    }

    private RawS3.Response anonymousPut(String bucket, String key, String content) {
        return raw.send(HttpRequest.newBuilder(anonymousUri(bucket, key))
                .PUT(HttpRequest.BodyPublishers.ofString(content)).build());
    }

    private URI anonymousUri(String bucket, String key) {
        return URI.create("http://127.0.0.1:" + nextPort() + "/" + bucket + (key == null ? "" : "/" + key));
    }

    private S3Client clientFor(AdminApi.Key key) {
        return clientFor(key.id(), key.secret());
    }
}
