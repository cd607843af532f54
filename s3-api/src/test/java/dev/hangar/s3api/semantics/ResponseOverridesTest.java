package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.metadata.AccessKey;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.request.Addressing;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Request;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseOverridesTest {
    private static final Caller ANONYMOUS = Caller.anonymous(Map.of());
    private static final Caller SIGNED = new Caller(new AccessKey("GK1", "secret", Instant.EPOCH), Map.of());

    @ParameterizedTest(name = "?{0}")
    @ValueSource(strings = {"response-content-type=text%2Fhtml", "response-content-disposition=attachment",
            "response-cache-control=no-cache", "response-content-encoding=gzip", "response-content-language=en",
            "response-expires=0", "versionId=v&response-content-type="})
    void anonymousRequestsMayNotOverrideResponseHeaders(String query) {
        var refused = assertS3Error(() -> ResponseOverrides.refuseAnonymous(get(query), ANONYMOUS),
                S3Error.INVALID_REQUEST);

        assertThat(refused.getMessage())
                .isEqualTo("Request specific response headers cannot be used for anonymous GET requests.");
    }

    @Test
    void signedRequestsMayAndAnonymousOnesWithoutOverridesToo() {
        assertThatCode(() -> ResponseOverrides.refuseAnonymous(get("response-content-type=a%2Fb"), SIGNED))
                .doesNotThrowAnyException();
        assertThatCode(() -> ResponseOverrides.refuseAnonymous(get("versionId=v&partNumber=1"), ANONYMOUS))
                .doesNotThrowAnyException();
    }

    @Test
    void overridesReplaceTheStoredHeaderWhateverItsCase() {
        Map<String, String> headers = new LinkedHashMap<>(Map.of("content-type", "a/b", "ETag", "\"e\""));

        ResponseOverrides.apply(get("response-content-type=text%2Fplain&response-expires=0"), headers);

        assertThat(headers).containsExactlyInAnyOrderEntriesOf(
                Map.of("Content-Type", "text/plain", "Expires", "0", "ETag", "\"e\""));
    }

    @ParameterizedTest(name = "?{0}")
    @ValueSource(strings = {"response-content-type=a%0D%0AX-Injected:%201", "response-content-disposition=%01",
            "response-cache-control=%7F", "response-expires=a%0Ab"})
    void refusesAValueNoHeaderCanCarry(String query) {
        assertS3Error(() -> ResponseOverrides.apply(get(query), new LinkedHashMap<>()), S3Error.INVALID_ARGUMENT);
    }

    private static S3Request get(String query) {
        return new S3Request("GET", "b", "k", Addressing.parseQuery(query), new RequestHeaders(Map.of()), "localhost",
                "request-id");
    }
}
