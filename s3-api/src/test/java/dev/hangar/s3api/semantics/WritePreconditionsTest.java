package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Request;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WritePreconditionsTest {

    @Test
    void headersBecomePreconditions() {
        assertThat(WritePreconditions.of(request(Map.of()))).isEqualTo(new Precondition.None());
        assertThat(WritePreconditions.of(request(Map.of("If-None-Match", "*")))).isEqualTo(new Precondition.IfAbsent());
        assertThat(WritePreconditions.of(request(Map.of("If-Match", " \"abc\" "))))
                .isEqualTo(new Precondition.IfEtagMatches("\"abc\""));
    }

    @Test
    void whatS3DoesNotOfferIsNotImplemented() {
        assertS3Error(() -> WritePreconditions.of(request(Map.of("If-None-Match", "\"abc\""))), S3Error.NOT_IMPLEMENTED);
        assertS3Error(() -> WritePreconditions.of(request(Map.of("If-Match", "\"a\", \"b\""))), S3Error.NOT_IMPLEMENTED);
        assertS3Error(() -> WritePreconditions.of(request(Map.of("If-Match", "\"a\"", "If-None-Match", "*"))),
                S3Error.NOT_IMPLEMENTED);
    }

    @Test
    void ifMatchOnAMissingKeyIsNoSuchKey() {
        Precondition ifMatch = new Precondition.IfEtagMatches("\"abc\"");
        ObjectVersion marker = new ObjectVersion("b", "k", "v", Instant.EPOCH, 0, "\"\"",
                new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null, List.of());
        ObjectVersion object = new ObjectVersion("b", "k", "null", Instant.EPOCH, 1, "\"def\"",
                new ObjectContent.Inline(new byte[1]), Map.of(), Map.of(), null, List.of());

        assertThat(WritePreconditions.failure(ifMatch, Optional.empty()).error()).isEqualTo(S3Error.NO_SUCH_KEY);
        assertThat(WritePreconditions.failure(ifMatch, Optional.of(marker)).error()).isEqualTo(S3Error.NO_SUCH_KEY);
        assertThat(WritePreconditions.failure(ifMatch, Optional.of(object)).error())
                .isEqualTo(S3Error.PRECONDITION_FAILED);
        assertThat(WritePreconditions.failure(new Precondition.IfAbsent(), Optional.of(object)).error())
                .isEqualTo(S3Error.PRECONDITION_FAILED);
    }

    private static S3Request request(Map<String, String> headers) {
        Map<String, List<String>> values = new java.util.HashMap<>();
        headers.forEach((name, value) -> values.put(name, List.of(value)));
        return new S3Request("PUT", "bucket", "key", Map.of(), new RequestHeaders(values), "localhost", "request-id");
    }
}
