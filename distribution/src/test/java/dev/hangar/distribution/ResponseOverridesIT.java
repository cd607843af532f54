package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The {@code response-*} parameters of GetObject and HeadObject replace headers of the answer. S3 takes them
 * from signed requests and presigned URLs only: an anonymous request that carries one, even for a public object,
 * is refused with 400 InvalidRequest, as S3 refuses it.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ResponseOverridesIT extends AbstractS3IT {
    private String bucket;

    @BeforeAll
    void createPublicObject() {
        bucket = createBucket("overrides");
        s3.putObject(request -> request.bucket(bucket).key("page").contentType("text/plain")
                .acl(ObjectCannedACL.PUBLIC_READ), RequestBody.fromString("<script>alert(1)</script>"));
    }

    @Test
    void anonymousRequestsMayReadThePublicObjectButNotOverrideItsHeaders() {
        RawS3.Response plain = anonymous("GET", "/" + bucket + "/page");
        assertThat(plain.status()).as("%s", plain).isEqualTo(200);
        assertThat(plain.header("Content-Type")).contains("text/plain");

        for (String parameter : new String[] {"response-content-type=text%2Fhtml",
                "response-content-disposition=inline", "response-cache-control=no-cache",
                "response-content-encoding=gzip", "response-content-language=en", "response-expires=0"}) {
            RawS3.Response get = anonymous("GET", "/" + bucket + "/page?" + parameter);
            assertThat(get.status()).as("%s: %s", parameter, get).isEqualTo(400);
            assertThat(get.errorCode()).contains("InvalidRequest");
            assertThat(get.bodyText())
                    .contains("<Message>Request specific response headers cannot be used for anonymous GET requests.</Message>");
            assertThat(anonymous("HEAD", "/" + bucket + "/page?" + parameter).status()).isEqualTo(400);
        }
    }

    @Test
    void signedRequestsAndPresignedUrlsMayOverride() {
        ResponseBytes<GetObjectResponse> signed = s3.getObjectAsBytes(request -> request.bucket(bucket).key("page")
                .responseContentType("application/octet-stream").responseContentDisposition("attachment"));
        assertThat(signed.response().contentType()).isEqualTo("application/octet-stream");
        assertThat(signed.response().contentDisposition()).isEqualTo("attachment");

        try (S3Presigner presigner = S3Clients.presigner(endpoint(), ACCESS_KEY, SECRET_KEY)) {
            URI url = presigner.presignGetObject(request -> request.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(get -> get.bucket(bucket).key("page").responseContentType("text/csv")))
                    .url().toURI().normalize();
            RawS3.Response presigned = raw.send(HttpRequest.newBuilder(url).GET().build());
            assertThat(presigned.status()).as("%s", presigned).isEqualTo(200);
            assertThat(presigned.header("Content-Type")).contains("text/csv");
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A value no header can carry would break the answer half-way; it is refused before. */
    @Test
    void anOverrideWithAControlCharacterIsRefused() {
        RawS3.Response get = raw.send(raw.sign(raw.request(SdkHttpMethod.GET, "/" + bucket + "/page")
                .putRawQueryParameter("response-content-type", "text/plain\r\nX-Injected: 1").build(), (byte[]) null,
                properties -> {
                }));

        assertThat(get.status()).as("%s", get).isEqualTo(400);
        assertThat(get.errorCode()).contains("InvalidArgument");
        assertThat(get.header("X-Injected")).isEmpty();
    }

    private RawS3.Response anonymous(String method, String target) {
        return raw.send(HttpRequest.newBuilder(URI.create(endpoint() + target))
                .method(method, HttpRequest.BodyPublishers.noBody()).build());
    }
}
