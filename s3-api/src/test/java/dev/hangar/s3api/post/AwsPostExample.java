package dev.hangar.s3api.post;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The worked example of AWS's "Example: Browser-Based Upload using HTTP POST (Using AWS Signature Version 4)":
 * its credentials, its policy (648 bytes of JSON with CRLF line ends, base64-encoded as the page gives it), the
 * signature the page states, and its form. Also a signer written independently of {@link PostSignature}, for
 * policies the tests make up.
 */
final class AwsPostExample {
    static final String ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
    static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    static final String REGION = "us-east-1";
    static final String BUCKET = "sigv4examplebucket";
    static final String CREDENTIAL = "AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws4_request";
    static final String AMZ_DATE = "20151229T000000Z";
    static final String REDIRECT = "http://sigv4examplebucket.s3.amazonaws.com/successful_upload.html";

    static final String POLICY = "{ \"expiration\": \"2015-12-30T12:00:00.000Z\",\r\n"
            + "  \"conditions\": [\r\n"
            + "    {\"bucket\": \"sigv4examplebucket\"},\r\n"
            + "    [\"starts-with\", \"$key\", \"user/user1/\"],\r\n"
            + "    {\"acl\": \"public-read\"},\r\n"
            + "    {\"success_action_redirect\": \"http://sigv4examplebucket.s3.amazonaws.com/successful_upload.html\"},"
            + "\r\n"
            + "    [\"starts-with\", \"$Content-Type\", \"image/\"],\r\n"
            + "    {\"x-amz-meta-uuid\": \"14365123651274\"},\r\n"
            + "    {\"x-amz-server-side-encryption\": \"AES256\"},\r\n"
            + "    [\"starts-with\", \"$x-amz-meta-tag\", \"\"],\r\n"
            + "\r\n"
            + "    {\"x-amz-credential\": \"AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws4_request\"},\r\n"
            + "    {\"x-amz-algorithm\": \"AWS4-HMAC-SHA256\"},\r\n"
            + "    {\"x-amz-date\": \"20151229T000000Z\" }\r\n"
            + "  ]\r\n"
            + "}";

    static final String POLICY_BASE64 = "eyAiZXhwaXJhdGlvbiI6ICIyMDE1LTEyLTMwVDEyOjAwOjAwLjAwMFoiLA0KICAiY29uZGl0aW"
            + "9ucyI6IFsNCiAgICB7ImJ1Y2tldCI6ICJzaWd2NGV4YW1wbGVidWNrZXQifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRrZXkiLCAid"
            + "XNlci91c2VyMS8iXSwNCiAgICB7ImFjbCI6ICJwdWJsaWMtcmVhZCJ9LA0KICAgIHsic3VjY2Vzc19hY3Rpb25fcmVkaXJlY3QiOiAi"
            + "aHR0cDovL3NpZ3Y0ZXhhbXBsZWJ1Y2tldC5zMy5hbWF6b25hd3MuY29tL3N1Y2Nlc3NmdWxfdXBsb2FkLmh0bWwifSwNCiAgICBbIn"
            + "N0YXJ0cy13aXRoIiwgIiRDb250ZW50LVR5cGUiLCAiaW1hZ2UvIl0sDQogICAgeyJ4LWFtei1tZXRhLXV1aWQiOiAiMTQzNjUxMjM2"
            + "NTEyNzQifSwNCiAgICB7IngtYW16LXNlcnZlci1zaWRlLWVuY3J5cHRpb24iOiAiQUVTMjU2In0sDQogICAgWyJzdGFydHMtd2l0aC"
            + "IsICIkeC1hbXotbWV0YS10YWciLCAiIl0sDQoNCiAgICB7IngtYW16LWNyZWRlbnRpYWwiOiAiQUtJQUlPU0ZPRE5ON0VYQU1QTEUv"
            + "MjAxNTEyMjkvdXMtZWFzdC0xL3MzL2F3czRfcmVxdWVzdCJ9LA0KICAgIHsieC1hbXotYWxnb3JpdGhtIjogIkFXUzQtSE1BQy1TSE"
            + "EyNTYifSwNCiAgICB7IngtYW16LWRhdGUiOiAiMjAxNTEyMjlUMDAwMDAwWiIgfQ0KICBdDQp9";

    /** The signature the AWS page states for the policy above. */
    static final String SIGNATURE = "8afdbf4008c03f22c2cd3cdb72e4afbb1f6a588f3255ac628749a66d7f09699e";

    private AwsPostExample() {
    }

    /** The example's form fields before the file, with the names as the page's form spells them. */
    static Map<String, String> formFields() {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("key", "user/user1/${filename}");
        fields.put("acl", "public-read");
        fields.put("success_action_redirect", REDIRECT);
        fields.put("Content-Type", "image/jpeg");
        fields.put("x-amz-meta-uuid", "14365123651274");
        fields.put("x-amz-server-side-encryption", "AES256");
        fields.put("X-Amz-Credential", CREDENTIAL);
        fields.put("X-Amz-Algorithm", "AWS4-HMAC-SHA256");
        fields.put("X-Amz-Date", AMZ_DATE);
        fields.put("x-amz-meta-tag", "");
        fields.put("Policy", POLICY_BASE64);
        fields.put("X-Amz-Signature", SIGNATURE);
        return fields;
    }

    static String base64(String json) {
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** SigV4 over a POST policy, written out step by step from AWS's description. */
    static String sign(String secretKey, String date, String region, String base64Policy) {
        byte[] key = ("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8);
        for (String step : new String[] {date, region, "s3", "aws4_request", base64Policy}) {
            key = hmacSha256(key, step);
        }
        return HexFormat.of().formatHex(key);
    }

    private static byte[] hmacSha256(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }
}
