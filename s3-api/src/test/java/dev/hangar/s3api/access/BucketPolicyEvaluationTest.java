package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What policies say about requests: Deny over Allow over no match, and every element's matching. */
class BucketPolicyEvaluationTest {
    private static final String BUCKET = "amzn-s3-demo-bucket";
    private static final String OBJECT = "arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg";
    private static final String BUCKET_ARN = "arn:aws:s3:::amzn-s3-demo-bucket";

    private static PolicyDecision evaluate(String json, @Nullable String principal, String action, String resource,
            Map<String, List<String>> context) {
        return BucketPolicy.parse(json, BUCKET).evaluate(new AccessRequest(principal, action, resource, context));
    }

    private static PolicyDecision evaluate(String json, @Nullable String principal, String action, String resource) {
        return evaluate(json, principal, action, resource, Map.of());
    }

    private static String policy(String... statements) {
        return "{\"Version\": \"2012-10-17\", \"Statement\": [" + String.join(",", statements) + "]}";
    }

    private static String statement(String effect, String principal, String action, String resource) {
        return """
                {"Effect": "%s", "Principal": %s, "Action": %s, "Resource": %s}"""
                .formatted(effect, principal, action, resource);
    }

    @Test
    void publicReadAllowsAnyoneToReadObjectsAndNothingElse() {
        String json = BucketPolicyParsingTest.PUBLIC_READ;
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, "AKIDANY", "s3:GetObjectVersion", OBJECT)).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, null, "s3:PutObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, null, "s3:ListBucket", BUCKET_ARN)).isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, null, "s3:GetObject", "arn:aws:s3:::other/photos/cat.jpg"))
                .isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void actionsAreComparedWithoutRegardToCase() {
        String json = BucketPolicyParsingTest.PUBLIC_READ;
        assertThat(evaluate(json, null, "S3:GETOBJECT", OBJECT)).isEqualTo(PolicyDecision.ALLOW);
    }

    @Test
    void resourcesAreComparedWithRegardToCase() {
        String json = BucketPolicyParsingTest.PUBLIC_READ;
        assertThat(evaluate(json, null, "s3:GetObject", "arn:aws:s3:::AMZN-S3-DEMO-BUCKET/x"))
                .isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void ipRestrictionAllowsTheRangeExceptItsExcludedPart() {
        String json = BucketPolicyParsingTest.IP_RESTRICTION;
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT, ip("192.0.2.10"))).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, null, "s3:ListBucket", BUCKET_ARN, ip("2001:db8:1234:5678::1")))
                .isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT, ip("2001:db8:1234:5678:abcd::1")))
                .isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT, ip("198.51.100.1")))
                .isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void denyOutsideAnIpRangeDeniesEveryoneElsewhere() {
        String json = """
                {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*",
                 "Resource": ["arn:aws:s3:::amzn-s3-demo-bucket", "arn:aws:s3:::amzn-s3-demo-bucket/*"],
                 "Condition": {"NotIpAddress": {"aws:SourceIp": "192.0.2.0/24"}}}]}""";
        assertThat(evaluate(json, "AKIDANY", "s3:PutObject", OBJECT, ip("203.0.113.1")))
                .isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, "AKIDANY", "s3:PutObject", OBJECT, ip("192.0.2.1")))
                .isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, "AKIDANY", "s3:PutObject", OBJECT))
                .as("NotIpAddress holds for a request without a source address")
                .isEqualTo(PolicyDecision.EXPLICIT_DENY);
    }

    @Test
    void denyInsecureTransportDeniesPlainHttpOnly() {
        String json = BucketPolicyParsingTest.DENY_INSECURE_TRANSPORT;
        assertThat(evaluate(json, "AKIDANY", "s3:GetObject", OBJECT, secure(false)))
                .isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, "AKIDANY", "s3:ListBucket", BUCKET_ARN, secure(false)))
                .isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, "AKIDANY", "s3:GetObject", OBJECT, secure(true)))
                .isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void specificPrincipalsAreMatchedByAccessKeyId() {
        String json = BucketPolicyParsingTest.SPECIFIC_PRINCIPAL;
        assertThat(evaluate(json, "JohnDoe", "s3:PutObject", OBJECT)).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, "AKIDREADER", "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, "AKIDROOTED", "s3:ListBucket", BUCKET_ARN)).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, "AKIDROOTED", "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, "johndoe", "s3:GetObject", OBJECT))
                .as("access key ids are compared exactly")
                .isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void refererRestrictionMatchesTheListedSites() {
        String json = BucketPolicyParsingTest.REFERER;
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT,
                Map.of("aws:Referer", List.of("http://www.example.com/gallery")))).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT,
                Map.of("aws:Referer", List.of("http://evil.example.net/")))).isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void policyVariablesGiveEachUserItsHomeFolder() {
        String json = BucketPolicyParsingTest.HOME_FOLDERS;
        assertThat(evaluate(json, "alice", "s3:PutObject", BUCKET_ARN + "/home/alice/notes.txt"))
                .isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, "alice", "s3:PutObject", BUCKET_ARN + "/home/bob/notes.txt"))
                .isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, "alice", "s3:ListBucket", BUCKET_ARN, Map.of("s3:prefix", List.of("home/alice/"))))
                .isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, "bob", "s3:ListBucket", BUCKET_ARN, Map.of("s3:prefix", List.of("home/alice/"))))
                .isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, "bob", "s3:ListBucket", BUCKET_ARN)).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void anyMatchingDenyWinsOverAnyAllow() {
        String json = policy(
                statement("Allow", "\"*\"", "\"s3:*\"", "\"arn:aws:s3:::amzn-s3-demo-bucket/*\""),
                statement("Deny", "{\"AWS\": \"AKIDMALLORY\"}", "\"s3:Get*\"",
                        "\"arn:aws:s3:::amzn-s3-demo-bucket/photos/*\""),
                statement("Allow", "{\"AWS\": \"AKIDMALLORY\"}", "\"s3:GetObject\"", "\"*\""));
        assertThat(evaluate(json, "AKIDMALLORY", "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, "AKIDMALLORY", "s3:PutObject", OBJECT)).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, "AKIDMALLORY", "s3:GetObject", BUCKET_ARN + "/docs/a"))
                .isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, "AKIDALICE", "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.ALLOW);
    }

    @Test
    void theOrderOfStatementsDoesNotMatter() {
        String allow = statement("Allow", "\"*\"", "\"s3:GetObject\"", "\"*\"");
        String deny = statement("Deny", "\"*\"", "\"s3:GetObject\"", "\"*\"");
        assertThat(evaluate(policy(allow, deny), null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(policy(deny, allow), null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.EXPLICIT_DENY);
    }

    @ParameterizedTest(name = "{0} on {1} for {2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            s3:GetObject             | arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg | s3:GetObject        | true
            s3:GetObject             | arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg | s3:GetObjectVersion | false
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg | s3:GetObjectAcl     | true
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg | s3:PutObject        | false
            s3:*                     | arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg | s3:DeleteObject     | true
            *                        | arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg | s3:DeleteObject     | true
            s3:*Object               | arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg | s3:PutObject        | true
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/photos/*       | s3:GetObject        | true
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/videos/*       | s3:GetObject        | false
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/*.jpg          | s3:GetObject        | true
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/*.png          | s3:GetObject        | false
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/photos/ca?.jpg | s3:GetObject        | true
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/photos/c?.jpg  | s3:GetObject        | false
            s3:Get*                  | *                                               | s3:GetObject        | true
            s3:Get*                  | arn:aws:s3:::amzn-s3-demo-bucket/photos/cat.jpg | s3:GetObject        | true
            """)
    void actionAndResourceWildcards(String action, String resource, String requested, boolean allowed) {
        String json = policy(statement("Allow", "\"*\"", "\"" + action + "\"", "\"" + resource + "\""));
        assertThat(evaluate(json, null, requested, OBJECT))
                .isEqualTo(allowed ? PolicyDecision.ALLOW : PolicyDecision.NO_MATCH);
    }

    @Test
    void theBucketResourceDoesNotCoverItsObjectsNorTheReverse() {
        String json = policy(statement("Allow", "\"*\"", "\"s3:*\"", "\"arn:aws:s3:::amzn-s3-demo-bucket\""));
        assertThat(evaluate(json, null, "s3:ListBucket", BUCKET_ARN)).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
        String objects = policy(statement("Allow", "\"*\"", "\"s3:*\"", "\"arn:aws:s3:::amzn-s3-demo-bucket/*\""));
        assertThat(evaluate(objects, null, "s3:ListBucket", BUCKET_ARN)).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void notPrincipalAppliesToEveryoneElse() {
        String json = policy("""
                {"Effect": "Deny", "NotPrincipal": {"AWS": ["AKIDADMIN"]}, "Action": "s3:DeleteObject",
                 "Resource": "arn:aws:s3:::amzn-s3-demo-bucket/*"}""");
        assertThat(evaluate(json, "AKIDOTHER", "s3:DeleteObject", OBJECT)).isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, null, "s3:DeleteObject", OBJECT)).isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, "AKIDADMIN", "s3:DeleteObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void notActionAppliesToEveryOtherAction() {
        String json = policy("""
                {"Effect": "Deny", "Principal": "*", "NotAction": ["s3:Get*", "s3:List*"],
                 "Resource": ["arn:aws:s3:::amzn-s3-demo-bucket", "arn:aws:s3:::amzn-s3-demo-bucket/*"]}""");
        assertThat(evaluate(json, "AKIDANY", "s3:PutObject", OBJECT)).isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, "AKIDANY", "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, "AKIDANY", "s3:ListBucket", BUCKET_ARN)).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void notResourceAppliesToEveryOtherResource() {
        String json = policy("""
                {"Effect": "Deny", "Principal": "*", "Action": "s3:GetObject",
                 "NotResource": "arn:aws:s3:::amzn-s3-demo-bucket/public/*"}""");
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, null, "s3:GetObject", BUCKET_ARN + "/public/index.html"))
                .isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void everyConditionOfAStatementMustHold() {
        String json = policy("""
                {"Effect": "Allow", "Principal": "*", "Action": "s3:ListBucket",
                 "Resource": "arn:aws:s3:::amzn-s3-demo-bucket",
                 "Condition": {
                   "StringEquals": {"s3:delimiter": "/", "s3:prefix": "public/"},
                   "NumericLessThanEquals": {"s3:max-keys": "100"}
                 }}""");
        Map<String, List<String>> all = Map.of(
                "s3:delimiter", List.of("/"), "s3:prefix", List.of("public/"), "s3:max-keys", List.of("50"));
        assertThat(evaluate(json, null, "s3:ListBucket", BUCKET_ARN, all)).isEqualTo(PolicyDecision.ALLOW);
        Map<String, List<String>> tooMany = Map.of(
                "s3:delimiter", List.of("/"), "s3:prefix", List.of("public/"), "s3:max-keys", List.of("1000"));
        assertThat(evaluate(json, null, "s3:ListBucket", BUCKET_ARN, tooMany)).isEqualTo(PolicyDecision.NO_MATCH);
        Map<String, List<String>> noDelimiter = Map.of("s3:prefix", List.of("public/"), "s3:max-keys", List.of("5"));
        assertThat(evaluate(json, null, "s3:ListBucket", BUCKET_ARN, noDelimiter)).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void conditionsOnObjectTagsAndAclHeaders() {
        String json = policy("""
                {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
                 "Resource": "arn:aws:s3:::amzn-s3-demo-bucket/*",
                 "Condition": {"StringEquals": {"s3:ExistingObjectTag/classification": "public"}}}""",
                """
                {"Effect": "Deny", "Principal": "*", "Action": "s3:PutObject",
                 "Resource": "arn:aws:s3:::amzn-s3-demo-bucket/*",
                 "Condition": {"StringEquals": {"s3:x-amz-acl": ["public-read", "public-read-write"]}}}""");
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT,
                Map.of("s3:ExistingObjectTag/classification", List.of("public")))).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT,
                Map.of("s3:ExistingObjectTag/classification", List.of("secret")))).isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, "AKIDANY", "s3:PutObject", OBJECT,
                Map.of("s3:x-amz-acl", List.of("public-read")))).isEqualTo(PolicyDecision.EXPLICIT_DENY);
        assertThat(evaluate(json, "AKIDANY", "s3:PutObject", OBJECT,
                Map.of("s3:x-amz-acl", List.of("private")))).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void timeWindowsAndSignatureVersion() {
        String json = policy("""
                {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
                 "Resource": "arn:aws:s3:::amzn-s3-demo-bucket/*",
                 "Condition": {
                   "DateGreaterThan": {"aws:CurrentTime": "2024-01-01T00:00:00Z"},
                   "DateLessThan": {"aws:CurrentTime": "2024-12-31T23:59:59Z"},
                   "StringEquals": {"s3:signatureversion": "AWS4-HMAC-SHA256"}
                 }}""");
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT, Map.of(
                "aws:CurrentTime", List.of("2024-06-01T12:00:00Z"),
                "S3:SignatureVersion", List.of("AWS4-HMAC-SHA256")))).isEqualTo(PolicyDecision.ALLOW);
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT, Map.of(
                "aws:CurrentTime", List.of("2025-06-01T12:00:00Z"),
                "s3:signatureversion", List.of("AWS4-HMAC-SHA256")))).isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void servicePrincipalsNeverMatch() {
        String json = policy("""
                {"Effect": "Allow", "Principal": {"Service": "cloudfront.amazonaws.com"}, "Action": "s3:GetObject",
                 "Resource": "arn:aws:s3:::amzn-s3-demo-bucket/*"}""");
        assertThat(evaluate(json, null, "s3:GetObject", OBJECT)).isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(evaluate(json, "cloudfront.amazonaws.com", "s3:GetObject", OBJECT))
                .isEqualTo(PolicyDecision.NO_MATCH);
    }

    @Test
    void thePolicyIsReusableAcrossRequests() {
        BucketPolicy policy = BucketPolicy.parse(BucketPolicyParsingTest.HOME_FOLDERS, BUCKET);
        for (String user : List.of("alice", "bob", "alice")) {
            assertThat(policy.evaluate(new AccessRequest(user, "s3:GetObject", BUCKET_ARN + "/home/" + user + "/x")))
                    .isEqualTo(PolicyDecision.ALLOW);
        }
    }

    private static Map<String, List<String>> ip(String address) {
        return Map.of("aws:SourceIp", List.of(address));
    }

    private static Map<String, List<String>> secure(boolean secure) {
        return Map.of("aws:SecureTransport", List.of(Boolean.toString(secure)));
    }
}
