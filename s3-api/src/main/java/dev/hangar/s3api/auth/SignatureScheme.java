package dev.hangar.s3api.auth;

import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How a signed request proved who sent it: the signature version and where the signature travelled. Bucket
 * policies test both ({@code s3:signatureversion}, {@code s3:authType}); the metrics count requests by it, so
 * that an operator can see whether any client still signs with Signature Version 2 before turning it off.
 */
public enum SignatureScheme {
    /** {@code Authorization: AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...}. */
    V4_HEADER(Version.V4, "REST-HEADER"),
    /** A presigned URL with {@code X-Amz-Algorithm}, {@code X-Amz-Signature}, .... */
    V4_QUERY(Version.V4, "REST-QUERY-STRING"),
    /** A browser upload whose policy is signed with {@code x-amz-algorithm}, {@code x-amz-signature}. */
    V4_POST(Version.V4, "POST"),
    /** {@code Authorization: AWS AccessKeyId:Signature}. */
    V2_HEADER(Version.V2, "REST-HEADER"),
    /** A presigned URL with {@code AWSAccessKeyId}, {@code Signature} and {@code Expires}. */
    V2_QUERY(Version.V2, "REST-QUERY-STRING"),
    /** A browser upload whose policy is signed with {@code AWSAccessKeyId} and {@code signature}. */
    V2_POST(Version.V2, "POST");

    /** The signature versions, by the value bucket policies compare {@code s3:signatureversion} with. */
    public enum Version {
        V2("AWS"),
        V4("AWS4-HMAC-SHA256");

        private final String policyValue;

        Version(String policyValue) {
            this.policyValue = policyValue;
        }

        /** {@code AWS} for Signature Version 2, {@code AWS4-HMAC-SHA256} for Version 4. */
        public String policyValue() {
            return policyValue;
        }
    }

    private final Version version;
    private final String authType;

    SignatureScheme(Version version, String authType) {
        this.version = version;
        this.authType = authType;
    }

    /**
     * The scheme of a browser upload's form, by its fields (names lower-cased): a policy signed with
     * {@code x-amz-algorithm} is Version 4, one signed with {@code AWSAccessKeyId} Version 2; null when the form
     * carries no policy, which makes it anonymous.
     */
    public static @Nullable SignatureScheme ofPostForm(Map<String, String> fields) {
        if (!fields.containsKey("policy")) {
            return null;
        }
        if (fields.containsKey("x-amz-algorithm")) {
            return V4_POST;
        }
        return fields.containsKey("awsaccesskeyid") || fields.containsKey("signature") ? V2_POST : V4_POST;
    }

    public Version version() {
        return version;
    }

    /** The value of the {@code s3:authType} condition key: {@code REST-HEADER}, {@code REST-QUERY-STRING}, {@code POST}. */
    public String authType() {
        return authType;
    }

    /** A metric tag value: {@code v4-header}, {@code v2-query}, .... */
    public String tag() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
