package dev.hangar.s3api.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ObjectAclTest {
    private static final Grantee.CanonicalUser OWNER = new Grantee.CanonicalUser("hangar", "hangar");
    private static final Grantee.CanonicalUser FRIEND = new Grantee.CanonicalUser("AKIDFRIEND", null);

    @ParameterizedTest(name = "{0} to {1}: {2} by {3} -> {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            READ         | friend        | s3:GetObject          | AKIDFRIEND | true
            READ         | friend        | s3:GetObjectVersion   | AKIDFRIEND | true
            READ         | friend        | s3:GetObject          | AKIDOTHER  | false
            READ         | friend        | s3:GetObject          | -          | false
            READ         | friend        | s3:GetObjectAcl       | AKIDFRIEND | false
            READ         | friend        | s3:PutObject          | AKIDFRIEND | false
            READ_ACP     | friend        | s3:GetObjectAcl       | AKIDFRIEND | true
            READ_ACP     | friend        | s3:GetObjectVersionAcl| AKIDFRIEND | true
            READ_ACP     | friend        | s3:GetObject          | AKIDFRIEND | false
            WRITE_ACP    | friend        | s3:PutObjectAcl       | AKIDFRIEND | true
            WRITE_ACP    | friend        | s3:PutObjectVersionAcl| AKIDFRIEND | true
            WRITE_ACP    | friend        | s3:GetObjectAcl       | AKIDFRIEND | false
            WRITE        | friend        | s3:PutObject          | AKIDFRIEND | false
            WRITE        | friend        | s3:DeleteObject       | AKIDFRIEND | false
            WRITE        | friend        | s3:GetObject          | AKIDFRIEND | false
            FULL_CONTROL | friend        | s3:GetObject          | AKIDFRIEND | true
            FULL_CONTROL | friend        | s3:GetObjectAcl       | AKIDFRIEND | true
            FULL_CONTROL | friend        | s3:PutObjectAcl       | AKIDFRIEND | true
            FULL_CONTROL | friend        | s3:DeleteObject       | AKIDFRIEND | false
            FULL_CONTROL | friend        | s3:PutObjectTagging   | AKIDFRIEND | false
            READ         | all           | s3:GetObject          | -          | true
            READ         | authenticated | s3:GetObject          | -          | false
            READ         | authenticated | s3:GetObject          | AKIDOTHER  | true
            FULL_CONTROL | log-delivery  | s3:GetObject          | AKIDOTHER  | false
            """)
    void aGrantGivesWhatItsPermissionCoversOnTheObject(
            Permission permission, String grantee, String action, @Nullable String principal, boolean granted) {
        ObjectAcl acl = ObjectAcl.granted(List.of(new Grant(OWNER, Permission.FULL_CONTROL),
                new Grant(grantee(grantee), permission)));

        assertThat(acl.allows(action, principal).granted()).isEqualTo(granted);
        Decision decision = AccessControl.decide(principal, false, KeyPermission.NONE, null,
                new BucketAcl(List.of(), CannedAcl.PRIVATE), acl,
                new ActionAndResource(action, ActionAndResource.objectArn("photos", "cat.jpg")), Map.of());
        assertThat(decision.allowed()).as(decision.reason()).isEqualTo(granted);
    }

    @ParameterizedTest(name = "{0} -> public {1}, owner only {2}")
    @CsvSource(delimiter = '|', textBlock = """
            friend        | false | false
            all           | true  | false
            authenticated | true  | false
            log-delivery  | false | false
            owner         | false | true
            """)
    void aGrantListIsPublicWhenItGrantsAGroupOfRequesters(String grantee, boolean isPublic, boolean ownerOnly) {
        ObjectAcl acl = ObjectAcl.granted(List.of(new Grant(grantee(grantee), Permission.FULL_CONTROL)));

        assertThat(acl.isPublic()).isEqualTo(isPublic);
        assertThat(acl.isOwnerFullControlOnly(OWNER.id())).isEqualTo(ownerOnly);
        assertThat(acl.withoutPublicGrants().isPublic()).isFalse();
        assertThat(acl.withoutPublicGrants().grants()).hasSize(isPublic ? 0 : 1);
    }

    private static Grantee grantee(String name) {
        return switch (name) {
            case "friend" -> FRIEND;
            case "owner" -> OWNER;
            case "all" -> Grantee.Group.ALL_USERS;
            case "authenticated" -> Grantee.Group.AUTHENTICATED_USERS;
            case "log-delivery" -> Grantee.Group.LOG_DELIVERY;
            default -> throw new IllegalArgumentException(name);
        };
    }
}
