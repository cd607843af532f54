package dev.hangar.s3api.post;

import static dev.hangar.s3api.post.AwsPostExample.ACCESS_KEY_ID;
import static dev.hangar.s3api.post.AwsPostExample.AMZ_DATE;
import static dev.hangar.s3api.post.AwsPostExample.CREDENTIAL;
import static dev.hangar.s3api.post.AwsPostExample.POLICY_BASE64;
import static dev.hangar.s3api.post.AwsPostExample.REGION;
import static dev.hangar.s3api.post.AwsPostExample.SECRET_KEY;
import static dev.hangar.s3api.post.AwsPostExample.SIGNATURE;
import static dev.hangar.s3api.post.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PostSignatureTest {
    private static final Function<String, Optional<String>> KEYS =
            id -> Optional.ofNullable(Map.of(ACCESS_KEY_ID, SECRET_KEY).get(id));

    @Test
    void theExampleOfTheAwsDocumentationIsEncodedAndSignedAsThePageStates() {
        assertThat(AwsPostExample.POLICY.getBytes(StandardCharsets.UTF_8)).hasSize(648);
        assertThat(AwsPostExample.base64(AwsPostExample.POLICY)).isEqualTo(POLICY_BASE64);
        assertThat(AwsPostExample.sign(SECRET_KEY, "20151229", REGION, POLICY_BASE64)).isEqualTo(SIGNATURE);
        assertThat(PostSignature.sign(SECRET_KEY, "20151229", REGION, POLICY_BASE64)).isEqualTo(SIGNATURE);
    }

    @Test
    void acceptsTheExampleOfTheAwsDocumentationAndNamesItsAccessKey() {
        assertThat(PostSignature.verify(POLICY_BASE64, CREDENTIAL, AMZ_DATE, SIGNATURE, KEYS, REGION))
                .isEqualTo(ACCESS_KEY_ID);
    }

    @Test
    void acceptsTheSignatureInUpperCaseHex() {
        assertThat(PostSignature.verify(POLICY_BASE64, CREDENTIAL, AMZ_DATE, SIGNATURE.toUpperCase(Locale.ROOT),
                KEYS, REGION)).isEqualTo(ACCESS_KEY_ID);
    }

    @Test
    void acceptsBotocoresPresignedPostForTheExampleCredentials() {
        // generate_presigned_post("sigv4examplebucket", "user/user1/photo.jpg") with the clock at 2015-12-29T00:00Z.
        String policy = "eyJleHBpcmF0aW9uIjogIjIwMTUtMTItMjlUMDE6MDA6MDBaIiwgImNvbmRpdGlvbnMiOiBbeyJidWNrZXQiOiAic2l"
                + "ndjRleGFtcGxlYnVja2V0In0sIHsia2V5IjogInVzZXIvdXNlcjEvcGhvdG8uanBnIn0sIHsieC1hbXotYWxnb3JpdGhtIjogIk"
                + "FXUzQtSE1BQy1TSEEyNTYifSwgeyJ4LWFtei1jcmVkZW50aWFsIjogIkFLSUFJT1NGT0ROTjdFWEFNUExFLzIwMTUxMjI5L3Vz"
                + "LWVhc3QtMS9zMy9hd3M0X3JlcXVlc3QifSwgeyJ4LWFtei1kYXRlIjogIjIwMTUxMjI5VDAwMDAwMFoifV19";
        String signature = "3364624b39010d9b06f5d9b8c9a18a6e478d261c048159c92f2fd6fa885f14e6";

        assertThat(PostSignature.verify(policy, CREDENTIAL, AMZ_DATE, signature, KEYS, REGION))
                .isEqualTo(ACCESS_KEY_ID);
        assertThat(new String(Base64.getDecoder().decode(policy), StandardCharsets.UTF_8))
                .startsWith("{\"expiration\": \"2015-12-29T01:00:00Z\", \"conditions\": [{\"bucket\": ");
    }

    @Test
    void signsTheBase64TextAsReceivedNotTheJson() {
        String policy = AwsPostExample.base64("{\"expiration\": \"2030-01-01T00:00:00Z\", \"conditions\": []}");
        String signature = AwsPostExample.sign(SECRET_KEY, "20291231", "eu-west-3", policy);

        assertThat(PostSignature.verify(policy, ACCESS_KEY_ID + "/20291231/eu-west-3/s3/aws4_request",
                "20291231T235959Z", signature, KEYS, "eu-west-3")).isEqualTo(ACCESS_KEY_ID);
    }

    @Test
    void refusesAPolicyChangedAfterSigning() {
        String tampered = POLICY_BASE64.substring(0, POLICY_BASE64.length() - 2);

        assertS3Error(() -> PostSignature.verify(tampered, CREDENTIAL, AMZ_DATE, SIGNATURE, KEYS, REGION),
                S3Error.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void refusesASignatureMadeWithAnotherSecret() {
        String signature = AwsPostExample.sign("another secret", "20151229", REGION, POLICY_BASE64);

        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, CREDENTIAL, AMZ_DATE, signature, KEYS, REGION),
                S3Error.SIGNATURE_DOES_NOT_MATCH);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "8afdbf40", "not hex at all",
            "8afdbf4008c03f22c2cd3cdb72e4afbb1f6a588f3255ac628749a66d7f09699f",
            "8afdbf4008c03f22c2cd3cdb72e4afbb1f6a588f3255ac628749a66d7f09699e00"})
    void refusesAnyOtherSignature(String signature) {
        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, CREDENTIAL, AMZ_DATE, signature, KEYS, REGION),
                S3Error.SIGNATURE_DOES_NOT_MATCH);
    }

    @Test
    void refusesAnUnknownAccessKey() {
        String credential = "AKIDUNKNOWN/20151229/us-east-1/s3/aws4_request";

        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, credential, AMZ_DATE, SIGNATURE, KEYS, REGION),
                S3Error.INVALID_ACCESS_KEY_ID);
    }

    @Test
    void takesTheScopeFromTheRightSoAnAccessKeyMayHoldSlashes() {
        String accessKey = "team/alice";
        String signature = AwsPostExample.sign("s3cr3t", "20151229", REGION, POLICY_BASE64);

        assertThat(PostSignature.verify(POLICY_BASE64, accessKey + "/20151229/us-east-1/s3/aws4_request", AMZ_DATE,
                signature, id -> id.equals(accessKey) ? Optional.of("s3cr3t") : Optional.empty(), REGION))
                .isEqualTo(accessKey);
    }

    @Test
    void refusesACredentialScopedToAnotherRegionAsS3Does() {
        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, CREDENTIAL, AMZ_DATE, SIGNATURE, KEYS, "us-west-1"),
                S3Error.INVALID_ARGUMENT, "the region 'us-east-1' is wrong; expecting 'us-west-1'");
    }

    @Test
    void refusesACredentialForAnotherService() {
        String credential = "AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/iam/aws4_request";

        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, credential, AMZ_DATE, SIGNATURE, KEYS, REGION),
                S3Error.INVALID_ARGUMENT, "incorrect service \"iam\". This endpoint belongs to \"s3\".");
    }

    @Test
    void refusesACredentialWithAnotherTerminator() {
        String credential = "AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws5_request";

        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, credential, AMZ_DATE, SIGNATURE, KEYS, REGION),
                S3Error.INVALID_ARGUMENT, "incorrect terminal \"aws5_request\". This endpoint uses \"aws4_request\".");
    }

    @ParameterizedTest
    @ValueSource(strings = {"AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3",
            "20151229/us-east-1/s3/aws4_request", ""})
    void refusesAMalformedCredential(String credential) {
        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, credential, AMZ_DATE, SIGNATURE, KEYS, REGION),
                S3Error.INVALID_ARGUMENT, "the Credential is mal-formed; expecting "
                        + "\"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
    }

    @Test
    void refusesAnEmptyAccessKey() {
        String credential = "/20151229/us-east-1/s3/aws4_request";

        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, credential, AMZ_DATE, SIGNATURE, KEYS, REGION),
                S3Error.INVALID_ARGUMENT, "a non-empty Access Key (AKID) must be provided in the credential.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2015-12-29", "20151329", "20150229", "151229", "2015122x"})
    void refusesACredentialDateThatIsNotADay(String date) {
        String credential = "AKIAIOSFODNN7EXAMPLE/" + date + "/us-east-1/s3/aws4_request";

        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, credential, AMZ_DATE, SIGNATURE, KEYS, REGION),
                S3Error.INVALID_ARGUMENT, "incorrect date format \"" + date
                        + "\". This date in the credential must be in the format \"yyyyMMdd\".");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "20151229", "2015-12-29T00:00:00Z", "20151229T000000", "20151229T250000Z",
            "20151229t000000z"})
    void refusesAnAmzDateThatIsNotTheLongIsoFormat(String amzDate) {
        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, CREDENTIAL, amzDate, SIGNATURE, KEYS, REGION),
                S3Error.INVALID_ARGUMENT, "X-Amz-Date must be formated via ISO8601 Long format");
    }

    @Test
    void refusesAnAmzDateOfAnotherDayThanTheCredential() {
        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, CREDENTIAL, "20151230T000000Z", SIGNATURE, KEYS,
                REGION), S3Error.INVALID_ARGUMENT, "Invalid credential date \"20151229\". This date is not the same "
                + "as X-Amz-Date: \"20151230\".");
    }

    @Test
    void checksTheScopeBeforeLookingUpTheKey() {
        String credential = "AKIDUNKNOWN/20151229/eu-west-1/s3/aws4_request";

        assertS3Error(() -> PostSignature.verify(POLICY_BASE64, credential, AMZ_DATE, SIGNATURE, KEYS, REGION),
                S3Error.INVALID_ARGUMENT);
    }
}
