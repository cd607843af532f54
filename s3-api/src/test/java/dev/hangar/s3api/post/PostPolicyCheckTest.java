package dev.hangar.s3api.post;

import static dev.hangar.s3api.post.AwsPostExample.base64;
import static dev.hangar.s3api.post.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PostPolicyCheckTest {
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final String DENIED = "Invalid according to Policy: ";

    private static PostPolicy policy(String conditions) {
        return PostPolicy.parse(base64("{\"expiration\": \"2030-01-01T01:00:00Z\", \"conditions\": " + conditions
                + "}"));
    }

    private static Map<String, String> fields(String... namesAndValues) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int index = 0; index < namesAndValues.length; index += 2) {
            fields.put(namesAndValues[index], namesAndValues[index + 1]);
        }
        return fields;
    }

    private static void assertAccepted(PostPolicy policy, Map<String, String> fields) {
        assertThatCode(() -> PostPolicyCheck.verifyFields(policy, fields, NOW)).doesNotThrowAnyException();
    }

    private static void assertDenied(PostPolicy policy, Map<String, String> fields, String message) {
        assertS3Error(() -> PostPolicyCheck.verifyFields(policy, fields, NOW), S3Error.ACCESS_DENIED,
                DENIED + message);
    }

    @Test
    void acceptsTheFormOfTheAwsExampleOnceTheFilenameIsExpandedAndTheBucketSet() {
        Map<String, String> form = PostFields.resolveFilename(AwsPostExample.formFields(), "photo.jpg");
        form.put("bucket", AwsPostExample.BUCKET);

        assertThatCode(() -> PostPolicyCheck.verify(PostPolicy.parse(AwsPostExample.POLICY_BASE64), form, 4,
                Instant.parse("2015-12-29T12:00:00Z"))).doesNotThrowAnyException();
    }

    @Test
    void refusesTheAwsExampleUploadedToAnotherBucket() {
        Map<String, String> form = PostFields.resolveFilename(AwsPostExample.formFields(), "photo.jpg");
        form.put("bucket", "otherbucket");

        assertS3Error(() -> PostPolicyCheck.verify(PostPolicy.parse(AwsPostExample.POLICY_BASE64), form, 4,
                Instant.parse("2015-12-29T12:00:00Z")), S3Error.ACCESS_DENIED,
                DENIED + "Policy Condition failed: [\"eq\", \"$bucket\", \"sigv4examplebucket\"]");
    }

    @Test
    void refusesAnExpiredPolicyBeforeLookingAtItsConditions() {
        PostPolicy policy = policy("[{\"acl\": \"private\"}]");

        assertS3Error(() -> PostPolicyCheck.verifyFields(policy, fields("acl", "public-read"),
                Instant.parse("2030-01-01T01:00:00.001Z")), S3Error.ACCESS_DENIED, DENIED + "Policy expired.");
    }

    @Test
    void acceptsAnUploadAtTheExpirationInstant() {
        PostPolicy policy = policy("[{\"acl\": \"private\"}]");

        assertThatCode(() -> PostPolicyCheck.verifyFields(policy, fields("acl", "private"),
                Instant.parse("2030-01-01T01:00:00Z"))).doesNotThrowAnyException();
    }

    @Test
    void anExactMatchAcceptsTheSameValueOnly() {
        PostPolicy policy = policy("[[\"eq\", \"$success_action_redirect\", \"http://x.test/ok\"]]");

        assertAccepted(policy, fields("success_action_redirect", "http://x.test/ok"));
        assertDenied(policy, fields("success_action_redirect", "HTTP://x.test/ok"),
                "Policy Condition failed: [\"eq\", \"$success_action_redirect\", \"http://x.test/ok\"]");
        assertDenied(policy, fields("success_action_redirect", "http://x.test/ok/"),
                "Policy Condition failed: [\"eq\", \"$success_action_redirect\", \"http://x.test/ok\"]");
    }

    @Test
    void aSimpleConditionIsAnExactMatchQuotedAsEq() {
        PostPolicy policy = policy("[{\"acl\": \"public-read\"}]");

        assertAccepted(policy, fields("acl", "public-read"));
        assertDenied(policy, fields("acl", "private"), "Policy Condition failed: [\"eq\", \"$acl\", \"public-read\"]");
    }

    @Test
    void aStartsWithAcceptsValuesWithThePrefixOnly() {
        PostPolicy policy = policy("[[\"starts-with\", \"$key\", \"user/eric/\"]]");

        assertAccepted(policy, fields("key", "user/eric/photo.jpg"));
        assertAccepted(policy, fields("key", "user/eric/"));
        assertDenied(policy, fields("key", "user/bob/photo.jpg"),
                "Policy Condition failed: [\"starts-with\", \"$key\", \"user/eric/\"]");
        assertDenied(policy, fields("key", "User/eric/photo.jpg"),
                "Policy Condition failed: [\"starts-with\", \"$key\", \"user/eric/\"]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "anything", "http://elsewhere.test/?a=b"})
    void anEmptyPrefixAcceptsAnyValue(String value) {
        assertAccepted(policy("[[\"starts-with\", \"$success_action_redirect\", \"\"]]"),
                fields("success_action_redirect", value));
    }

    @Test
    void aConditionOnAFieldTheFormLacksFailsEvenWithAnEmptyPrefix() {
        assertDenied(policy("[[\"starts-with\", \"$Content-Type\", \"\"]]"), fields(),
                "Policy Condition failed: [\"starts-with\", \"$Content-Type\", \"\"]");
        assertDenied(policy("[{\"bucket\": \"b\"}]"), fields(), "Policy Condition failed: [\"eq\", \"$bucket\", \"b\"]");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "image/jpeg|true",
            "image/jpg,image/png,image/gif|true",
            "image/jpg, image/png|true",
            "image/jpg,text/plain|false",
            "text/plain,image/png|false",
            "image/jpg,|false"})
    void aContentTypeIsAListEachOfWhoseEntriesMustMatch(String contentType, boolean accepted) {
        PostPolicy policy = policy("[[\"starts-with\", \"$Content-Type\", \"image/\"]]");
        Map<String, String> form = fields("content-type", contentType);

        if (accepted) {
            assertAccepted(policy, form);
        } else {
            assertDenied(policy, form, "Policy Condition failed: [\"starts-with\", \"$Content-Type\", \"image/\"]");
        }
    }

    @Test
    void anyOtherFieldIsOneStringCommasAndAll() {
        PostPolicy policy = policy("[[\"starts-with\", \"$x-amz-meta-types\", \"image/\"]]");

        assertAccepted(policy, fields("x-amz-meta-types", "image/jpg,text/plain"));
    }

    @Test
    void fieldNamesAreCaseInsensitiveAndValuesAreNot() {
        PostPolicy policy = policy("[[\"eq\", \"$content-type\", \"text/plain\"], [\"eq\", \"$X-Amz-Meta-Test-2\", \"v\"],"
                + " {\"ACL\": \"private\"}]");

        assertAccepted(policy, fields("Content-Type", "text/plain", "x-amz-meta-TEST-2", "v", "acl", "private"));
        assertDenied(policy, fields("Content-Type", "Text/Plain", "x-amz-meta-test-2", "v", "acl", "private"),
                "Policy Condition failed: [\"eq\", \"$content-type\", \"text/plain\"]");
    }

    @Test
    void reportsTheFirstConditionThatFailsInThePolicysOrder() {
        PostPolicy policy = policy("[{\"acl\": \"private\"}, [\"starts-with\", \"$key\", \"a/\"], "
                + "[\"starts-with\", \"$key\", \"a/b/\"]]");

        assertDenied(policy, fields("acl", "private", "key", "c/d"),
                "Policy Condition failed: [\"starts-with\", \"$key\", \"a/\"]");
        assertDenied(policy, fields("acl", "private", "key", "a/c"),
                "Policy Condition failed: [\"starts-with\", \"$key\", \"a/b/\"]");
        assertAccepted(policy, fields("acl", "private", "key", "a/b/c"));
    }

    @Test
    void aConditionNoFormMeetsAlwaysFails() {
        assertDenied(policy("[[\"eq\", \"success_action_redirect\", \"http://x.test/\"]]"),
                fields("success_action_redirect", "http://x.test/"),
                "Policy Condition failed: [\"eq\", \"success_action_redirect\", \"http://x.test/\"]");
        assertDenied(policy("[[\"content-length-range\", \"test\", \"10\"]]"), fields(),
                "Policy Condition failed: [\"content-length-range\", \"test\", \"10\"]");
    }

    @Test
    void refusesAFieldNoConditionCovers() {
        PostPolicy policy = policy("[[\"starts-with\", \"$key\", \"\"]]");

        assertDenied(policy, fields("key", "k", "x-amz-meta-foo", "bar"), "Extra input fields: x-amz-meta-foo");
        assertDenied(policy, fields("key", "k", "Content-Disposition", "inline"),
                "Extra input fields: content-disposition");
    }

    @Test
    void namesEveryUncoveredFieldSorted() {
        assertDenied(policy("[[\"starts-with\", \"$key\", \"\"]]"), fields("key", "k", "zeta", "1", "alpha", "2"),
                "Extra input fields: alpha, zeta");
    }

    @Test
    void aFieldIsCoveredByAnyConditionNamingItWhatAnyOtherSays() {
        PostPolicy policy = policy("[[\"starts-with\", \"$key\", \"\"], [\"starts-with\", \"$x-amz-meta-a\", \"\"], "
                + "[\"eq\", \"$x-amz-meta-b\", \"2\"], [\"content-length-range\", 0, 10]]");

        assertAccepted(policy, fields("key", "k", "x-amz-meta-a", "1", "x-amz-meta-b", "2"));
    }

    @Test
    void theSignatureThePolicyTheFileTheBucketAndIgnoredFieldsNeedNoCondition() {
        PostPolicy policy = policy("[[\"starts-with\", \"$key\", \"\"]]");

        assertAccepted(policy, fields("key", "k", "policy", "...", "X-Amz-Signature", "abc", "file", "ignored",
                "bucket", "b", "x-ignore-tracker", "1", "X-Ignore-Other", "2"));
    }

    @Test
    void theFieldsTheSignatureUsesNeedAConditionAsAnyOther() {
        assertDenied(policy("[[\"starts-with\", \"$key\", \"\"]]"),
                fields("key", "k", "x-amz-algorithm", "AWS4-HMAC-SHA256"), "Extra input fields: x-amz-algorithm");
    }

    @Test
    void checksConditionsBeforeLookingForUncoveredFields() {
        assertDenied(policy("[{\"acl\": \"private\"}]"), fields("acl", "public-read", "extra", "1"),
                "Policy Condition failed: [\"eq\", \"$acl\", \"private\"]");
    }

    @ParameterizedTest
    @ValueSource(longs = {5, 6, 9, 10})
    void aContentLengthRangeAdmitsBothBounds(long length) {
        assertThatCode(() -> PostPolicyCheck.verifyContentLength(policy("[[\"content-length-range\", 5, 10]]"),
                length)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, Long.MAX_VALUE})
    void aFileAboveTheRangeIsTooLarge(long length) {
        assertS3Error(() -> PostPolicyCheck.verifyContentLength(policy("[[\"content-length-range\", 5, 10]]"),
                length), S3Error.ENTITY_TOO_LARGE, "Your proposed upload exceeds the maximum allowed size");
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 4})
    void aFileBelowTheRangeIsTooSmall(long length) {
        assertS3Error(() -> PostPolicyCheck.verifyContentLength(policy("[[\"content-length-range\", 5, 10]]"),
                length), S3Error.ENTITY_TOO_SMALL, "Your proposed upload is smaller than the minimum allowed size");
    }

    @Test
    void everyRangeApplies() {
        PostPolicy policy = policy("[[\"content-length-range\", 0, 100], [\"content-length-range\", 10, 1000]]");

        assertS3Error(() -> PostPolicyCheck.verifyContentLength(policy, 5), S3Error.ENTITY_TOO_SMALL);
        assertS3Error(() -> PostPolicyCheck.verifyContentLength(policy, 101), S3Error.ENTITY_TOO_LARGE);
        assertThatCode(() -> PostPolicyCheck.verifyContentLength(policy, 50)).doesNotThrowAnyException();
    }

    @Test
    void anEmptyRangeAdmitsOnlyAnEmptyFile() {
        PostPolicy policy = policy("[[\"content-length-range\", 0, 0]]");

        assertThatCode(() -> PostPolicyCheck.verifyContentLength(policy, 0)).doesNotThrowAnyException();
        assertS3Error(() -> PostPolicyCheck.verifyContentLength(policy, 3), S3Error.ENTITY_TOO_LARGE);
    }

    @Test
    void withoutARangeAnyLengthPasses() {
        assertThatCode(() -> PostPolicyCheck.verifyContentLength(policy("[]"), Long.MAX_VALUE))
                .doesNotThrowAnyException();
    }

    @Test
    void verifyChecksTheFieldsBeforeTheLength() {
        PostPolicy policy = policy("[{\"acl\": \"private\"}, [\"content-length-range\", 0, 1]]");

        assertS3Error(() -> PostPolicyCheck.verify(policy, fields("acl", "public-read"), 100, NOW),
                S3Error.ACCESS_DENIED);
        assertS3Error(() -> PostPolicyCheck.verify(policy, fields("acl", "private"), 100, NOW),
                S3Error.ENTITY_TOO_LARGE);
        assertThatCode(() -> PostPolicyCheck.verify(policy, fields("acl", "private"), 1, NOW))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesFieldNamesThatDifferOnlyInCase() {
        assertThatThrownBy(() -> PostPolicyCheck.verifyFields(policy("[]"), fields("Key", "a", "key", "b"), NOW))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
