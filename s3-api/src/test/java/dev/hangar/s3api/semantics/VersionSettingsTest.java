package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.access.Grantee;
import dev.hangar.s3api.access.ObjectAcl;
import dev.hangar.s3api.access.Permission;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class VersionSettingsTest {
    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");
    private static final Predicate<String> NO_KEYS = id -> false;
    private static final Predicate<String> FRIEND = "x"::equals;

    @Test
    void readsTagsAclAndLockFromAWrite() {
        Map<String, String> headers = Map.of("x-amz-tagging", "team=storage%20core&empty", "x-amz-acl", "public-read",
                "x-amz-object-lock-legal-hold", "ON");

        VersionSettings settings = VersionSettings.fromHeaders(headers::get, true, NOW, NO_KEYS);

        assertThat(settings.tags()).isEqualTo(Map.of("team", "storage core", "empty", ""));
        assertThat(settings.storedAcl()).isEqualTo("public-read");
        assertThat(settings.lock()).isEqualTo(new ObjectLock(null, null, true));
        assertThat(VersionSettings.fromHeaders(Map.<String, String>of()::get, false, NOW, NO_KEYS))
                .isEqualTo(new VersionSettings(Map.of(), null, null));
    }

    @Test
    void refusesLockHeadersWithoutObjectLockUnknownGranteesAndBadValues() {
        assertS3Error(() -> VersionSettings.fromHeaders(Map.of("x-amz-object-lock-legal-hold", "ON")::get, false, NOW,
                NO_KEYS), S3Error.INVALID_REQUEST);
        assertS3Error(() -> VersionSettings.fromHeaders(Map.of("x-amz-grant-read", "id=x")::get, false, NOW, NO_KEYS),
                S3Error.INVALID_ARGUMENT);
        assertS3Error(() -> VersionSettings.fromHeaders(Map.of("x-amz-grant-read", "id=x", "x-amz-acl", "private")::get,
                false, NOW, FRIEND), S3Error.INVALID_REQUEST);
        assertS3Error(() -> VersionSettings.fromHeaders(Map.of("x-amz-acl", "everyone")::get, false, NOW, NO_KEYS),
                S3Error.INVALID_ARGUMENT);
        assertS3Error(() -> VersionSettings.fromHeaders(Map.of("x-amz-tagging", "a=1&a=2")::get, false, NOW, NO_KEYS),
                S3Error.INVALID_ARGUMENT);
    }

    @Test
    void readsGrantHeadersIntoAGrantList() {
        VersionSettings settings = VersionSettings.fromHeaders(Map.of("x-amz-grant-read", "id=\"x\"",
                "x-amz-grant-full-control", "id=hangar")::get, false, NOW, FRIEND);

        ObjectAcl acl = ObjectAcls.read(settings.storedAcl());
        assertThat(acl.canned()).isNull();
        assertThat(acl.grants()).extracting(grant -> grant.permission() + " " + grant.grantee())
                .containsExactly("FULL_CONTROL " + GrantLists.OWNER_GRANTEE,
                        "READ " + new Grantee.CanonicalUser("x", null));
    }

    @Test
    void aMultipartUploadKeepsItsSettingsApartFromTheObjectHeaders() {
        Map<String, String> request = Map.of("x-amz-tagging", "stage=upload", "x-amz-grant-read", "id=\"x\"",
                "x-amz-object-lock-mode", "COMPLIANCE", "x-amz-object-lock-retain-until-date", "2026-11-23T09:00:00Z",
                "content-type", "text/plain");
        Map<String, String> stored = new HashMap<>(Map.of("content-type", "text/plain"));
        stored.putAll(VersionSettings.uploadHeaders(request::get));

        VersionSettings settings = VersionSettings.fromUpload(stored);

        assertThat(settings.tags()).isEqualTo(Map.of("stage", "upload"));
        assertThat(settings.acl()).isEqualTo(ObjectAcl.granted(List.of(
                new Grant(new Grantee.CanonicalUser("x", null), Permission.READ))));
        assertThat(settings.lock()).isEqualTo(new ObjectLock(RetentionMode.COMPLIANCE,
                Instant.parse("2026-11-23T09:00:00Z"), false));
        assertThat(VersionSettings.objectHeaders(stored)).isEqualTo(Map.of("content-type", "text/plain"));
    }
}
