package dev.hangar.s3api.auth;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Who signed a request and what the body decoder needs to verify the body.
 *
 * <p>For an anonymous request every field but the payload mode and hash is null. For one signed with
 * Signature Version 4, the signing key, timestamp, credential scope and seed signature are the request's:
 * aws-chunked chunk signatures chain from the seed signature under the same key, timestamp and scope. A
 * Signature Version 2 request has none of these (its body is not signed, and cannot be aws-chunked with
 * chunk signatures).
 *
 * @param accessKeyId the access key that signed, null when anonymous
 * @param scheme how the request was signed, null when anonymous
 * @param signingKey the derived SigV4 signing key (never the secret itself), null unless signed with V4
 * @param timestamp the request time as signed, {@code yyyyMMdd'T'HHmmss'Z'}, null unless signed with V4
 * @param credentialScope {@code yyyyMMdd/region/s3/aws4_request}, null unless signed with V4
 * @param seedSignature the request's own signature (hex), null unless signed with V4
 * @param payloadMode how the body is protected
 * @param payloadSha256 the declared lower-case hex SHA-256 of the body, present exactly when the mode is
 *     {@link PayloadMode#SIGNED_SHA256}
 */
public record Authentication(
        @Nullable String accessKeyId,
        @Nullable SignatureScheme scheme,
        byte @Nullable [] signingKey,
        @Nullable String timestamp,
        @Nullable String credentialScope,
        @Nullable String seedSignature,
        PayloadMode payloadMode,
        @Nullable String payloadSha256) {

    public Authentication {
        Objects.requireNonNull(payloadMode, "payloadMode");
        if ((payloadMode == PayloadMode.SIGNED_SHA256) != (payloadSha256 != null)) {
            throw new IllegalArgumentException("payloadSha256 is required with SIGNED_SHA256 and only with it");
        }
        boolean signed = accessKeyId != null;
        if (signed != (scheme != null)) {
            throw new IllegalArgumentException("a signed authentication names its scheme, an anonymous one none");
        }
        boolean version4 = scheme != null && scheme.version() == SignatureScheme.Version.V4;
        if (version4 != (signingKey != null) || version4 != (timestamp != null)
                || version4 != (credentialScope != null) || version4 != (seedSignature != null)) {
            throw new IllegalArgumentException(
                    "a Signature Version 4 authentication needs key, timestamp, scope and signature, and only it");
        }
        if (!version4 && payloadMode.hasChunkSignatures()) {
            throw new IllegalArgumentException(payloadMode + " needs a request signed with Signature Version 4");
        }
        signingKey = signingKey == null ? null : signingKey.clone();
    }

    /** The result for a request that carries no signature at all. */
    public static Authentication anonymous(PayloadMode payloadMode, @Nullable String payloadSha256) {
        return new Authentication(null, null, null, null, null, null, payloadMode, payloadSha256);
    }

    /** The result for a request signed with Signature Version 2, which signs no body. */
    public static Authentication version2(String accessKeyId, SignatureScheme scheme, PayloadMode payloadMode,
            @Nullable String payloadSha256) {
        return new Authentication(accessKeyId, scheme, null, null, null, null, payloadMode, payloadSha256);
    }

    /** Whether the request carried no signature; the S3 layer decides what an anonymous caller may do. */
    public boolean isAnonymous() {
        return accessKeyId == null;
    }

    @Override
    public byte @Nullable [] signingKey() {
        return signingKey == null ? null : signingKey.clone();
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof Authentication that
                && Objects.equals(accessKeyId, that.accessKeyId)
                && scheme == that.scheme
                && Arrays.equals(signingKey, that.signingKey)
                && Objects.equals(timestamp, that.timestamp)
                && Objects.equals(credentialScope, that.credentialScope)
                && Objects.equals(seedSignature, that.seedSignature)
                && payloadMode == that.payloadMode
                && Objects.equals(payloadSha256, that.payloadSha256);
    }

    @Override
    public int hashCode() {
        return Objects.hash(accessKeyId, scheme, Arrays.hashCode(signingKey), timestamp, credentialScope, seedSignature,
                payloadMode, payloadSha256);
    }

    /** Leaves the signing key out: it is a credential for the day, region and service. */
    @Override
    public String toString() {
        return "Authentication[accessKeyId=" + accessKeyId + ", scheme=" + scheme + ", timestamp=" + timestamp + ", credentialScope="
                + credentialScope + ", payloadMode=" + payloadMode + ", payloadSha256=" + payloadSha256 + "]";
    }

    static boolean isSha256Hex(String value) {
        return value.length() == 64 && value.chars().allMatch(HexFormat::isHexDigit);
    }
}
