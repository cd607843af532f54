package dev.hangar.s3api.access;

import static dev.hangar.s3api.access.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every condition operator, with and without the IfExists suffix and the set qualifiers. In the
 * tables, values are separated by {@code ;} and {@code <absent>} is a request without the key.
 */
class ConditionTest {

    private static boolean holds(
            String operator, String key, String policyValues, @Nullable String requestValues) {
        Condition condition = Condition.parse(operator, key, List.of(policyValues.split(";", -1)), true);
        Map<String, List<String>> context = requestValues == null
                ? Map.of()
                : Map.of(key, Arrays.asList(requestValues.split(";", -1)));
        return condition.holds(new AccessRequest("alice", "s3:GetObject", "arn:aws:s3:::b/k", context));
    }

    @ParameterizedTest(name = "{0} {1} {2} vs {3} -> {4}")
    @CsvSource(delimiter = '|', nullValues = "<absent>", textBlock = """
            StringEquals              | aws:Referer | https://a.example | https://a.example | true
            StringEquals              | aws:Referer | https://a.example | https://A.example | false
            StringEquals              | aws:Referer | x;y;z             | y                 | true
            StringEquals              | aws:Referer | a*                | abc               | false
            StringEquals              | aws:Referer | a*                | a*                | true
            StringEquals              | aws:Referer | x                 | <absent>          | false
            StringNotEquals           | aws:Referer | x                 | y                 | true
            StringNotEquals           | aws:Referer | x;y               | y                 | false
            StringNotEquals           | aws:Referer | x                 | <absent>          | true
            StringEqualsIgnoreCase    | aws:Referer | ABC               | abc               | true
            StringEqualsIgnoreCase    | aws:Referer | ABC               | abd               | false
            StringEqualsIgnoreCase    | aws:Referer | ABC               | <absent>          | false
            StringNotEqualsIgnoreCase | aws:Referer | ABC               | abc               | false
            StringNotEqualsIgnoreCase | aws:Referer | ABC               | xyz               | true
            StringNotEqualsIgnoreCase | aws:Referer | ABC               | <absent>          | true
            StringLike                | aws:Referer | https://a.example/* | https://a.example/page | true
            StringLike                | aws:Referer | https://a.example/* | https://b.example/page | false
            StringLike                | aws:Referer | a?c               | abc               | true
            StringLike                | aws:Referer | a?c               | ac                | false
            StringLike                | aws:Referer | x*;*y             | zzy               | true
            StringLike                | aws:Referer | a*                | <absent>          | false
            StringNotLike             | aws:Referer | home/*            | work/x            | true
            StringNotLike             | aws:Referer | home/*            | home/x            | false
            StringNotLike             | aws:Referer | home/*            | <absent>          | true
            NumericEquals             | s3:max-keys | 10                | 10                | true
            NumericEquals             | s3:max-keys | 10                | 10.0              | true
            NumericEquals             | s3:max-keys | 10                | 11                | false
            NumericEquals             | s3:max-keys | 10                | ten               | false
            NumericEquals             | s3:max-keys | 10                | <absent>          | false
            NumericNotEquals          | s3:max-keys | 10                | 11                | true
            NumericNotEquals          | s3:max-keys | 10                | 10                | false
            NumericNotEquals          | s3:max-keys | 10                | <absent>          | true
            NumericLessThan           | s3:max-keys | 10                | 9                 | true
            NumericLessThan           | s3:max-keys | 10                | 10                | false
            NumericLessThan           | s3:max-keys | 10                | -5                | true
            NumericLessThanEquals     | s3:max-keys | 10                | 10                | true
            NumericLessThanEquals     | s3:max-keys | 10                | 11                | false
            NumericGreaterThan        | s3:max-keys | 10                | 11                | true
            NumericGreaterThan        | s3:max-keys | 10                | 10                | false
            NumericGreaterThan        | s3:max-keys | 1.5               | 1.51              | true
            NumericGreaterThanEquals  | s3:max-keys | 10                | 10                | true
            NumericGreaterThanEquals  | s3:max-keys | 10                | 9                 | false
            DateEquals                | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T00:00:00Z | true
            DateEquals                | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T02:00:00+02:00 | true
            DateEquals                | aws:CurrentTime | 2024-06-01T00:00:00Z | 1717200000 | true
            DateEquals                | aws:CurrentTime | 2024-06-01           | 2024-06-01T00:00:00Z | true
            DateEquals                | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T00:00:01Z | false
            DateEquals                | aws:CurrentTime | 2024-06-01T00:00:00Z | yesterday | false
            DateNotEquals             | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T00:00:01Z | true
            DateNotEquals             | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T00:00:00Z | false
            DateLessThan              | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-05-31T23:59:59Z | true
            DateLessThan              | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T00:00:00Z | false
            DateLessThan              | aws:CurrentTime | 2024-06-01T00:00:00Z | <absent> | false
            DateLessThanEquals        | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T00:00:00Z | true
            DateLessThanEquals        | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T00:00:00.001Z | false
            DateGreaterThan           | aws:CurrentTime | 2024-06-01           | 2024-06-01T00:00:01Z | true
            DateGreaterThan           | aws:CurrentTime | 2024-06-01           | 2024-06-01T00:00:00Z | false
            DateGreaterThan           | aws:EpochTime   | 1717200000           | 1717200001 | true
            DateGreaterThanEquals     | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-06-01T00:00:00Z | true
            DateGreaterThanEquals     | aws:CurrentTime | 2024-06-01T00:00:00Z | 2024-05-01T00:00:00Z | false
            Bool                      | aws:SecureTransport | false         | false             | true
            Bool                      | aws:SecureTransport | false         | true              | false
            Bool                      | aws:SecureTransport | true          | TRUE              | true
            Bool                      | aws:SecureTransport | false         | <absent>          | false
            BinaryEquals              | aws:Token   | aGVsbG8=          | aGVsbG8=          | true
            BinaryEquals              | aws:Token   | aGVsbG8=          | d29ybGQ=          | false
            BinaryEquals              | aws:Token   | aGVsbG8=          | not base64!       | false
            IpAddress                 | aws:SourceIp | 192.0.2.0/24     | 192.0.2.77        | true
            IpAddress                 | aws:SourceIp | 192.0.2.0/24     | 192.0.3.1         | false
            IpAddress                 | aws:SourceIp | 192.0.2.0/24;2001:db8::/32 | 2001:db8:1::5 | true
            IpAddress                 | aws:SourceIp | 192.0.2.0/24;2001:db8::/32 | 2001:db9::5   | false
            IpAddress                 | aws:SourceIp | 192.0.2.0/24     | <absent>          | false
            NotIpAddress              | aws:SourceIp | 192.0.2.0/24     | 198.51.100.1      | true
            NotIpAddress              | aws:SourceIp | 192.0.2.0/24     | 192.0.2.1         | false
            NotIpAddress              | aws:SourceIp | 2001:db8::/32    | 2001:db8::1       | false
            NotIpAddress              | aws:SourceIp | 192.0.2.0/24     | <absent>          | true
            ArnEquals                 | aws:SourceArn | arn:aws:s3:::b  | arn:aws:s3:::b    | true
            ArnEquals                 | aws:SourceArn | arn:aws:s3:::b  | arn:aws:s3:::c    | false
            ArnLike                   | aws:SourceArn | arn:aws:iam::*:user/x | arn:aws:iam::123:user/x | true
            ArnLike                   | aws:SourceArn | arn:aws:iam::*:user/x | arn:aws:iam::1:2:user/x | false
            ArnLike                   | aws:SourceArn | arn:aws:s3:::b/* | arn:aws:s3:::b/k/l | true
            ArnLike                   | aws:SourceArn | arn:aws:s3:::b/* | arn:aws:s3:::c/k   | false
            ArnLike                   | aws:SourceArn | arn:*           | arn:aws:s3:::c/k   | true
            ArnNotEquals              | aws:SourceArn | arn:aws:s3:::b  | arn:aws:s3:::c    | true
            ArnNotLike                | aws:SourceArn | arn:aws:s3:::b/* | arn:aws:s3:::b/k | false
            ArnNotLike                | aws:SourceArn | arn:aws:s3:::b/* | <absent>         | true
            Null                      | aws:Referer | true              | <absent>          | true
            Null                      | aws:Referer | true              | x                 | false
            Null                      | aws:Referer | false             | x                 | true
            Null                      | aws:Referer | false             | <absent>          | false
            Null                      | aws:Referer | true;false        | x                 | true
            """)
    void operatorsCompareAsAwsDoes(String operator, String key, String policy, @Nullable String request,
            boolean expected) {
        assertThat(holds(operator, key, policy, request)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} {1} {2} vs {3} -> {4}")
    @CsvSource(delimiter = '|', nullValues = "<absent>", textBlock = """
            StringEqualsIfExists          | aws:Referer  | x            | <absent>     | true
            StringEqualsIfExists          | aws:Referer  | x            | x            | true
            StringEqualsIfExists          | aws:Referer  | x            | y            | false
            StringLikeIfExists            | aws:Referer  | x*           | y            | false
            StringNotEqualsIfExists       | aws:Referer  | x            | x            | false
            NumericLessThanIfExists       | s3:max-keys  | 100          | <absent>     | true
            NumericLessThanIfExists       | s3:max-keys  | 100          | 1000         | false
            DateLessThanIfExists          | aws:CurrentTime | 2030-01-01T00:00:00Z | <absent> | true
            BoolIfExists                  | aws:SecureTransport | true  | <absent>     | true
            BoolIfExists                  | aws:SecureTransport | true  | false        | false
            IpAddressIfExists             | aws:SourceIp | 10.0.0.0/8   | <absent>     | true
            IpAddressIfExists             | aws:SourceIp | 10.0.0.0/8   | 11.0.0.1     | false
            NotIpAddressIfExists          | aws:SourceIp | 10.0.0.0/8   | 10.0.0.1     | false
            ArnLikeIfExists               | aws:SourceArn | arn:aws:s3:::b | <absent>  | true
            ForAnyValue:StringEquals      | s3:RequestObjectTagKeys | b;c | a;b       | true
            ForAnyValue:StringEquals      | s3:RequestObjectTagKeys | b;c | a;x       | false
            ForAnyValue:StringEquals      | s3:RequestObjectTagKeys | b;c | <absent>  | false
            ForAnyValue:StringLike        | s3:RequestObjectTagKeys | pro* | a;project | true
            ForAnyValue:StringNotEquals   | s3:RequestObjectTagKeys | a   | a;z       | true
            ForAnyValue:StringNotEquals   | s3:RequestObjectTagKeys | a   | a         | false
            ForAnyValue:StringNotEquals   | s3:RequestObjectTagKeys | a   | <absent>  | false
            ForAllValues:StringEquals     | s3:RequestObjectTagKeys | a;b;c | a;b     | true
            ForAllValues:StringEquals     | s3:RequestObjectTagKeys | a;b;c | a;z     | false
            ForAllValues:StringEquals     | s3:RequestObjectTagKeys | a;b;c | <absent> | true
            ForAllValues:StringLike       | s3:RequestObjectTagKeys | x-*   | x-a;x-b  | true
            ForAllValues:StringLike       | s3:RequestObjectTagKeys | x-*   | x-a;y-b  | false
            ForAllValues:StringNotEquals  | s3:RequestObjectTagKeys | a     | x;y      | true
            ForAllValues:StringNotEquals  | s3:RequestObjectTagKeys | a     | x;a      | false
            ForAllValues:NumericLessThan  | s3:RequestObjectTagKeys | 10    | 1;2;3    | true
            ForAllValues:NumericLessThan  | s3:RequestObjectTagKeys | 10    | 1;20     | false
            ForAnyValue:IpAddress         | aws:SourceIp | 10.0.0.0/8     | 192.0.2.1;10.1.1.1 | true
            ForAnyValue:StringEqualsIfExists | s3:RequestObjectTagKeys | a | <absent>  | true
            ForAllValues:StringEqualsIfExists | s3:RequestObjectTagKeys | a | b       | false
            """)
    void ifExistsAndSetQualifiers(String operator, String key, String policy, @Nullable String request,
            boolean expected) {
        assertThat(holds(operator, key, policy, request)).isEqualTo(expected);
    }

    @Test
    void aSingleValuedOperatorOnSeveralRequestValuesNeedsOneToMatch() {
        assertThat(holds("StringEquals", "aws:Referer", "b", "a;b")).isTrue();
        assertThat(holds("StringNotEquals", "aws:Referer", "b", "a;b")).isFalse();
    }

    @Test
    void conditionKeysAreLookedUpWithoutRegardToCase() {
        assertThat(holds("IpAddress", "AWS:SOURCEIP", "192.0.2.0/24", "192.0.2.1")).isTrue();
        Condition condition = Condition.parse("IpAddress", "AWS:SOURCEIP", List.of("192.0.2.0/24"), true);
        AccessRequest request = new AccessRequest(null, "s3:GetObject", "arn:aws:s3:::b/k",
                Map.of("aws:sourceip", List.of("192.0.2.9")));
        assertThat(condition.holds(request)).isTrue();
    }

    @Test
    void operatorNamesAreReadWithoutRegardToCase() {
        assertThat(holds("stringequals", "aws:Referer", "x", "x")).isTrue();
        assertThat(holds("forallvalues:stringequalsifexists", "aws:Referer", "x", null)).isTrue();
    }

    @Test
    void policyVariablesAreExpandedInStringValues() {
        Condition condition = Condition.parse("StringLike", "s3:prefix", List.of("home/${aws:username}/*"), true);
        AccessRequest alice = new AccessRequest("alice", "s3:ListBucket", "arn:aws:s3:::b",
                Map.of("s3:prefix", List.of("home/alice/docs")));
        AccessRequest bob = new AccessRequest("bob", "s3:ListBucket", "arn:aws:s3:::b",
                Map.of("s3:prefix", List.of("home/alice/docs")));
        assertThat(condition.holds(alice)).isTrue();
        assertThat(condition.holds(bob)).isFalse();
    }

    @Test
    void policyVariablesAreLiteralInThe2008Language() {
        Condition condition = Condition.parse("StringEquals", "s3:prefix", List.of("${aws:username}"), false);
        assertThat(condition.holds(new AccessRequest("alice", "s3:ListBucket", "arn:aws:s3:::b",
                Map.of("s3:prefix", List.of("alice"))))).isFalse();
        assertThat(condition.holds(new AccessRequest("alice", "s3:ListBucket", "arn:aws:s3:::b",
                Map.of("s3:prefix", List.of("${aws:username}"))))).isTrue();
    }

    @Test
    void awsUsernameAndUseridAreThePrincipalUnlessTheContextSaysOtherwise() {
        Condition condition = Condition.parse("StringEquals", "aws:userid", List.of("AKIDALICE"), true);
        assertThat(condition.holds(new AccessRequest("AKIDALICE", "s3:GetObject", "arn:aws:s3:::b/k"))).isTrue();
        assertThat(condition.holds(new AccessRequest("AKIDBOB", "s3:GetObject", "arn:aws:s3:::b/k"))).isFalse();
        assertThat(condition.holds(new AccessRequest(null, "s3:GetObject", "arn:aws:s3:::b/k"))).isFalse();
        assertThat(condition.holds(new AccessRequest("AKIDBOB", "s3:GetObject", "arn:aws:s3:::b/k",
                Map.of("aws:userid", List.of("AKIDALICE"))))).isTrue();
    }

    @Test
    void anEmptyValueListIsAnAbsentKey() {
        Condition condition = Condition.parse("Null", "aws:Referer", List.of("true"), true);
        assertThat(condition.holds(new AccessRequest(null, "s3:GetObject", "arn:aws:s3:::b/k",
                Map.of("aws:Referer", List.of())))).isTrue();
    }

    @ParameterizedTest(name = "{0} {1} {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            StringEqualz            | aws:Referer     | x          | Invalid Condition type : StringEqualz
            NullIfExists            | aws:Referer     | true       | Invalid Condition type : NullIfExists
            IfExists                | aws:Referer     | x          | Invalid Condition type : IfExists
            ForSomeValues:StringEquals | aws:Referer  | x          | Invalid Condition type : ForSomeValues:StringEquals
            StringEquals            | ec2:InstanceType | x         | Policy has an invalid condition key
            StringEquals            | Referer         | x          | Policy has an invalid condition key
            StringEquals            | aws:            | x          | Policy has an invalid condition key
            IpAddress               | aws:SourceIp    | 192.0.2.0/33 | Invalid IP address in Conditions
            NotIpAddress            | aws:SourceIp    | example.com | Invalid IP address in Conditions
            NumericLessThan         | s3:max-keys     | ten        | Invalid value in Conditions for operator NumericLessThan: ten
            DateGreaterThan         | aws:CurrentTime | tomorrow   | Invalid value in Conditions for operator DateGreaterThan: tomorrow
            Bool                    | aws:SecureTransport | yes    | Invalid value in Conditions for operator Bool: yes
            Null                    | aws:Referer     | maybe      | Invalid value in Conditions for operator Null: maybe
            BinaryEquals            | aws:Token       | !!!        | Invalid value in Conditions for operator BinaryEquals: !!!
            """)
    void refusesWhatAwsRefuses(String operator, String key, String value, String message) {
        assertThat(assertS3Error(() -> Condition.parse(operator, key, List.of(value), true), S3Error.MALFORMED_POLICY)
                .getMessage()).isEqualTo(message);
    }

    @Test
    void refusesAKeyWithoutValues() {
        assertS3Error(() -> Condition.parse("StringEquals", "aws:Referer", List.of(), true), S3Error.MALFORMED_POLICY);
    }

    @Test
    void readsEveryTimeSpelling() {
        assertThat(Condition.time("2024-06-01T00:00:00Z")).hasToString("2024-06-01T00:00:00Z");
        assertThat(Condition.time("2024-06-01T00:00Z")).hasToString("2024-06-01T00:00:00Z");
        assertThat(Condition.time("2024-06-01T02:00:00+02:00")).hasToString("2024-06-01T00:00:00Z");
        assertThat(Condition.time("2024-06-01T00:00:00.5Z")).hasToString("2024-06-01T00:00:00.500Z");
        assertThat(Condition.time("2024-06-01T00:00:00")).hasToString("2024-06-01T00:00:00Z");
        assertThat(Condition.time("2024-06-01")).hasToString("2024-06-01T00:00:00Z");
        assertThat(Condition.time("1717200000")).hasToString("2024-06-01T00:00:00Z");
        assertThat(Condition.time("June 1st")).isNull();
        assertThat(Condition.time("")).isNull();
    }
}
