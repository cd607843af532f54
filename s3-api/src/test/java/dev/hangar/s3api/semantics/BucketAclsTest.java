package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.access.BucketAcl;
import dev.hangar.s3api.access.CannedAcl;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.access.Grantee;
import dev.hangar.s3api.access.Permission;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BucketAclsTest {
    private static final Grantee.CanonicalUser OWNER = new Grantee.CanonicalUser("hangar", "hangar");
    private static final Grantee.CanonicalUser KEY = new Grantee.CanonicalUser("KEY1", null);

    @ParameterizedTest
    @EnumSource(CannedAcl.class)
    void aCannedAclIsStoredAsItsNameAsBefore(CannedAcl canned) {
        byte[] stored = BucketAcls.stored(BucketAcls.canned(canned));

        assertThat(new String(stored, StandardCharsets.UTF_8)).isEqualTo(canned.headerValue());
        assertThat(BucketAcls.read(stored)).isEqualTo(BucketAcls.canned(canned));
    }

    @Test
    void aGrantListIsStoredAsItsDocumentAndReadBackAsGiven() {
        BucketAcl acl = BucketAcl.granted(List.of(new Grant(KEY, Permission.WRITE), new Grant(OWNER, Permission.FULL_CONTROL),
                new Grant(Grantee.Group.AUTHENTICATED_USERS, Permission.READ)));

        byte[] stored = BucketAcls.stored(acl);

        assertThat(new String(stored, StandardCharsets.UTF_8)).startsWith("<");
        assertThat(BucketAcls.read(stored)).isEqualTo(acl);
    }

    @Test
    void createBucketTakesACannedAclOrGrantHeadersNotBoth() {
        assertThat(BucketAcls.forCreate(Map.<String, String>of()::get, id -> true)).isNull();
        assertThat(BucketAcls.forCreate(Map.of("x-amz-acl", "public-read")::get, id -> true))
                .isEqualTo(BucketAcls.canned(CannedAcl.PUBLIC_READ));
        assertThat(BucketAcls.forCreate(Map.of("x-amz-grant-read", "id=\"KEY1\"", "x-amz-grant-full-control",
                "id=\"hangar\"")::get, "KEY1"::equals))
                .isEqualTo(BucketAcl.granted(List.of(new Grant(OWNER, Permission.FULL_CONTROL),
                        new Grant(KEY, Permission.READ))));
        assertS3Error(() -> BucketAcls.forCreate(Map.of("x-amz-acl", "private", "x-amz-grant-read", "id=\"KEY1\"")::get,
                id -> true), S3Error.INVALID_REQUEST);
    }

    @Test
    void aGrantToAnIdThatNamesNoKeyIsAnInvalidId() {
        assertThat(assertS3Error(() -> BucketAcls.forCreate(Map.of("x-amz-grant-read", "id=\"KEY2\"")::get,
                "KEY1"::equals), S3Error.INVALID_ARGUMENT).getMessage()).isEqualTo("Invalid id");
    }
}
