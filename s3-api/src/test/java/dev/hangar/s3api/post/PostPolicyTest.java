package dev.hangar.s3api.post;

import static dev.hangar.s3api.post.AwsPostExample.POLICY_BASE64;
import static dev.hangar.s3api.post.AwsPostExample.base64;
import static dev.hangar.s3api.post.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.post.PostCondition.ContentLengthRange;
import dev.hangar.s3api.post.PostCondition.ExactMatch;
import dev.hangar.s3api.post.PostCondition.StartsWith;
import dev.hangar.s3api.post.PostCondition.Unsatisfiable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PostPolicyTest {

    private static PostPolicy parseConditions(String conditions) {
        return PostPolicy.parse(base64("{\"expiration\": \"2030-01-01T00:00:00Z\", \"conditions\": " + conditions
                + "}"));
    }

    private static void assertInvalid(String json, String message) {
        assertS3Error(() -> PostPolicy.parse(base64(json)), S3Error.INVALID_POLICY_DOCUMENT,
                "Invalid Policy: " + message);
    }

    private static void assertInvalidConditions(String conditions, String message) {
        assertInvalid("{\"expiration\": \"2030-01-01T00:00:00Z\", \"conditions\": " + conditions + "}", message);
    }

    @Test
    void readsTheExampleOfTheAwsDocumentation() {
        PostPolicy policy = PostPolicy.parse(POLICY_BASE64);

        assertThat(policy.expiration()).isEqualTo(Instant.parse("2015-12-30T12:00:00Z"));
        assertThat(policy.conditions()).containsExactly(
                new ExactMatch("bucket", "sigv4examplebucket", "[\"eq\", \"$bucket\", \"sigv4examplebucket\"]"),
                new StartsWith("key", "user/user1/", "[\"starts-with\", \"$key\", \"user/user1/\"]"),
                new ExactMatch("acl", "public-read", "[\"eq\", \"$acl\", \"public-read\"]"),
                new ExactMatch("success_action_redirect", AwsPostExample.REDIRECT,
                        "[\"eq\", \"$success_action_redirect\", \"" + AwsPostExample.REDIRECT + "\"]"),
                new StartsWith("content-type", "image/", "[\"starts-with\", \"$Content-Type\", \"image/\"]"),
                new ExactMatch("x-amz-meta-uuid", "14365123651274",
                        "[\"eq\", \"$x-amz-meta-uuid\", \"14365123651274\"]"),
                new ExactMatch("x-amz-server-side-encryption", "AES256",
                        "[\"eq\", \"$x-amz-server-side-encryption\", \"AES256\"]"),
                new StartsWith("x-amz-meta-tag", "", "[\"starts-with\", \"$x-amz-meta-tag\", \"\"]"),
                new ExactMatch("x-amz-credential", AwsPostExample.CREDENTIAL,
                        "[\"eq\", \"$x-amz-credential\", \"" + AwsPostExample.CREDENTIAL + "\"]"),
                new ExactMatch("x-amz-algorithm", "AWS4-HMAC-SHA256",
                        "[\"eq\", \"$x-amz-algorithm\", \"AWS4-HMAC-SHA256\"]"),
                new ExactMatch("x-amz-date", "20151229T000000Z", "[\"eq\", \"$x-amz-date\", \"20151229T000000Z\"]"));
        assertThat(policy.maximumContentLength()).isEmpty();
    }

    @Test
    void readsBase64BrokenIntoLines() {
        String wrapped = POLICY_BASE64.substring(0, 76) + "\r\n" + POLICY_BASE64.substring(76);

        assertThat(PostPolicy.parse(wrapped)).isEqualTo(PostPolicy.parse(POLICY_BASE64));
    }

    @ParameterizedTest
    @CsvSource({
            "2015-12-30T12:00:00.000Z, 2015-12-30T12:00:00Z",
            "2015-12-30T12:00:00Z, 2015-12-30T12:00:00Z",
            "2015-12-30T12:00:00.5Z, 2015-12-30T12:00:00.500Z",
            "2030-02-28T23:59:59.123456789Z, 2030-02-28T23:59:59.123456789Z"})
    void readsTheExpirationWithOrWithoutAFraction(String expiration, String instant) {
        PostPolicy policy = PostPolicy.parse(base64("{\"expiration\": \"" + expiration + "\", \"conditions\": []}"));

        assertThat(policy.expiration()).isEqualTo(Instant.parse(instant));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2011-09-13T07:52:58+02:00", "2015-10-17 03:15:59 UTC", "2015-10-17 03:15:59Z",
            "2015-12-30", "2015-12-30T12:00Z", "2015-02-30T12:00:00Z", "2015-12-30t12:00:00z", "tomorrow", ""})
    void refusesAnExpirationThatIsNotAnIsoTimestampInUtc(String expiration) {
        assertInvalid("{\"expiration\": \"" + expiration + "\", \"conditions\": []}",
                "Invalid 'expiration' value: '" + expiration + "'");
    }

    @Test
    void refusesAnExpirationThatIsNotAString() {
        assertInvalid("{\"expiration\": 1451476800, \"conditions\": []}",
                "Invalid 'expiration' value: '1451476800'");
    }

    @Test
    void refusesAPolicyWithoutExpiration() {
        assertInvalid("{\"conditions\": []}", "Policy missing expiration.");
    }

    @Test
    void refusesAPolicyWithoutConditions() {
        assertInvalid("{\"expiration\": \"2030-01-01T00:00:00Z\"}", "Policy missing conditions.");
    }

    @Test
    void refusesConditionsThatAreNotAList() {
        assertInvalidConditions("{\"acl\": \"private\"}", "Invalid 'conditions' value: must be a List.");
    }

    @Test
    void refusesAMemberOtherThanExpirationAndConditionsNamingItInLowerCase() {
        assertInvalid("{\"Version\": \"2012-10-17\", \"expiration\": \"2030-01-01T00:00:00Z\", \"conditions\": []}",
                "Unexpected: 'version'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"EXPIRATION\": \"2030-01-01T00:00:00Z\", \"conditions\": []}",
            "{\"expiration\": \"2030-01-01T00:00:00Z\", \"CONDITIONS\": []}"})
    void spellsTheMemberNamesInLowerCaseOnly(String json) {
        assertS3Error(() -> PostPolicy.parse(base64(json)), S3Error.INVALID_POLICY_DOCUMENT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json", "{", "[]", "\"policy\"", "{\"expiration\": \"2030-01-01T00:00:00Z\", "
            + "\"conditions\": [{\"acl\": \"private\"},]}",
            "{\"expiration\": \"2030-01-01T00:00:00Z\", \"conditions\": [], \"conditions\": []}",
            "{\"expiration\": \"2030-01-01T00:00:00Z\", \"conditions\": []} {}"})
    void refusesWhatIsNotStrictJsonOrNotAnObject(String json) {
        assertInvalid(json, "Invalid JSON.");
    }

    @Test
    void refusesBytesThatAreNotUtf8() {
        byte[] latin1 = "{\"expiration\": \"2030-01-01T00:00:00Z\", \"conditions\": [{\"key\": \"caf\u00e9\"}]}"
                .getBytes(StandardCharsets.ISO_8859_1);

        assertS3Error(() -> PostPolicy.parse(Base64.getEncoder().encodeToString(latin1)),
                S3Error.INVALID_POLICY_DOCUMENT, "Invalid Policy: Invalid JSON.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"not base64!", "eyAiZXhwaXJhdGlvbiI6=ICIy", "e"})
    void refusesAFieldThatIsNotBase64(String policy) {
        assertS3Error(() -> PostPolicy.parse(policy), S3Error.INVALID_POLICY_DOCUMENT,
                "Invalid Policy: invalid Base64 encoding.");
    }

    @Test
    void readsEachKindOfCondition() {
        PostPolicy policy = parseConditions("[{\"acl\": \"public-read\"}, [\"eq\", \"$Key\", \"a/b.txt\"], "
                + "[\"starts-with\", \"$x-amz-meta-Tag\", \"\"], [\"content-length-range\", 1, 1048576]]");

        assertThat(policy.conditions()).containsExactly(
                new ExactMatch("acl", "public-read", "[\"eq\", \"$acl\", \"public-read\"]"),
                new ExactMatch("key", "a/b.txt", "[\"eq\", \"$Key\", \"a/b.txt\"]"),
                new StartsWith("x-amz-meta-tag", "", "[\"starts-with\", \"$x-amz-meta-Tag\", \"\"]"),
                new ContentLengthRange(1, 1048576, "[\"content-length-range\", 1, 1048576]"));
    }

    @Test
    void readsOperationNamesAndFieldNamesInAnyCase() {
        PostPolicy policy = parseConditions("[{\"bUcKeT\": \"b\"}, [\"StArTs-WiTh\", \"$KeY\", \"foo\"], "
                + "[\"EQ\", \"$CoNtEnT-TyPe\", \"text/plain\"], [\"Content-Length-Range\", 0, 1024]]");

        assertThat(policy.conditions()).containsExactly(
                new ExactMatch("bucket", "b", "[\"eq\", \"$bUcKeT\", \"b\"]"),
                new StartsWith("key", "foo", "[\"StArTs-WiTh\", \"$KeY\", \"foo\"]"),
                new ExactMatch("content-type", "text/plain", "[\"EQ\", \"$CoNtEnT-TyPe\", \"text/plain\"]"),
                new ContentLengthRange(0, 1024, "[\"Content-Length-Range\", 0, 1024]"));
    }

    @Test
    void quotesAConditionAsJsonWithItsQuotesEscaped() {
        PostPolicy policy = parseConditions("[[\"eq\", \"$Content-Disposition\", \"filename=\\\"test.png\\\"\"], "
                + "{\"x-amz-meta-note\": \"tab\\there\\\\\"}]");

        assertThat(policy.conditions()).extracting(PostCondition::rendered).containsExactly(
                "[\"eq\", \"$Content-Disposition\", \"filename=\\\"test.png\\\"\"]",
                "[\"eq\", \"$x-amz-meta-note\", \"tab\\there\\\\\"]");
    }

    @Test
    void takesAFieldNamedWithoutItsDollarAsAConditionNoFormMeets() {
        PostPolicy policy = parseConditions("[[\"eq\", \"success_action_redirect\", \"http://x.test/\"]]");

        assertThat(policy.conditions()).containsExactly(
                new Unsatisfiable("[\"eq\", \"success_action_redirect\", \"http://x.test/\"]"));
    }

    @Test
    void readsContentLengthBoundsGivenAsStrings() {
        PostPolicy policy = parseConditions("[[\"content-length-range\", \"5\", \"10\"]]");

        assertThat(policy.conditions()).containsExactly(
                new ContentLengthRange(5, 10, "[\"content-length-range\", \"5\", \"10\"]"));
    }

    @Test
    void takesContentLengthBoundsThatAreNotNumbersAsAConditionNoFormMeets() {
        PostPolicy policy = parseConditions("[[\"content-length-range\", \"test\", \"10\"]]");

        assertThat(policy.conditions()).containsExactly(
                new Unsatisfiable("[\"content-length-range\", \"test\", \"10\"]"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[[\"content-length-range\", 0, 512.0]]", "[[\"content-length-range\", null, 10]]",
            "[[\"content-length-range\", [0], 10]]"})
    void refusesContentLengthBoundsThatAreNotIntegers(String conditions) {
        assertInvalidConditions(conditions, "Invalid JSON.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[[\"content-length-range\", -1, 0]]",
            "[[\"content-length-range\", 0, 99999999999999999999]]"})
    void refusesContentLengthBoundsOutOfRange(String conditions) {
        assertS3Error(() -> parseConditions(conditions), S3Error.INVALID_POLICY_DOCUMENT);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "[[\"content-length-range\", 0]]|Invalid content-length-range: wrong number of arguments.",
            "[[\"content-length-range\", 0, 1, 2]]|Invalid content-length-range: wrong number of arguments.",
            "[[\"eq\", \"$key\"]]|Invalid eq: wrong number of arguments.",
            "[[\"starts-with\", \"$key\", \"a\", \"b\"]]|Invalid starts-with: wrong number of arguments.",
            "[[]]|Invalid Condition: missing operation identifier.",
            "[[5, \"$key\", \"a\"]]|Invalid Condition: missing operation identifier.",
            "[[\"matches\", \"$key\", \"a.*\"]]|Invalid Condition: unknown operation 'matches'.",
            "[\"acl\"]|Invalid condition test: must be a List or Object.",
            "[7]|Invalid condition test: must be a List or Object.",
            "[{}]|Invalid Simple-Condition: Simple-Conditions must have exactly one property specified.",
            "[{\"bucket\": \"b\", \"acl\": \"private\"}]|"
                    + "Invalid Simple-Condition: Simple-Conditions must have exactly one property specified.",
            "[{\"Content-Length\": 6199034}]|Invalid Simple-Condition: value must be a string.",
            "[{\"success_action_redirect\": null}]|Invalid JSON.",
            "[[\"eq\", \"$key\", 5]]|Invalid JSON.",
            "[[\"starts-with\", null, \"a\"]]|Invalid JSON."})
    void refusesConditionsThatAreNotConditionsWithS3sMessage(String conditions, String message) {
        assertInvalidConditions(conditions, message);
    }

    @Test
    void keepsTheConditionsInTheirOrder() {
        PostPolicy policy = parseConditions("[[\"starts-with\", \"$key\", \"b\"], [\"starts-with\", \"$key\", \"a\"]]");

        assertThat(policy.conditions()).extracting(PostCondition::rendered).containsExactly(
                "[\"starts-with\", \"$key\", \"b\"]", "[\"starts-with\", \"$key\", \"a\"]");
    }

    @Test
    void theLargestFileIsTheSmallestMaximumOfAllRanges() {
        PostPolicy policy = parseConditions("[[\"content-length-range\", 0, 1000], [\"content-length-range\", 10, 500]]");

        assertThat(policy.maximumContentLength()).isEqualTo(OptionalLong.of(500));
    }

    @Test
    void conditionsHoldFieldNamesInLowerCaseOnly() {
        assertThatThrownBy(() -> new ExactMatch("Key", "v", "[]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ContentLengthRange(-1, 5, "[]")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPolicyIsAValue() {
        PostPolicy policy = new PostPolicy(Instant.EPOCH, List.of(new Unsatisfiable("[]")));

        assertThat(policy).isEqualTo(new PostPolicy(Instant.EPOCH, List.of(new Unsatisfiable("[]"))));
        assertThatThrownBy(() -> policy.conditions().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
