package dev.hangar.s3api.access;

import static dev.hangar.s3api.access.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class CannedAclTest {
    private static final Grantee.CanonicalUser OWNER = new Grantee.CanonicalUser("AKIDOWNER", "owner");
    private static final Grantee.CanonicalUser BUCKET_OWNER = new Grantee.CanonicalUser("AKIDBUCKET", "bucket");
    private static final Grant OWNER_FULL_CONTROL = new Grant(OWNER, Permission.FULL_CONTROL);

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            private                   | PRIVATE
            public-read               | PUBLIC_READ
            public-read-write         | PUBLIC_READ_WRITE
            authenticated-read        | AUTHENTICATED_READ
            bucket-owner-read         | BUCKET_OWNER_READ
            bucket-owner-full-control | BUCKET_OWNER_FULL_CONTROL
            log-delivery-write        | LOG_DELIVERY_WRITE
            """)
    void headerValuesNameTheCannedAcls(String header, CannedAcl acl) {
        assertThat(CannedAcl.fromHeaderValue(header)).isEqualTo(acl);
        assertThat(acl.headerValue()).isEqualTo(header);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Private", "PUBLIC-READ", "public_read", " private", "aws-exec-read", "everyone"})
    void otherHeaderValuesAreInvalidArguments(String header) {
        assertThat(assertS3Error(() -> CannedAcl.fromHeaderValue(header), S3Error.INVALID_ARGUMENT).getMessage())
                .contains("'" + header + "'").contains("public-read");
    }

    @Test
    void bucketGrantsAreThoseAwsDocuments() {
        assertThat(CannedAcl.PRIVATE.grants(OWNER)).containsExactly(OWNER_FULL_CONTROL);
        assertThat(CannedAcl.PUBLIC_READ.grants(OWNER)).containsExactly(
                OWNER_FULL_CONTROL, new Grant(Grantee.Group.ALL_USERS, Permission.READ));
        assertThat(CannedAcl.PUBLIC_READ_WRITE.grants(OWNER)).containsExactly(
                OWNER_FULL_CONTROL,
                new Grant(Grantee.Group.ALL_USERS, Permission.READ),
                new Grant(Grantee.Group.ALL_USERS, Permission.WRITE));
        assertThat(CannedAcl.AUTHENTICATED_READ.grants(OWNER)).containsExactly(
                OWNER_FULL_CONTROL, new Grant(Grantee.Group.AUTHENTICATED_USERS, Permission.READ));
        assertThat(CannedAcl.LOG_DELIVERY_WRITE.grants(OWNER)).containsExactly(
                OWNER_FULL_CONTROL,
                new Grant(Grantee.Group.LOG_DELIVERY, Permission.WRITE),
                new Grant(Grantee.Group.LOG_DELIVERY, Permission.READ_ACP));
        assertThat(CannedAcl.BUCKET_OWNER_READ.grants(OWNER)).containsExactly(OWNER_FULL_CONTROL);
        assertThat(CannedAcl.BUCKET_OWNER_FULL_CONTROL.grants(OWNER)).containsExactly(OWNER_FULL_CONTROL);
    }

    @Test
    void groupUrisAreS3s() {
        assertThat(Grantee.Group.ALL_USERS.uri()).isEqualTo("http://acs.amazonaws.com/groups/global/AllUsers");
        assertThat(Grantee.Group.AUTHENTICATED_USERS.uri())
                .isEqualTo("http://acs.amazonaws.com/groups/global/AuthenticatedUsers");
        assertThat(Grantee.Group.LOG_DELIVERY.uri()).isEqualTo("http://acs.amazonaws.com/groups/s3/LogDelivery");
    }

    @Test
    void objectGrantsAddTheBucketOwnerWhenItIsSomeoneElse() {
        assertThat(CannedAcl.BUCKET_OWNER_READ.grants(OWNER, BUCKET_OWNER)).containsExactly(
                OWNER_FULL_CONTROL, new Grant(BUCKET_OWNER, Permission.READ));
        assertThat(CannedAcl.BUCKET_OWNER_FULL_CONTROL.grants(OWNER, BUCKET_OWNER)).containsExactly(
                OWNER_FULL_CONTROL, new Grant(BUCKET_OWNER, Permission.FULL_CONTROL));
        assertThat(CannedAcl.BUCKET_OWNER_FULL_CONTROL.grants(OWNER, new Grantee.CanonicalUser("AKIDOWNER", null)))
                .containsExactly(OWNER_FULL_CONTROL);
        assertThat(CannedAcl.PUBLIC_READ.grants(OWNER, BUCKET_OWNER)).isEqualTo(CannedAcl.PUBLIC_READ.grants(OWNER));
        assertThat(CannedAcl.LOG_DELIVERY_WRITE.grants(OWNER, BUCKET_OWNER)).containsExactly(OWNER_FULL_CONTROL);
    }

    @ParameterizedTest
    @EnumSource(value = CannedAcl.class, names = {"PRIVATE", "PUBLIC_READ", "PUBLIC_READ_WRITE",
        "AUTHENTICATED_READ", "LOG_DELIVERY_WRITE"})
    void aBucketGrantListOfCannedShapeIsThatCannedAcl(CannedAcl acl) {
        List<Grant> grants = new ArrayList<>(acl.grants(OWNER));
        Collections.reverse(grants);
        assertThat(CannedAcl.matching(OWNER, grants)).contains(acl);
    }

    @ParameterizedTest
    @EnumSource(value = CannedAcl.class, names = "LOG_DELIVERY_WRITE", mode = EnumSource.Mode.EXCLUDE)
    void anObjectGrantListOfCannedShapeIsThatCannedAcl(CannedAcl acl) {
        assertThat(CannedAcl.matching(OWNER, BUCKET_OWNER, acl.grants(OWNER, BUCKET_OWNER))).contains(acl);
    }

    @Test
    void displayNamesAndRepeatedGrantsDoNotMatter() {
        List<Grant> grants = List.of(
                new Grant(new Grantee.CanonicalUser("AKIDOWNER", null), Permission.FULL_CONTROL),
                new Grant(new Grantee.CanonicalUser("AKIDOWNER", "another name"), Permission.FULL_CONTROL),
                new Grant(new Grantee.Group("http://acs.amazonaws.com/groups/global/AllUsers"), Permission.READ));
        assertThat(CannedAcl.matching(OWNER, grants)).contains(CannedAcl.PUBLIC_READ);
    }

    @Test
    void anObjectOwnedByTheBucketOwnerWithPrivateGrantsIsPrivate() {
        assertThat(CannedAcl.matching(OWNER, OWNER, List.of(OWNER_FULL_CONTROL))).contains(CannedAcl.PRIVATE);
    }

    @Test
    void otherGrantListsAreNoCannedAcl() {
        List<List<Grant>> others = List.of(
                List.of(),
                List.of(new Grant(OWNER, Permission.READ)),
                List.of(OWNER_FULL_CONTROL, new Grant(new Grantee.CanonicalUser("AKIDFRIEND", null), Permission.READ)),
                List.of(OWNER_FULL_CONTROL, new Grant(Grantee.Group.ALL_USERS, Permission.WRITE)),
                List.of(OWNER_FULL_CONTROL, new Grant(Grantee.Group.ALL_USERS, Permission.READ_ACP)),
                List.of(OWNER_FULL_CONTROL, new Grant(Grantee.Group.AUTHENTICATED_USERS, Permission.WRITE)),
                List.of(OWNER_FULL_CONTROL, new Grant(new Grantee.Group("http://example.com/group"), Permission.READ)),
                List.of(new Grant(Grantee.Group.ALL_USERS, Permission.READ)));
        for (List<Grant> grants : others) {
            assertThat(CannedAcl.matching(OWNER, grants)).as("bucket grants %s", grants).isEmpty();
            assertThat(CannedAcl.matching(OWNER, BUCKET_OWNER, grants)).as("object grants %s", grants).isEmpty();
        }
    }

    @Test
    void theBucketOwnerReadShapeIsNotABucketAcl() {
        assertThat(CannedAcl.matching(OWNER, List.of(OWNER_FULL_CONTROL, new Grant(BUCKET_OWNER, Permission.READ))))
                .isEmpty();
    }

    @ParameterizedTest(name = "bucket {0}, object {1}, {2} by {3} -> {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            PRIVATE            | -                  | s3:ListBucket                 | -        | false
            PRIVATE            | -                  | s3:ListBucket                 | AKIDANY  | false
            PUBLIC_READ        | -                  | s3:ListBucket                 | -        | true
            PUBLIC_READ        | -                  | s3:ListBucketVersions         | -        | true
            PUBLIC_READ        | -                  | s3:ListBucketMultipartUploads | -        | true
            PUBLIC_READ        | -                  | s3:ListBucket                 | AKIDANY  | true
            PUBLIC_READ        | -                  | S3:LISTBUCKET                 | -        | true
            PUBLIC_READ        | -                  | s3:PutObject                  | -        | false
            PUBLIC_READ        | PRIVATE            | s3:GetObject                  | -        | false
            PUBLIC_READ        | -                  | s3:GetBucketPolicy            | -        | false
            PUBLIC_READ        | -                  | s3:GetBucketAcl               | -        | false
            PUBLIC_READ_WRITE  | -                  | s3:ListBucket                 | -        | true
            PUBLIC_READ_WRITE  | -                  | s3:PutObject                  | -        | true
            PUBLIC_READ_WRITE  | -                  | s3:DeleteObject               | -        | true
            PUBLIC_READ_WRITE  | -                  | s3:DeleteObjectVersion        | -        | false
            PUBLIC_READ_WRITE  | -                  | s3:AbortMultipartUpload       | -        | false
            PUBLIC_READ_WRITE  | -                  | s3:PutBucketPolicy            | -        | false
            PUBLIC_READ_WRITE  | -                  | s3:DeleteBucket               | -        | false
            PUBLIC_READ_WRITE  | PRIVATE            | s3:GetObject                  | -        | false
            AUTHENTICATED_READ | -                  | s3:ListBucket                 | -        | false
            AUTHENTICATED_READ | -                  | s3:ListBucket                 | AKIDANY  | true
            AUTHENTICATED_READ | -                  | s3:PutObject                  | AKIDANY  | false
            LOG_DELIVERY_WRITE | -                  | s3:PutObject                  | AKIDANY  | false
            BUCKET_OWNER_READ  | -                  | s3:ListBucket                 | -        | false
            PRIVATE            | PUBLIC_READ        | s3:GetObject                  | -        | true
            PRIVATE            | PUBLIC_READ        | s3:GetObjectVersion           | AKIDANY  | true
            PRIVATE            | PUBLIC_READ        | s3:GetObjectTorrent           | -        | true
            PRIVATE            | PUBLIC_READ        | s3:GetObjectAcl               | -        | false
            PRIVATE            | PUBLIC_READ        | s3:GetObjectTagging           | -        | false
            PRIVATE            | PUBLIC_READ        | s3:PutObject                  | -        | false
            PRIVATE            | PUBLIC_READ        | s3:DeleteObject               | -        | false
            PRIVATE            | PUBLIC_READ        | s3:ListBucket                 | -        | false
            PRIVATE            | PUBLIC_READ_WRITE  | s3:GetObject                  | -        | true
            PRIVATE            | PUBLIC_READ_WRITE  | s3:PutObject                  | -        | false
            PRIVATE            | AUTHENTICATED_READ | s3:GetObject                  | -        | false
            PRIVATE            | AUTHENTICATED_READ | s3:GetObject                  | AKIDANY  | true
            PRIVATE            | BUCKET_OWNER_READ  | s3:GetObject                  | AKIDANY  | false
            PRIVATE            | BUCKET_OWNER_FULL_CONTROL | s3:GetObject           | AKIDANY  | false
            PRIVATE            | PRIVATE            | s3:GetObject                  | AKIDANY  | false
            """)
    void aclsGrantWhatTheirGroupsMayDo(CannedAcl bucketAcl, @Nullable CannedAcl objectAcl, String action,
            @Nullable String principal, boolean granted) {
        AclDecision decision = CannedAcl.allows(bucketAcl, objectAcl, action, principal);
        assertThat(decision.granted()).as(decision.reason()).isEqualTo(granted);
    }

    @Test
    void reasonsNameTheGrant() {
        assertThat(CannedAcl.allows(CannedAcl.PUBLIC_READ, null, "s3:ListBucket", null).reason())
                .isEqualTo("the bucket ACL public-read grants AllUsers READ");
        assertThat(CannedAcl.allows(CannedAcl.PRIVATE, CannedAcl.AUTHENTICATED_READ, "s3:GetObject", "AKID").reason())
                .isEqualTo("the object ACL authenticated-read grants AuthenticatedUsers READ");
        assertThat(CannedAcl.allows(CannedAcl.PRIVATE, CannedAcl.PRIVATE, "s3:GetObject", null).reason())
                .contains("anonymous").contains("s3:GetObject").contains("bucket ACL private").contains("object ACL private");
    }

    @Test
    void granteesCheckTheirComponents() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> new Grantee.CanonicalUser(" ", null)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({
        "PRIVATE, false, false",
        "PUBLIC_READ, true, true",
        "PUBLIC_READ_WRITE, true, true",
        "AUTHENTICATED_READ, true, true",
        "BUCKET_OWNER_READ, false, false",
        "BUCKET_OWNER_FULL_CONTROL, false, false",
        "LOG_DELIVERY_WRITE, false, true"})
    void publicAclsGrantAllUsersOrAuthenticatedUsersAndLogDeliveryIsAnotherGranteeOfABucket(
            CannedAcl acl, boolean isPublic, boolean grantsOthers) {
        assertThat(acl.isPublic()).isEqualTo(isPublic);
        assertThat(acl.grantsOthersOnABucket()).isEqualTo(grantsOthers);
        boolean groupGrant = acl.grants(new Grantee.CanonicalUser("owner", null)).stream()
                .anyMatch(grant -> grant.grantee().equals(Grantee.Group.ALL_USERS)
                        || grant.grantee().equals(Grantee.Group.AUTHENTICATED_USERS));
        assertThat(groupGrant).isEqualTo(isPublic);
    }
}
