package dev.hangar.s3api.access;

import static dev.hangar.s3api.access.S3Assertions.assertMalformedPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which policies PutBucketPolicy accepts, and the MalformedPolicy message for those it refuses. */
class BucketPolicyParsingTest {
    private static final String BUCKET = "amzn-s3-demo-bucket";

    /** The "granting read-only permission to public anonymous users" example of the S3 user guide. */
    static final String PUBLIC_READ = """
            {
              "Version": "2012-10-17",
              "Statement": [
                {
                  "Sid": "PublicRead",
                  "Effect": "Allow",
                  "Principal": "*",
                  "Action": ["s3:GetObject", "s3:GetObjectVersion"],
                  "Resource": ["arn:aws:s3:::amzn-s3-demo-bucket/*"]
                }
              ]
            }""";

    /** The "managing access based on specific IP addresses" example, IPv4 and IPv6. */
    static final String IP_RESTRICTION = """
            {
              "Id": "PolicyId2",
              "Version": "2012-10-17",
              "Statement": [
                {
                  "Sid": "AllowIPmix",
                  "Effect": "Allow",
                  "Principal": "*",
                  "Action": "s3:*",
                  "Resource": [
                    "arn:aws:s3:::amzn-s3-demo-bucket",
                    "arn:aws:s3:::amzn-s3-demo-bucket/*"
                  ],
                  "Condition": {
                    "IpAddress": {
                      "aws:SourceIp": ["192.0.2.0/24", "2001:DB8:1234:5678::/64"]
                    },
                    "NotIpAddress": {
                      "aws:SourceIp": ["203.0.113.0/24", "2001:DB8:1234:5678:ABCD::/80"]
                    }
                  }
                }
              ]
            }""";

    /** The "restrict access to TLS requests only" example. */
    static final String DENY_INSECURE_TRANSPORT = """
            {
              "Version": "2012-10-17",
              "Statement": [{
                "Sid": "RestrictToTLSRequestsOnly",
                "Action": "s3:*",
                "Effect": "Deny",
                "Resource": [
                  "arn:aws:s3:::amzn-s3-demo-bucket",
                  "arn:aws:s3:::amzn-s3-demo-bucket/*"
                ],
                "Condition": {
                  "Bool": { "aws:SecureTransport": "false" }
                },
                "Principal": "*"
              }]
            }""";

    /** Permissions for one user (an access key here), named by IAM ARN, and another by id. */
    static final String SPECIFIC_PRINCIPAL = """
            {
              "Version": "2012-10-17",
              "Statement": [
                {
                  "Sid": "JohnDoeReadWrite",
                  "Effect": "Allow",
                  "Principal": { "AWS": ["arn:aws:iam::111122223333:user/JohnDoe", "AKIDREADER"] },
                  "Action": ["s3:GetObject", "s3:PutObject"],
                  "Resource": "arn:aws:s3:::amzn-s3-demo-bucket/*"
                },
                {
                  "Sid": "AccountRootLists",
                  "Effect": "Allow",
                  "Principal": { "AWS": "arn:aws:iam::AKIDROOTED:root" },
                  "Action": "s3:ListBucket",
                  "Resource": "arn:aws:s3:::amzn-s3-demo-bucket"
                }
              ]
            }""";

    /** The "restricting access to a specific HTTP referer" example. */
    static final String REFERER = """
            {
              "Version": "2012-10-17",
              "Id": "HTTP referer policy example",
              "Statement": [
                {
                  "Sid": "Allow only GET requests originating from www.example.com and example.com.",
                  "Effect": "Allow",
                  "Principal": "*",
                  "Action": ["s3:GetObject", "s3:GetObjectVersion"],
                  "Resource": "arn:aws:s3:::amzn-s3-demo-bucket/*",
                  "Condition": {
                    "StringLike": {"aws:Referer": ["http://www.example.com/*", "http://example.com/*"]}
                  }
                }
              ]
            }""";

    /** Home folders: each user lists and uses its own prefix, through policy variables. */
    static final String HOME_FOLDERS = """
            {
              "Version": "2012-10-17",
              "Statement": [
                {
                  "Sid": "ListOwnHome",
                  "Effect": "Allow",
                  "Principal": {"AWS": ["alice", "bob"]},
                  "Action": "s3:ListBucket",
                  "Resource": "arn:aws:s3:::amzn-s3-demo-bucket",
                  "Condition": {"StringLike": {"s3:prefix": ["home/${aws:username}/*", "home/${aws:username}"]}}
                },
                {
                  "Sid": "UseOwnHome",
                  "Effect": "Allow",
                  "Principal": {"AWS": ["alice", "bob"]},
                  "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
                  "Resource": "arn:aws:s3:::amzn-s3-demo-bucket/home/${aws:username}/*"
                }
              ]
            }""";

    @ParameterizedTest
    @ValueSource(strings = {PUBLIC_READ, IP_RESTRICTION, DENY_INSECURE_TRANSPORT, SPECIFIC_PRINCIPAL, REFERER,
        HOME_FOLDERS})
    void acceptsTheExamplesOfTheS3Documentation(String json) {
        BucketPolicy policy = BucketPolicy.parse(json, BUCKET);
        assertThat(policy.json()).isEqualTo(json);
        assertThat(policy.bucket()).isEqualTo(BUCKET);
        assertThat(policy.version()).isEqualTo("2012-10-17");
    }

    @Test
    void keepsTheDocumentExactlyAsPut() {
        String json = "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"s3:GetObject\","
                + "\"Resource\":\"arn:aws:s3:::b/*\"}}   \n";
        assertThat(BucketPolicy.parse(json, "b").json()).isEqualTo(json);
    }

    @Test
    void readsIdVersionAndStatements() {
        BucketPolicy policy = BucketPolicy.parse(IP_RESTRICTION, BUCKET);
        assertThat(policy.id()).isEqualTo("PolicyId2");
        assertThat(policy.statementCount()).isEqualTo(1);
        assertThat(BucketPolicy.parse(PUBLIC_READ, BUCKET).id()).isNull();
    }

    @Test
    void versionDefaultsTo2008AndAStatementMayStandAlone() {
        BucketPolicy policy = BucketPolicy.parse("""
                {"Statement": {"Effect": "Allow", "Principal": {"AWS": ["*"]}, "Action": "s3:GetObject",
                 "Resource": "arn:aws:s3:::b/*"}}""", "b");
        assertThat(policy.version()).isEqualTo("2008-10-17");
        assertThat(policy.statementCount()).isEqualTo(1);
        assertThat(BucketPolicy.parse("""
                {"Version": "2008-10-17", "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "*",
                 "Resource": "*"}]}""", "b").version()).isEqualTo("2008-10-17");
    }

    @Test
    void namesThePrincipalsItMentions() {
        assertThat(BucketPolicy.parse(SPECIFIC_PRINCIPAL, BUCKET).principalIds())
                .containsExactly("JohnDoe", "AKIDREADER", "AKIDROOTED");
        assertThat(BucketPolicy.parse(PUBLIC_READ, BUCKET).principalIds()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            AKIDEXAMPLE                                       | AKIDEXAMPLE
            arn:aws:iam::AKIDEXAMPLE:root                     | AKIDEXAMPLE
            arn:aws:iam::111122223333:user/AKIDEXAMPLE        | AKIDEXAMPLE
            arn:aws:iam::111122223333:user/team/a/AKIDEXAMPLE | AKIDEXAMPLE
            arn:aws-cn:iam::111122223333:user/AKIDEXAMPLE     | AKIDEXAMPLE
            """)
    void principalsAreAccessKeyIdsOrTheTrailingIdOfAnArn(String principal, String accessKeyId) {
        assertThat(PolicyParser.accessKeyId(principal)).isEqualTo(accessKeyId);
    }

    @Test
    void acceptsServiceCanonicalUserAndNotPrincipalForms() {
        BucketPolicy policy = BucketPolicy.parse("""
                {"Version": "2012-10-17", "Statement": [
                  {"Effect": "Allow", "Principal": {"Service": "cloudfront.amazonaws.com"},
                   "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"},
                  {"Effect": "Allow", "Principal": {"CanonicalUser": "AKIDCANONICAL"},
                   "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"},
                  {"Effect": "Deny", "NotPrincipal": {"AWS": "AKIDADMIN"},
                   "NotAction": "s3:Get*", "NotResource": "arn:aws:s3:::b/public/*"}
                ]}""", "b");
        assertThat(policy.principalIds()).containsExactlyInAnyOrder("AKIDCANONICAL", "AKIDADMIN");
    }

    @Test
    void acceptsConditionValuesThatAreNumbersOrBooleans() {
        BucketPolicy.parse("""
                {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*",
                 "Resource": ["arn:aws:s3:::b", "arn:aws:s3:::b/*"],
                 "Condition": {"Bool": {"aws:SecureTransport": false}, "NumericGreaterThan": {"s3:max-keys": 100}}}]}
                """.strip(), "b");
    }

    @Test
    void acceptsWildcardResourceAndActionPatterns() {
        BucketPolicy.parse("""
                {"Statement": [{"Effect": "Allow", "Principal": "*", "Action": ["s3:Get*", "s3:List*", "S3:putobject"],
                 "Resource": "*"}]}""", "b");
        BucketPolicy.parse("""
                {"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:*Object",
                 "Resource": "arn:aws:s3:::b/photos/*.jpg"}]}""", "b");
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            ` {"Statement": []}` | Policies must be valid JSON and the first byte must be '{'
            `[{"Statement": []}]` | Policies must be valid JSON and the first byte must be '{'
            `{"Statement": [}` | This policy contains invalid Json
            `{"Statement": []} {}` | This policy contains invalid Json
            `{"Version": "2012-10-17", "Version": "2008-10-17", "Statement": []}` | This policy contains invalid Json
            `{"Version": "2012-10-17"}` | Missing required field Statement
            `{"Statement": []}` | Could not parse the policy: Statement is empty!
            `{"Statement": "s3:*"}` | Syntax errors in policy.
            `{"Statement": ["s3:*"]}` | Syntax errors in policy.
            `{"Version": "2020-01-01", "Statement": []}` | The policy must contain a valid version string
            `{"Version": 2012, "Statement": []}` | The policy must contain a valid version string
            `{"Id": 7, "Statement": []}` | Syntax errors in policy.
            `{"Statements": []}` | Unknown field Statements
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*", "Condtion": {}}]}` | Unknown field Condtion
            `{"Statement": [{"Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Missing required field Effect
            `{"Statement": [{"Effect": "Alow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid effect: Alow
            `{"Statement": [{"Effect": "allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid effect: allow
            `{"Statement": [{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Missing required field Principal
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "NotPrincipal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Syntax errors in policy.
            `{"Statement": [{"Effect": "Allow", "Principal": "AKIDEXAMPLE", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid principal in policy
            `{"Statement": [{"Effect": "Allow", "Principal": {}, "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid principal in policy
            `{"Statement": [{"Effect": "Allow", "Principal": {"AWS": []}, "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid principal in policy
            `{"Statement": [{"Effect": "Allow", "Principal": {"AWS": "AKID*"}, "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid principal in policy
            `{"Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::1:role/r"}, "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid principal in policy
            `{"Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:s3:::b"}, "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid principal in policy
            `{"Statement": [{"Effect": "Allow", "Principal": {"User": "x"}, "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid principal in policy
            `{"Statement": [{"Effect": "Allow", "Principal": {"AWS": 12}, "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Invalid principal in policy
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Resource": "arn:aws:s3:::b/*"}]}` | Missing required field Action
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": [], "Resource": "arn:aws:s3:::b/*"}]}` | Missing required field Action
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "NotAction": "s3:PutObject", "Resource": "arn:aws:s3:::b/*"}]}` | Syntax errors in policy.
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObjekt", "Resource": "arn:aws:s3:::b/*"}]}` | Policy has invalid action
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "ec2:RunInstances", "Resource": "arn:aws:s3:::b/*"}]}` | Policy has invalid action
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:Frob*", "Resource": "arn:aws:s3:::b/*"}]}` | Policy has invalid action
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": 3, "Resource": "arn:aws:s3:::b/*"}]}` | Syntax errors in policy.
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject"}]}` | Missing required field Resource
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "NotResource": []}]}` | Missing required field Resource
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::other/*"}]}` | Policy has invalid resource
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b*"}]}` | Policy has invalid resource
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::*"}]}` | Policy has invalid resource
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "b/*"}]}` | Policy has invalid resource
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b"}]}` | Action does not apply to any resource(s) in statement
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::b/*"}]}` | Action does not apply to any resource(s) in statement
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": ["s3:ListBucket", "s3:GetObject"], "Resource": "arn:aws:s3:::b/*"}]}` | Action does not apply to any resource(s) in statement
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:ListAllMyBuckets", "Resource": "*"}]}` | Action does not apply to any resource(s) in statement
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*", "Condition": {"StringEqualz": {"aws:Referer": "x"}}}]}` | Invalid Condition type : StringEqualz
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*", "Condition": {"IpAddress": {"aws:SourceIp": "300.0.0.0/8"}}}]}` | Invalid IP address in Conditions
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*", "Condition": {"StringEquals": {"iam:PassedToService": "x"}}}]}` | Policy has an invalid condition key
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*", "Condition": {"StringEquals": "x"}}]}` | Syntax errors in policy.
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*", "Condition": {"StringEquals": {"aws:Referer": {"a": "b"}}}}]}` | Syntax errors in policy.
            `{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*", "Condition": []}]}` | Syntax errors in policy.
            `{"Statement": [{"Sid": "A", "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}, {"Sid": "A", "Effect": "Deny", "Principal": "*", "Action": "s3:PutObject", "Resource": "arn:aws:s3:::b/*"}]}` | Statement IDs (SID) in a single policy must be unique.
            `{"Statement": [{"Sid": 1, "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}` | Syntax errors in policy.
            """)
    void refusesMalformedPolicies(String json, String message) {
        assertMalformedPolicy(json, "b", message);
    }

    @Test
    void refusesAnEmptyDocument() {
        assertMalformedPolicy("", "b", "Policies must be valid JSON and the first byte must be '{'");
    }

    @Test
    void refusesADocumentOverTwentyKilobytes() {
        String statement = """
                {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/%s"}""";
        StringBuilder json = new StringBuilder("{\"Statement\": [");
        for (int i = 0; json.length() < BucketPolicy.MAXIMUM_BYTES; i++) {
            json.append(i == 0 ? "" : ",").append(statement.formatted("prefix-" + i + "/*"));
        }
        json.append("]}");
        assertMalformedPolicy(json.toString(), "b", "Policy exceeds the maximum allowed document size.");
    }

    @Test
    void theBucketMustBeTheOneThePolicyIsPutOn() {
        assertMalformedPolicy(PUBLIC_READ, "another-bucket", "Policy has invalid resource");
    }

    @Test
    void notActionAndNotResourceSkipTheApplicabilityCheck() {
        BucketPolicy.parse("""
                {"Statement": [{"Effect": "Deny", "Principal": "*", "NotAction": "s3:GetObject",
                 "Resource": "arn:aws:s3:::b"}]}""", "b");
        BucketPolicy.parse("""
                {"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:GetObject",
                 "NotResource": "arn:aws:s3:::b"}]}""", "b");
    }
}
