package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BucketAclTest {
    private static final Grantee.CanonicalUser OWNER = new Grantee.CanonicalUser("hangar", "hangar");
    private static final Grantee.CanonicalUser READER = new Grantee.CanonicalUser("KEYREADER", null);

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            READ         | s3:ListBucket                 | true
            READ         | s3:ListBucketVersions         | true
            READ         | s3:ListBucketMultipartUploads | true
            READ         | s3:PutObject                  | false
            READ         | s3:GetObject                  | false
            READ         | s3:GetBucketAcl               | false
            WRITE        | s3:PutObject                  | true
            WRITE        | s3:DeleteObject               | true
            WRITE        | s3:ListBucket                 | false
            READ_ACP     | s3:GetBucketAcl               | true
            READ_ACP     | s3:PutBucketAcl               | false
            WRITE_ACP    | s3:PutBucketAcl               | true
            WRITE_ACP    | s3:GetBucketAcl               | false
            FULL_CONTROL | s3:ListBucket                 | true
            FULL_CONTROL | s3:PutObject                  | true
            FULL_CONTROL | s3:DeleteObject               | true
            FULL_CONTROL | s3:GetBucketAcl               | true
            FULL_CONTROL | s3:PutBucketAcl               | true
            FULL_CONTROL | s3:GetObject                  | false
            FULL_CONTROL | s3:PutBucketPolicy            | false
            """)
    void aGrantToAKeyGivesItWhatItsPermissionCovers(Permission permission, String action, boolean granted) {
        BucketAcl acl = BucketAcl.granted(List.of(new Grant(OWNER, Permission.FULL_CONTROL), new Grant(READER, permission)));

        assertThat(acl.allows(action, "KEYREADER").granted()).isEqualTo(granted);
        assertThat(acl.allows(action, "KEYOTHER").granted()).isFalse();
        assertThat(acl.allows(action, null).granted()).isFalse();
    }

    @Test
    void groupsCoverEveryoneOrEverySignedRequest() {
        BucketAcl acl = BucketAcl.granted(List.of(new Grant(Grantee.Group.ALL_USERS, Permission.WRITE),
                new Grant(Grantee.Group.AUTHENTICATED_USERS, Permission.READ),
                new Grant(Grantee.Group.LOG_DELIVERY, Permission.READ_ACP)));

        assertThat(acl.allows("s3:PutObject", null).granted()).isTrue();
        assertThat(acl.allows("s3:ListBucket", null).granted()).isFalse();
        assertThat(acl.allows("s3:ListBucket", "ANYKEY").granted()).isTrue();
        assertThat(acl.allows("s3:GetBucketAcl", "ANYKEY").granted()).isFalse();
        assertThat(acl.isPublic()).isTrue();
    }

    @Test
    void ignoringPublicAclsKeepsTheGrantsToKeys() {
        BucketAcl acl = BucketAcl.granted(List.of(new Grant(Grantee.Group.ALL_USERS, Permission.READ),
                new Grant(READER, Permission.WRITE)));

        BucketAcl effective = new PublicAccessBlock(false, true, false, false).effective(acl);

        assertThat(effective.grants()).containsExactly(new Grant(READER, Permission.WRITE));
        assertThat(effective.isPublic()).isFalse();
        assertThat(new PublicAccessBlock(true, false, false, false).refuses(acl)).isTrue();
        assertThat(new PublicAccessBlock(true, false, false, false).refuses(effective)).isFalse();
    }

    @Test
    void whetherTheAclGrantsOthersThanTheOwner() {
        BucketAcl ownerOnly = BucketAcl.granted(List.of(new Grant(OWNER, Permission.FULL_CONTROL)));
        BucketAcl withReader = BucketAcl.granted(List.of(new Grant(OWNER, Permission.FULL_CONTROL),
                new Grant(READER, Permission.READ)));

        assertThat(ownerOnly.grantsOthers("hangar")).isFalse();
        assertThat(ownerOnly.isOwnerFullControlOnly("hangar")).isTrue();
        assertThat(withReader.grantsOthers("hangar")).isTrue();
        assertThat(withReader.isOwnerFullControlOnly("hangar")).isFalse();
        assertThat(BucketAcl.granted(List.of()).isOwnerFullControlOnly("hangar")).isFalse();
        assertThat(BucketAcl.canned(CannedAcl.PUBLIC_READ, OWNER).grantsOthers("hangar")).isTrue();
        assertThat(BucketAcl.canned(CannedAcl.PRIVATE, OWNER).grantsOthers("hangar")).isFalse();
    }

    @Test
    void aCannedAclWeighsAsBefore() {
        BucketAcl acl = BucketAcl.canned(CannedAcl.PUBLIC_READ, OWNER);

        assertThat(acl.grants()).containsExactly(new Grant(OWNER, Permission.FULL_CONTROL),
                new Grant(Grantee.Group.ALL_USERS, Permission.READ));
        assertThat(acl.allows("s3:ListBucket", null).granted()).isTrue();
        assertThat(acl.allows("s3:PutObject", "ANYKEY").granted()).isFalse();
    }
}
