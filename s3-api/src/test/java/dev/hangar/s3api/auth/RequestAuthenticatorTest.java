package dev.hangar.s3api.auth;

import static dev.hangar.s3api.auth.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Signature Version 2 through {@link RequestAuthenticator}. The signatures were computed by botocore 1.44.5's own
 * Version 2 signers ({@code HmacV1Auth}, {@code HmacV1QueryAuth}) with the key pair of AWS's documentation and a
 * fixed clock, so the string to sign is checked against another implementation, not against itself.
 */
class RequestAuthenticatorTest {
    private static final String ACCESS_KEY = "AKIAIOSFODNN7EXAMPLE";
    private static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    private static final String DATE = "Thu, 26 Nov 2026 10:00:00 GMT";
    private static final Instant SIGNED_AT = Instant.parse("2026-11-26T10:00:00Z");
    /** The {@code Expires} of the presigned URL below. */
    private static final long EXPIRES = 1_795_653_086L;

    private static RequestAuthenticator authenticator(Instant now, boolean version2) {
        return new RequestAuthenticator("us-east-1", Clock.fixed(now, ZoneOffset.UTC),
                id -> id.equals(ACCESS_KEY) ? Optional.of(SECRET_KEY) : Optional.empty(), version2);
    }

    private static RequestAuthenticator authenticator() {
        return authenticator(SIGNED_AT.plusSeconds(30), true);
    }

    private static SignedRequest request(String method, String path, @Nullable String query,
            Map<String, String> headers) {
        Map<String, List<String>> all = new LinkedHashMap<>();
        all.put("Host", List.of("127.0.0.1:9000"));
        headers.forEach((name, value) -> all.put(name, List.of(value)));
        return new SignedRequest(method, path, query, all);
    }

    /** PUT {@code /bucket/a b+c?acl} with a content type and two metadata headers, names in either case. */
    private static SignedRequest putWithAcl(String authorization) {
        return request("PUT", "/bucket/a%20b%2Bc", "acl", Map.of(
                "Content-Type", "text/plain", "x-amz-meta-b", "two", "X-Amz-Meta-A", "one",
                "Date", DATE, "Authorization", authorization));
    }

    private static final String PUT_WITH_ACL_SIGNATURE = "gZ9WM2l58vaIhXCqZltxyqe5Guc=";

    @Nested
    class Header {

        @Test
        void acceptsBotocoresSignatureOverMethodTypeDateAmzHeadersAndSubResource() {
            Authentication authentication =
                    authenticator().authenticate(putWithAcl("AWS " + ACCESS_KEY + ":" + PUT_WITH_ACL_SIGNATURE), null);

            assertThat(authentication.accessKeyId()).isEqualTo(ACCESS_KEY);
            assertThat(authentication.scheme()).isEqualTo(SignatureScheme.V2_HEADER);
            assertThat(authentication.payloadMode()).isEqualTo(PayloadMode.UNSIGNED_PAYLOAD);
            assertThat(authentication.signingKey()).isNull();
        }

        @Test
        void theStringToSignIsS3s() {
            SignedRequest request = putWithAcl("AWS " + ACCESS_KEY + ":x");

            assertThat(SigV2Verifier.stringToSign(request, DATE, null)).isEqualTo(
                    "PUT\n\ntext/plain\n" + DATE + "\nx-amz-meta-a:one\nx-amz-meta-b:two\n/bucket/a%20b%2Bc?acl");
        }

        @Test
        void aVirtualHostStyleRequestSignsTheBucketInThePath() {
            SignedRequest request = request("GET", "/cat%20one.jpg", "tagging&prefix=x", Map.of(
                    "Host", "photos.s3.localhost:9000", "Date", DATE,
                    "Authorization", "AWS " + ACCESS_KEY + ":YXtmkoSmPIYCpsuRh+r4zCudALo="));

            assertThat(authenticator().authenticate(request, "photos").scheme()).isEqualTo(SignatureScheme.V2_HEADER);
            assertS3Error(() -> authenticator().authenticate(request, null), S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void aBucketRequestSignsItsTrailingSlash() {
            SignedRequest request = request("GET", "/photos/", null, Map.of(
                    "Date", DATE, "Authorization", "AWS " + ACCESS_KEY + ":CFKD8HxRr6PAwMx9AoqLeh9kSDs="));

            assertThat(authenticator().authenticate(request, null).accessKeyId()).isEqualTo(ACCESS_KEY);
        }

        @Test
        void xAmzDateIsTheRequestTimeAndEmptiesTheDateLine() {
            // A Date a day old: ignored for the time and the signature alike.
            SignedRequest request = request("DELETE", "/photos/dog.jpg", "versionId=abc", Map.of(
                    "x-amz-date", DATE, "Date", "Wed, 25 Nov 2026 10:00:00 GMT",
                    "Authorization", "AWS " + ACCESS_KEY + ":NUL/c3756ldpvVfCTS3nsFCgHuQ="));

            assertThat(authenticator().authenticate(request, null).accessKeyId()).isEqualTo(ACCESS_KEY);
        }

        @Test
        void aTamperedSubResourceIsSignatureDoesNotMatch() {
            String authorization = "AWS " + ACCESS_KEY + ":" + PUT_WITH_ACL_SIGNATURE;
            SignedRequest tagging = request("PUT", "/bucket/a%20b%2Bc", "tagging", Map.of(
                    "Content-Type", "text/plain", "x-amz-meta-b", "two", "X-Amz-Meta-A", "one",
                    "Date", DATE, "Authorization", authorization));
            SignedRequest withoutAcl = request("PUT", "/bucket/a%20b%2Bc", null, Map.of(
                    "Content-Type", "text/plain", "x-amz-meta-b", "two", "X-Amz-Meta-A", "one",
                    "Date", DATE, "Authorization", authorization));

            assertS3Error(() -> authenticator().authenticate(tagging, null), S3Error.SIGNATURE_DOES_NOT_MATCH);
            assertS3Error(() -> authenticator().authenticate(withoutAcl, null), S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void anUnsignedParameterMayBeAdded() {
            // prefix selects no operation, so Version 2 does not sign it (S3's rule, and botocore's).
            SignedRequest request = request("GET", "/photos/", "prefix=a", Map.of(
                    "Date", DATE, "Authorization", "AWS " + ACCESS_KEY + ":CFKD8HxRr6PAwMx9AoqLeh9kSDs="));

            assertThat(authenticator().authenticate(request, null).accessKeyId()).isEqualTo(ACCESS_KEY);
        }

        @Test
        void aChangedAmzHeaderIsSignatureDoesNotMatch() {
            SignedRequest request = request("PUT", "/bucket/a%20b%2Bc", "acl", Map.of(
                    "Content-Type", "text/plain", "x-amz-meta-b", "three", "X-Amz-Meta-A", "one",
                    "Date", DATE, "Authorization", "AWS " + ACCESS_KEY + ":" + PUT_WITH_ACL_SIGNATURE));

            assertS3Error(() -> authenticator().authenticate(request, null), S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void anUnknownKeyIsInvalidAccessKeyId() {
            assertS3Error(() -> authenticator().authenticate(putWithAcl("AWS AKIDNOTKNOWN:" + PUT_WITH_ACL_SIGNATURE),
                    null), S3Error.INVALID_ACCESS_KEY_ID);
        }

        @Test
        void aTimeMoreThanFifteenMinutesAwayIsRequestTimeTooSkewed() {
            String authorization = "AWS " + ACCESS_KEY + ":" + PUT_WITH_ACL_SIGNATURE;

            assertThat(authenticator(SIGNED_AT.plusSeconds(14 * 60), true).authenticate(putWithAcl(authorization), null)
                    .accessKeyId()).isEqualTo(ACCESS_KEY);
            assertS3Error(() -> authenticator(SIGNED_AT.plusSeconds(16 * 60), true)
                    .authenticate(putWithAcl(authorization), null), S3Error.REQUEST_TIME_TOO_SKEWED);
            assertS3Error(() -> authenticator(SIGNED_AT.minusSeconds(16 * 60), true)
                    .authenticate(putWithAcl(authorization), null), S3Error.REQUEST_TIME_TOO_SKEWED);
        }

        @Test
        void noDateIsAccessDenied() {
            SignedRequest request = request("GET", "/photos/", null,
                    Map.of("Authorization", "AWS " + ACCESS_KEY + ":CFKD8HxRr6PAwMx9AoqLeh9kSDs="));

            assertThat(assertS3Error(() -> authenticator().authenticate(request, null), S3Error.ACCESS_DENIED))
                    .contains("Date or x-amz-date");
        }

        @ParameterizedTest
        @ValueSource(strings = {"AWS", "AWS AKIAIOSFODNN7EXAMPLE", "AWS :signature", "AWS AKIAIOSFODNN7EXAMPLE:"})
        void aMalformedHeaderIsInvalidArgument(String authorization) {
            SignedRequest request = request("GET", "/photos/", null, Map.of("Date", DATE, "Authorization",
                    authorization + " "));

            if (authorization.equals("AWS")) {
                // Not even the Version 2 prefix: Version 4's parser refuses it as an unknown mechanism.
                assertS3Error(() -> authenticator().authenticate(request, null), S3Error.INVALID_REQUEST);
            } else {
                assertS3Error(() -> authenticator().authenticate(request, null), S3Error.INVALID_ARGUMENT);
            }
        }

        @Test
        void chunkSignaturesNeedVersion4() {
            SignedRequest request = request("PUT", "/bucket/a%20b%2Bc", "acl", Map.of(
                    "Content-Type", "text/plain", "x-amz-meta-b", "two", "X-Amz-Meta-A", "one", "Date", DATE,
                    "x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
                    "Authorization", "AWS " + ACCESS_KEY + ":" + PUT_WITH_ACL_SIGNATURE));

            assertS3Error(() -> authenticator().authenticate(request, null), S3Error.INVALID_REQUEST);
        }
    }

    @Nested
    class Presigned {
        private static final String QUERY = "response-content-type=text%2Fhtml&versionId=3&AWSAccessKeyId=" + ACCESS_KEY
                + "&Signature=RjYsLRQvrK%2Bc2wtPWvNNPVQyFuc%3D&Expires=" + EXPIRES;

        private static SignedRequest get(String query) {
            return request("GET", "/photos/k", query, Map.of());
        }

        @Test
        void acceptsBotocoresUrlUntilItsExpiresPasses() {
            Authentication authentication =
                    authenticator(Instant.ofEpochSecond(EXPIRES), true).authenticate(get(QUERY), null);

            assertThat(authentication.accessKeyId()).isEqualTo(ACCESS_KEY);
            assertThat(authentication.scheme()).isEqualTo(SignatureScheme.V2_QUERY);
            // Expires is an absolute time: a URL signed long ago is still good until then.
            assertThat(authenticator(Instant.ofEpochSecond(EXPIRES - 30 * 86_400), true)
                    .authenticate(get(QUERY), null).accessKeyId()).isEqualTo(ACCESS_KEY);
        }

        @Test
        void pastItsExpiresItIsAccessDenied() {
            assertThat(assertS3Error(() -> authenticator(Instant.ofEpochSecond(EXPIRES + 1), true)
                    .authenticate(get(QUERY), null), S3Error.ACCESS_DENIED)).contains("expired");
        }

        @Test
        void aSignatureWithItsPlusLeftUnencodedStillMatches() {
            String unencodedPlus = QUERY.replace("%2B", "+");

            assertThat(authenticator(Instant.ofEpochSecond(EXPIRES), true).authenticate(get(unencodedPlus), null)
                    .accessKeyId()).isEqualTo(ACCESS_KEY);
        }

        @Test
        void aTamperedSubResourceOrExpiresIsSignatureDoesNotMatch() {
            RequestAuthenticator authenticator = authenticator(Instant.ofEpochSecond(EXPIRES - 60), true);

            assertS3Error(() -> authenticator.authenticate(get(QUERY.replace("versionId=3", "versionId=4")), null),
                    S3Error.SIGNATURE_DOES_NOT_MATCH);
            assertS3Error(() -> authenticator.authenticate(get(QUERY + "&acl"), null),
                    S3Error.SIGNATURE_DOES_NOT_MATCH);
            assertS3Error(() -> authenticator.authenticate(get(QUERY.replace("text%2Fhtml", "text%2Fplain")), null),
                    S3Error.SIGNATURE_DOES_NOT_MATCH);
            assertS3Error(() -> authenticator.authenticate(get(QUERY.replace("Expires=" + EXPIRES,
                    "Expires=" + (EXPIRES + 3600))), null), S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void aMissingParameterIsAccessDenied() {
            assertS3Error(() -> authenticator().authenticate(get(QUERY.replace("&Expires=" + EXPIRES, "")), null),
                    S3Error.ACCESS_DENIED);
            assertS3Error(() -> authenticator().authenticate(get(QUERY.replace("Expires=" + EXPIRES, "Expires=soon")),
                    null), S3Error.ACCESS_DENIED);
        }

        @Test
        void anUnknownKeyIsInvalidAccessKeyId() {
            assertS3Error(() -> authenticator(Instant.ofEpochSecond(EXPIRES - 60), true)
                    .authenticate(get(QUERY.replace(ACCESS_KEY, "AKIDNOTKNOWN")), null), S3Error.INVALID_ACCESS_KEY_ID);
        }

        @Test
        void anAuthorizationHeaderBesideItIsInvalidArgument() {
            SignedRequest both = request("GET", "/photos/k", QUERY, Map.of("Authorization", "AWS " + ACCESS_KEY + ":x"));

            assertS3Error(() -> authenticator().authenticate(both, null), S3Error.INVALID_ARGUMENT);
        }
    }

    @Nested
    class TurnedOff {

        @Test
        void everyVersion2FormIsInvalidRequest() {
            RequestAuthenticator off = authenticator(SIGNED_AT, false);

            assertThat(off.version2Enabled()).isFalse();
            assertThat(assertS3Error(() -> off.authenticate(putWithAcl("AWS " + ACCESS_KEY + ":"
                    + PUT_WITH_ACL_SIGNATURE), null), S3Error.INVALID_REQUEST)).contains("AWS4-HMAC-SHA256");
            assertS3Error(() -> off.authenticate(request("GET", "/photos/k", "AWSAccessKeyId=" + ACCESS_KEY
                    + "&Signature=x&Expires=" + EXPIRES, Map.of()), null), S3Error.INVALID_REQUEST);
        }

        @Test
        void anonymousRequestsAreStillAnonymous() {
            assertThat(authenticator(SIGNED_AT, false).authenticate(request("GET", "/photos/k", null, Map.of()), null)
                    .isAnonymous()).isTrue();
        }
    }

    @Test
    void aPostPolicyIsSignedAsBotocoreSignsIt() {
        String policy = "eyJleHBpcmF0aW9uIjogIjIwMjYtMTEtMjZUMDE6MzA6MjZaIiwgImNvbmRpdGlvbnMiOiBbeyJidWNrZXQiOiAiYiJ9"
                + "LCB7ImtleSI6ICJrIn1dfQ==";

        assertThat(SignatureV2.sign("S", policy)).isEqualTo("3VegnzkONSL1eGQv/J44VTnJzU0=");
        assertThat(SignatureV2.matches(SignatureV2.sign("S", policy), "3VegnzkONSL1eGQv/J44VTnJzU0=")).isTrue();
        assertThat(SignatureV2.matches(SignatureV2.sign("T", policy), "3VegnzkONSL1eGQv/J44VTnJzU0=")).isFalse();
    }
}
