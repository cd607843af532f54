package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.access.Grant;
import dev.hangar.s3api.access.Grantee;
import dev.hangar.s3api.access.Permission;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GrantHeadersTest {
    private static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";

    @Test
    void readsEveryGranteeOfEveryHeaderInHeaderOrder() {
        Map<String, String> headers = Map.of(
                "x-amz-grant-write", "id=\"KEY2\"",
                "x-amz-grant-read", "id=\"KEY1\", uri=\"" + ALL_USERS + "\"",
                "x-amz-grant-full-control", "id=hangar");

        List<Grant> grants = GrantHeaders.parse(headers::get);

        assertThat(grants).containsExactly(
                new Grant(new Grantee.CanonicalUser("hangar", null), Permission.FULL_CONTROL),
                new Grant(new Grantee.CanonicalUser("KEY1", null), Permission.READ),
                new Grant(Grantee.Group.ALL_USERS, Permission.READ),
                new Grant(new Grantee.CanonicalUser("KEY2", null), Permission.WRITE));
    }

    @Test
    void eachHeaderGivesItsPermission() {
        assertThat(GrantHeaders.parse(Map.of("x-amz-grant-read-acp", "id=\"K\"")::get))
                .containsExactly(new Grant(new Grantee.CanonicalUser("K", null), Permission.READ_ACP));
        assertThat(GrantHeaders.parse(Map.of("x-amz-grant-write-acp", "id=\"K\"")::get))
                .containsExactly(new Grant(new Grantee.CanonicalUser("K", null), Permission.WRITE_ACP));
        assertThat(GrantHeaders.present(Map.<String, String>of()::get)).isFalse();
        assertThat(GrantHeaders.present(Map.of("x-amz-grant-write-acp", "id=\"K\"")::get)).isTrue();
    }

    @Test
    void spacesAroundGranteesAreIgnored() {
        assertThat(GrantHeaders.grantees("x-amz-grant-read", "  id = \"A\" ,id=\"B\"  "))
                .containsExactly(new Grantee.CanonicalUser("A", null), new Grantee.CanonicalUser("B", null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "A", "id", "id=", "id=\"\"", "id=\"A", "id=\"A\" id=\"B\"", "id=\"A\",",
            ",id=\"A\"", "ID=\"A\"", "name=\"A\"", "id=A\"B"})
    void malformedValuesAreInvalidArguments(String value) {
        assertThat(assertS3Error(() -> GrantHeaders.grantees("x-amz-grant-read", value), S3Error.INVALID_ARGUMENT)
                .getMessage()).contains("x-amz-grant-read");
    }

    @Test
    void moreGrantsThanAnAclHoldsAreAMalformedAcl() {
        String hundred = String.join(", ", java.util.Collections.nCopies(100, "id=\"KEY1\""));
        assertThat(GrantHeaders.parse(Map.of("x-amz-grant-read", hundred)::get)).hasSize(100);
        assertS3Error(() -> GrantHeaders.parse(Map.of("x-amz-grant-read", hundred, "x-amz-grant-write", "id=KEY2")::get),
                S3Error.MALFORMED_ACL_ERROR);
    }

    @Test
    void anUnknownGroupIsAnInvalidArgument() {
        assertThat(assertS3Error(() -> GrantHeaders.grantees("x-amz-grant-read",
                "uri=\"http://acs.amazonaws.com/groups/global/Everyone\""), S3Error.INVALID_ARGUMENT).getMessage())
                .isEqualTo("Invalid group uri");
    }

    @Test
    void anEmailGranteeCannotBeResolved() {
        assertS3Error(() -> GrantHeaders.grantees("x-amz-grant-read", "emailAddress=\"someone@example.com\""),
                S3Error.UNRESOLVABLE_GRANT_BY_EMAIL_ADDRESS);
    }
}
