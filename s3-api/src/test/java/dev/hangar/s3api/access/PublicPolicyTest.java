package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which policies S3 counts as public for Block Public Access and GetBucketPolicyStatus. */
class PublicPolicyTest {
    private static final String BUCKET = "amzn-s3-demo-bucket";
    private static final String OBJECT = "arn:aws:s3:::amzn-s3-demo-bucket/doc.txt";

    private static BucketPolicy policy(String principal, String effect, String condition) {
        return BucketPolicy.parse("""
                {"Version": "2012-10-17", "Statement": [{"Effect": "%s", "Principal": %s,
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*"%s}]}"""
                .formatted(effect, principal, BUCKET, condition.isEmpty() ? "" : ", \"Condition\": " + condition), BUCKET);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"*\"", "{\"AWS\": \"*\"}", "{\"AWS\": [\"AKIDONE\", \"*\"]}"})
    void anAllowForEveryoneIsPublic(String principal) {
        assertThat(policy(principal, "Allow", "").isPublic()).isTrue();
    }

    @Test
    void anAllowForNamedKeysIsNotPublic() {
        assertThat(policy("{\"AWS\": [\"AKIDONE\", \"arn:aws:iam::123456789012:user/AKIDTWO\"]}", "Allow", "")
                .isPublic()).isFalse();
    }

    @Test
    void aDenyForEveryoneIsNotPublic() {
        assertThat(policy("\"*\"", "Deny", "").isPublic()).isFalse();
    }

    @Test
    void anAllowForEveryoneButSomeIsPublic() {
        BucketPolicy policy = BucketPolicy.parse("""
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "NotPrincipal": {"AWS": "AKIDONE"},
                  "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%s/*"}]}""".formatted(BUCKET), BUCKET);
        assertThat(policy.isPublic()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"IpAddress\": {\"aws:SourceIp\": \"192.0.2.0/24\"}}",
            "{\"IpAddress\": {\"aws:SourceIp\": [\"192.0.2.0/24\", \"2001:db8::/32\"]}}",
            "{\"StringEquals\": {\"aws:SourceVpce\": \"vpce-1a2b3c4d\"}}",
            "{\"StringEquals\": {\"aws:SourceAccount\": \"123456789012\"}}",
            "{\"ArnEquals\": {\"aws:SourceArn\": \"arn:aws:cloudfront::123456789012:distribution/E1\"}}",
            "{\"StringEquals\": {\"aws:userid\": \"AKIDONE\"}}",
            "{\"StringEquals\": {\"aws:SourceVpc\": \"vpc-111\"}, \"Bool\": {\"aws:SecureTransport\": \"true\"}}"})
    void aConditionOnTheSourceOrAFixedRequesterMakesItNotPublic(String condition) {
        assertThat(policy("\"*\"", "Allow", condition).isPublic()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"IpAddress\": {\"aws:SourceIp\": \"0.0.0.0/0\"}}",
            "{\"IpAddress\": {\"aws:SourceIp\": [\"192.0.2.0/24\", \"::/0\"]}}",
            "{\"NotIpAddress\": {\"aws:SourceIp\": \"192.0.2.0/24\"}}",
            "{\"IpAddressIfExists\": {\"aws:SourceIp\": \"192.0.2.0/24\"}}",
            "{\"StringLike\": {\"aws:SourceVpce\": \"vpce-*\"}}",
            "{\"StringEquals\": {\"aws:userid\": \"${aws:username}\"}}",
            "{\"StringNotEquals\": {\"aws:SourceAccount\": \"123456789012\"}}",
            "{\"Bool\": {\"aws:SecureTransport\": \"true\"}}",
            "{\"StringEquals\": {\"s3:prefix\": \"public/\"}}"})
    void aConditionThatLetsAnyoneMatchLeavesItPublic(String condition) {
        assertThat(policy("\"*\"", "Allow", condition).isPublic()).isTrue();
    }

    @Test
    void oneStatementForEveryoneMakesThePolicyPublic() {
        BucketPolicy policy = BucketPolicy.parse("""
                {"Version": "2012-10-17", "Statement": [
                  {"Effect": "Allow", "Principal": {"AWS": "AKIDONE"}, "Action": "s3:*", "Resource": "arn:aws:s3:::%1$s/*"},
                  {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%1$s/*"}]}"""
                .formatted(BUCKET), BUCKET);
        assertThat(policy.isPublic()).isTrue();
    }

    @Test
    void aRestrictedPolicyAllowsSignedRequestsOnlyAndStillDenies() {
        BucketPolicy restricted = BucketPolicy.parse("""
                {"Version": "2012-10-17", "Statement": [
                  {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::%1$s/*"},
                  {"Effect": "Deny", "Principal": {"AWS": "AKIDBAD"}, "Action": "s3:GetObject",
                   "Resource": "arn:aws:s3:::%1$s/*"}]}""".formatted(BUCKET), BUCKET).restrictedToSignedRequests();

        assertThat(restricted.evaluate(new AccessRequest(null, "s3:GetObject", OBJECT, Map.of())))
                .isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(restricted.evaluate(new AccessRequest("AKIDONE", "s3:GetObject", OBJECT, Map.of())))
                .isEqualTo(PolicyDecision.ALLOW);
        assertThat(restricted.evaluate(new AccessRequest("AKIDBAD", "s3:GetObject", OBJECT, Map.of())))
                .isEqualTo(PolicyDecision.EXPLICIT_DENY);
    }

    @Test
    void theBlockTurnsPublicAclsPrivateAndRestrictsOnlyPublicPolicies() {
        PublicAccessBlock block = new PublicAccessBlock(true, true, true, true);
        assertThat(List.of(CannedAcl.values()).stream().filter(CannedAcl::isPublic))
                .containsExactlyInAnyOrder(CannedAcl.PUBLIC_READ, CannedAcl.PUBLIC_READ_WRITE, CannedAcl.AUTHENTICATED_READ);
        assertThat(block.effective(objectAcl(CannedAcl.PUBLIC_READ)).canned()).isEqualTo(CannedAcl.PRIVATE);
        assertThat(block.effective(objectAcl(CannedAcl.BUCKET_OWNER_FULL_CONTROL)).canned())
                .isEqualTo(CannedAcl.BUCKET_OWNER_FULL_CONTROL);
        assertThat(PublicAccessBlock.NONE.effective(objectAcl(CannedAcl.PUBLIC_READ)).canned())
                .isEqualTo(CannedAcl.PUBLIC_READ);
        assertThat(block.refuses(objectAcl(CannedAcl.AUTHENTICATED_READ))).isTrue();
        assertThat(block.refuses(objectAcl(CannedAcl.PRIVATE))).isFalse();

        Grant friendReads = new Grant(new Grantee.CanonicalUser("AKIDFRIEND", null), Permission.READ);
        ObjectAcl granted = ObjectAcl.granted(List.of(friendReads, new Grant(Grantee.Group.ALL_USERS, Permission.READ),
                new Grant(Grantee.Group.AUTHENTICATED_USERS, Permission.READ_ACP)));
        assertThat(block.refuses(granted)).isTrue();
        assertThat(block.effective(granted).grants()).containsExactly(friendReads);
        assertThat(block.refuses(ObjectAcl.granted(List.of(friendReads)))).isFalse();
        assertThat(PublicAccessBlock.NONE.effective(granted)).isEqualTo(granted);

        BucketPolicy named = policy("{\"AWS\": \"AKIDONE\"}", "Allow", "");
        assertThat(block.effective(named)).isSameAs(named);
        assertThat(block.refuses(named)).isFalse();
        BucketPolicy open = policy("\"*\"", "Allow", "");
        assertThat(block.refuses(open)).isTrue();
        assertThat(block.effective(open).evaluate(new AccessRequest(null, "s3:GetObject", OBJECT, Map.of())))
                .isEqualTo(PolicyDecision.NO_MATCH);
        assertThat(PublicAccessBlock.NONE.effective(open)).isSameAs(open);
    }

    private static ObjectAcl objectAcl(CannedAcl acl) {
        return ObjectAcl.canned(acl, new Grantee.CanonicalUser("AKIDOWNER", null));
    }
}
