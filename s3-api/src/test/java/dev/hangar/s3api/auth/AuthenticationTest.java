package dev.hangar.s3api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AuthenticationTest {
    private static final String SHA256 = Signatures.EMPTY_SHA256;

    @Test
    void requiresTheHashExactlyWithSignedSha256() {
        assertThatThrownBy(() -> Authentication.anonymous(PayloadMode.SIGNED_SHA256, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Authentication.anonymous(PayloadMode.UNSIGNED_PAYLOAD, SHA256))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void requiresSigningDetailsForChunkSignatures() {
        assertThatThrownBy(() -> Authentication.anonymous(PayloadMode.STREAMING_SIGNED, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Authentication("AKID", SignatureScheme.V4_HEADER, null, "t", "s", "sig",
                PayloadMode.STREAMING_SIGNED, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Authentication.version2("AKID", SignatureScheme.V2_HEADER, PayloadMode.STREAMING_SIGNED,
                null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void copiesTheSigningKeyAndKeepsItOutOfToString() {
        byte[] key = {1, 2, 3};
        Authentication authentication = new Authentication("AKID", SignatureScheme.V4_HEADER, key, "20240501T120000Z",
                "20240501/us-east-1/s3/aws4_request", "abc", PayloadMode.UNSIGNED_PAYLOAD, null);
        key[0] = 9;
        authentication.signingKey()[1] = 9;

        assertThat(authentication.signingKey()).containsExactly(1, 2, 3);
        assertThat(authentication.toString()).doesNotContain(Arrays.toString(new byte[] {1, 2, 3})).contains("AKID");
        assertThat(authentication).isEqualTo(new Authentication("AKID", SignatureScheme.V4_HEADER, new byte[] {1, 2, 3}, "20240501T120000Z",
                "20240501/us-east-1/s3/aws4_request", "abc", PayloadMode.UNSIGNED_PAYLOAD, null));
        assertThat(authentication.hashCode()).isEqualTo(new Authentication("AKID", SignatureScheme.V4_HEADER, new byte[] {1, 2, 3},
                "20240501T120000Z", "20240501/us-east-1/s3/aws4_request", "abc", PayloadMode.UNSIGNED_PAYLOAD, null)
                .hashCode());
    }

    @Test
    void aVersion2AuthenticationNamesItsKeyAndSchemeAndNoSigningDetails() {
        Authentication authentication = Authentication.version2("AKID", SignatureScheme.V2_QUERY,
                PayloadMode.UNSIGNED_PAYLOAD, null);

        assertThat(authentication.isAnonymous()).isFalse();
        assertThat(authentication.scheme()).isEqualTo(SignatureScheme.V2_QUERY);
        assertThat(authentication.signingKey()).isNull();
        assertThatThrownBy(() -> Authentication.version2("AKID", SignatureScheme.V4_HEADER, PayloadMode.UNSIGNED_PAYLOAD,
                null)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @EnumSource(PayloadMode.class)
    void mapsEachPayloadModeFromItsHeaderValue(PayloadMode mode) {
        String value = mode.headerValue().orElse(SHA256);

        assertThat(SigV4Verifier.payloadMode(value)).isEqualTo(mode);
        assertThat(mode.hasChunkSignatures()).isEqualTo(value.startsWith("STREAMING-AWS4-HMAC-SHA256-PAYLOAD"));
        assertThat(mode.hasTrailer()).isEqualTo(value.endsWith("-TRAILER"));
        assertThat(mode.isChunked()).isEqualTo(value.startsWith("STREAMING-"));
    }
}
