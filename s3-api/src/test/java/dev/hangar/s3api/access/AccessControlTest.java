package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The combined decision: policy Deny, root, policy Allow, key permission, ACLs, in that order. */
class AccessControlTest {
    private static final String BUCKET = "b";
    private static final BucketPolicy POLICY = BucketPolicy.parse("""
            {
              "Version": "2012-10-17",
              "Statement": [
                {"Sid": "ProtectArchive", "Effect": "Deny", "Principal": "*",
                 "Action": ["s3:DeleteObject", "s3:PutObject"], "Resource": "arn:aws:s3:::b/archive/*"},
                {"Sid": "GuestReadsShared", "Effect": "Allow", "Principal": {"AWS": "AKIDGUEST"},
                 "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/shared/*"},
                {"Sid": "GuestLists", "Effect": "Allow", "Principal": {"AWS": "AKIDGUEST"},
                 "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::b"},
                {"Sid": "NobodyReadsThePolicy", "Effect": "Deny", "NotPrincipal": {"AWS": "AKIDOWNER"},
                 "Action": "s3:GetBucketPolicy", "Resource": "arn:aws:s3:::b"}
              ]
            }""", BUCKET);

    private static Decision decide(@Nullable String principal, boolean root, KeyPermission permission,
            @Nullable BucketPolicy policy, CannedAcl bucketAcl, @Nullable CannedAcl objectAcl, String operation,
            @Nullable String key) {
        return AccessControl.decide(principal, root, permission, policy, bucketAcl, objectAcl, operation, BUCKET, key,
                Map.of());
    }

    @ParameterizedTest(name = "[{index}] {0} root={1} {2} policy={3} acl={4}/{5} {6} {7} -> {8}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # principal | root  | permission | policy | bucket ACL | object ACL | operation | key | allowed | reason
            AKIDROOT    | true  | NONE       | yes    | PRIVATE    | PRIVATE    | DeleteObject    | archive/x | true  | never denies the root key
            AKIDROOT    | true  | NONE       | yes    | PRIVATE    | PRIVATE    | GetBucketPolicy | -         | true  | never denies the root key
            AKIDROOT    | true  | NONE       | no     | PRIVATE    | PRIVATE    | GetObject       | docs/x    | true  | the root key
            AKIDROOT    | true  | NONE       | no     | PRIVATE    | -          | DeleteBucket    | -         | true  | the root key
            AKIDWRITER  | false | READ_WRITE | yes    | PRIVATE    | PRIVATE    | DeleteObject    | archive/x | false | explicitly denies s3:DeleteObject
            AKIDWRITER  | false | READ_WRITE | yes    | PRIVATE    | -          | PutObject       | archive/x | false | explicitly denies s3:PutObject
            AKIDWRITER  | false | READ_WRITE | yes    | PRIVATE    | -          | CompleteMultipartUpload | archive/x | false | explicitly denies
            AKIDWRITER  | false | READ_WRITE | yes    | PRIVATE    | PRIVATE    | DeleteObject    | docs/x    | true  | write permission
            AKIDWRITER  | false | READ_WRITE | yes    | PRIVATE    | -          | UploadPart      | docs/x    | true  | write permission
            AKIDWRITER  | false | READ_WRITE | yes    | PRIVATE    | PRIVATE    | GetObject       | archive/x | true  | read permission
            AKIDWRITER  | false | READ_WRITE | yes    | PRIVATE    | -          | PutBucketPolicy | -         | false | nor an ACL allows
            AKIDGUEST   | false | NONE       | yes    | PRIVATE    | PRIVATE    | GetObject       | shared/x  | true  | the bucket policy allows s3:GetObject
            AKIDGUEST   | false | NONE       | yes    | PRIVATE    | PRIVATE    | HeadObject      | shared/x  | true  | the bucket policy allows
            AKIDGUEST   | false | NONE       | yes    | PRIVATE    | -          | ListObjectsV2   | -         | true  | the bucket policy allows s3:ListBucket
            AKIDGUEST   | false | NONE       | yes    | PRIVATE    | PRIVATE    | GetObject       | docs/x    | false | nor an ACL allows s3:GetObject
            AKIDGUEST   | false | NONE       | yes    | PRIVATE    | -          | PutObject       | shared/x  | false | nor an ACL allows
            AKIDREADER  | false | READ_ONLY  | no     | PRIVATE    | PRIVATE    | GetObject       | docs/x    | true  | read permission
            AKIDREADER  | false | READ_ONLY  | no     | PRIVATE    | -          | ListObjects     | -         | true  | read permission
            AKIDREADER  | false | READ_ONLY  | no     | PRIVATE    | -          | HeadBucket      | -         | true  | read permission
            AKIDREADER  | false | READ_ONLY  | no     | PRIVATE    | -          | PutObject       | docs/x    | false | nor an ACL allows s3:PutObject
            AKIDREADER  | false | READ_ONLY  | no     | PRIVATE    | PRIVATE    | DeleteObject    | docs/x    | false | nor an ACL allows
            AKIDREADER  | false | READ_ONLY  | no     | PRIVATE    | -          | PutBucketCors   | -         | false | nor an ACL allows
            AKIDREADER  | false | READ_ONLY  | yes    | PRIVATE    | -          | GetBucketPolicy | -         | false | explicitly denies
            AKIDOWNER   | false | NONE       | yes    | PRIVATE    | -          | PutBucketPolicy | -         | false | nor an ACL allows
            AKIDOWNER   | false | ALL        | yes    | PRIVATE    | -          | PutBucketPolicy | -         | true  | owner permission
            AKIDOWNER   | false | ALL        | yes    | PRIVATE    | -          | GetBucketPolicy | -         | true  | owner permission
            AKIDOWNER   | false | ALL        | yes    | PRIVATE    | -          | DeleteBucket    | -         | true  | owner permission
            AKIDOWNER   | false | ALL        | yes    | PRIVATE    | PRIVATE    | DeleteObject    | archive/x | false | explicitly denies
            OWNERONLY   | false | OWNER      | no     | PRIVATE    | -          | PutBucketVersioning | -     | true  | owner permission
            OWNERONLY   | false | OWNER      | no     | PRIVATE    | PRIVATE    | GetObject       | docs/x    | false | nor an ACL allows
            -           | false | NONE       | no     | PRIVATE    | PRIVATE    | GetObject       | docs/x    | false | to anonymous requests
            -           | false | ALL        | no     | PRIVATE    | PRIVATE    | GetObject       | docs/x    | false | to anonymous requests
            -           | false | NONE       | no     | PUBLIC_READ | -         | ListObjects     | -         | true  | bucket ACL public-read grants AllUsers READ
            -           | false | NONE       | no     | PUBLIC_READ | PRIVATE   | GetObject       | docs/x    | false | to anonymous requests
            -           | false | NONE       | no     | PRIVATE    | PUBLIC_READ | GetObject     | docs/x    | true  | object ACL public-read grants AllUsers READ
            -           | false | NONE       | yes    | PRIVATE    | PUBLIC_READ | GetObject     | archive/x | true  | object ACL public-read
            -           | false | NONE       | yes    | PUBLIC_READ_WRITE | -   | PutObject       | docs/x    | true  | bucket ACL public-read-write grants AllUsers WRITE
            -           | false | NONE       | yes    | PUBLIC_READ_WRITE | PRIVATE | DeleteObject  | archive/x | false | explicitly denies s3:DeleteObject
            -           | false | NONE       | yes    | PUBLIC_READ_WRITE | -   | PutBucketAcl    | -         | false | to anonymous requests
            -           | false | NONE       | no     | AUTHENTICATED_READ | -  | ListObjects     | -         | false | to anonymous requests
            AKIDANY     | false | NONE       | no     | AUTHENTICATED_READ | -  | ListObjects     | -         | true  | AuthenticatedUsers READ
            AKIDANY     | false | NONE       | no     | PRIVATE    | AUTHENTICATED_READ | GetObject | docs/x  | true  | object ACL authenticated-read
            AKIDANY     | false | NONE       | no     | PRIVATE    | PRIVATE    | GetObject       | docs/x    | false | nor an ACL allows
            """)
    void decisionMatrix(@Nullable String principal, boolean root, String permission, String policy,
            CannedAcl bucketAcl, @Nullable CannedAcl objectAcl, String operation, @Nullable String key,
            boolean allowed, String reason) {
        KeyPermission keyPermission = switch (permission) {
            case "NONE" -> KeyPermission.NONE;
            case "READ_ONLY" -> KeyPermission.READ_ONLY;
            case "READ_WRITE" -> KeyPermission.READ_WRITE;
            case "ALL" -> KeyPermission.ALL;
            case "OWNER" -> new KeyPermission(false, false, true);
            default -> throw new IllegalArgumentException(permission);
        };
        Decision decision = decide(principal, root, keyPermission, policy.equals("yes") ? POLICY : null, bucketAcl,
                objectAcl, operation, key);
        assertThat(decision.allowed()).as(decision.reason()).isEqualTo(allowed);
        assertThat(decision.reason()).contains(reason);
    }

    @Test
    void aDenyOnAConditionDeniesEveryoneButTheRootKey() {
        BucketPolicy tlsOnly = BucketPolicy.parse("""
                {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*",
                 "Resource": ["arn:aws:s3:::b", "arn:aws:s3:::b/*"],
                 "Condition": {"Bool": {"aws:SecureTransport": "false"}}}]}""", BUCKET);
        Map<String, List<String>> plain = Map.of("aws:SecureTransport", List.of("false"));
        Map<String, List<String>> tls = Map.of("aws:SecureTransport", List.of("true"));
        assertThat(AccessControl.decide("AKIDWRITER", false, KeyPermission.ALL, tlsOnly, CannedAcl.PRIVATE, null,
                "PutObject", BUCKET, "k", plain).allowed()).isFalse();
        assertThat(AccessControl.decide("AKIDWRITER", false, KeyPermission.ALL, tlsOnly, CannedAcl.PRIVATE, null,
                "PutObject", BUCKET, "k", tls).allowed()).isTrue();
        assertThat(AccessControl.decide("AKIDROOT", true, KeyPermission.NONE, tlsOnly, CannedAcl.PRIVATE, null,
                "DeleteBucketPolicy", BUCKET, null, plain).allowed()).isTrue();
        assertThat(AccessControl.decide(null, false, KeyPermission.NONE, tlsOnly, CannedAcl.PUBLIC_READ, null,
                "ListObjects", BUCKET, null, plain).allowed()).isFalse();
    }

    @Test
    void aVersionIsReadWithTheVersionAction() {
        BucketPolicy currentOnly = BucketPolicy.parse("""
                {"Statement": {"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
                 "Resource": "arn:aws:s3:::b/*"}}""", BUCKET);
        ActionAndResource current = ActionAndResource.of("GetObject", BUCKET, "k");
        ActionAndResource version = ActionAndResource.of("GetObject", BUCKET, "k", "v1");
        assertThat(AccessControl.decide(null, false, KeyPermission.NONE, currentOnly, CannedAcl.PRIVATE,
                CannedAcl.PRIVATE, current, Map.of()).allowed()).isTrue();
        assertThat(AccessControl.decide(null, false, KeyPermission.NONE, currentOnly, CannedAcl.PRIVATE,
                CannedAcl.PRIVATE, version, Map.of()).allowed()).isFalse();
        assertThat(AccessControl.decide("AKIDREADER", false, KeyPermission.READ_ONLY, currentOnly, CannedAcl.PRIVATE,
                CannedAcl.PRIVATE, version, Map.of()).allowed()).isTrue();
        assertThat(AccessControl.decide(null, false, KeyPermission.NONE, null, CannedAcl.PRIVATE,
                CannedAcl.PUBLIC_READ, version, Map.of()).allowed()).isTrue();
    }

    @Test
    void aCopyNeedsWriteOnTheTargetAndReadOnTheSource() {
        KeyPermission onTarget = KeyPermission.READ_WRITE;
        KeyPermission onSource = KeyPermission.NONE;
        Decision target = AccessControl.decide("AKIDCOPIER", false, onTarget, null, CannedAcl.PRIVATE, null,
                "CopyObject", "target", "copy", Map.of());
        Decision source = AccessControl.decide("AKIDCOPIER", false, onSource, null, CannedAcl.PRIVATE,
                CannedAcl.PRIVATE, "GetObject", "source", "original", Map.of());
        assertThat(target.allowed()).isTrue();
        assertThat(source.allowed()).isFalse();
        Decision publicSource = AccessControl.decide("AKIDCOPIER", false, onSource, null, CannedAcl.PRIVATE,
                CannedAcl.PUBLIC_READ, "GetObject", "source", "original", Map.of());
        assertThat(publicSource.allowed()).isTrue();
    }

    @Test
    void deleteObjectsIsDecidedPerKey() {
        for (String key : List.of("docs/a", "archive/b")) {
            Decision decision = AccessControl.decide("AKIDWRITER", false, KeyPermission.READ_WRITE, POLICY,
                    CannedAcl.PRIVATE, CannedAcl.PRIVATE, "DeleteObjects", BUCKET, key, Map.of());
            assertThat(decision.allowed()).as(key).isEqualTo(key.startsWith("docs/"));
        }
    }

    @Test
    void listingAndCreatingBucketsTakeASignedKey() {
        assertThat(AccessControl.decide(null, false, KeyPermission.NONE, null, CannedAcl.PUBLIC_READ_WRITE, null,
                "ListBuckets", null, null, Map.of()).allowed()).isFalse();
        assertThat(AccessControl.decide("AKIDANY", false, KeyPermission.NONE, null, CannedAcl.PRIVATE, null,
                "ListBuckets", null, null, Map.of()).allowed()).isTrue();
        assertThat(AccessControl.decide("AKIDROOT", true, KeyPermission.NONE, null, CannedAcl.PRIVATE, null,
                "ListBuckets", null, null, Map.of()).allowed()).isTrue();
        assertThat(AccessControl.decide(null, false, KeyPermission.NONE, null, CannedAcl.PRIVATE, null,
                "CreateBucket", "new", null, Map.of()).allowed()).isFalse();
        assertThat(AccessControl.decide("AKIDANY", false, KeyPermission.READ_WRITE, null, CannedAcl.PRIVATE, null,
                "CreateBucket", "new", null, Map.of()).allowed()).isFalse();
        assertThat(AccessControl.decide("AKIDCREATOR", false, new KeyPermission(false, false, true), null,
                CannedAcl.PRIVATE, null, "CreateBucket", "new", null, Map.of()).allowed()).isTrue();
        assertThat(AccessControl.decide("AKIDROOT", true, KeyPermission.NONE, null, CannedAcl.PRIVATE, null,
                "CreateBucket", "new", null, Map.of()).allowed()).isTrue();
    }

    @Test
    void policyConditionsSeeTheRequestContext() {
        BucketPolicy prefixOnly = BucketPolicy.parse("""
                {"Version": "2012-10-17", "Statement": {"Effect": "Allow", "Principal": "*",
                 "Action": "s3:ListBucket", "Resource": "arn:aws:s3:::b",
                 "Condition": {"StringLike": {"s3:prefix": "public/*"}}}}""", BUCKET);
        assertThat(AccessControl.decide(null, false, KeyPermission.NONE, prefixOnly, CannedAcl.PRIVATE, null,
                "ListObjectsV2", BUCKET, null, AccessRequest.singleValued(Map.of("s3:prefix", "public/img/")))
                .allowed()).isTrue();
        assertThat(AccessControl.decide(null, false, KeyPermission.NONE, prefixOnly, CannedAcl.PRIVATE, null,
                "ListObjectsV2", BUCKET, null, AccessRequest.singleValued(Map.of("s3:prefix", "private/")))
                .allowed()).isFalse();
    }

    @Test
    void refusesInconsistentInputs() {
        assertThatThrownBy(() -> AccessControl.decide(null, true, KeyPermission.ALL, null, CannedAcl.PRIVATE, null,
                "GetObject", BUCKET, "k", Map.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AccessControl.decide("AKID", false, KeyPermission.ALL, POLICY, CannedAcl.PRIVATE,
                null, "GetObject", "other", "k", Map.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("arn:aws:s3:::other/k");
        assertThatThrownBy(() -> AccessControl.decide("AKID", false, KeyPermission.ALL, POLICY, CannedAcl.PRIVATE,
                null, "GetObject", "bb", "k", Map.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
