package dev.hangar.distribution;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.Grantee;
import software.amazon.awssdk.services.s3.model.Owner;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * The suite's tests of ACL grants: a second access key, the grantee, with no permission of its own, and
 * a client that signs with it; grants and grantees as the SDK builds them.
 */
abstract class AbstractGrantsIT extends AbstractS3IT {
    /** The canonical id of the owner of every bucket and object (the root key's account). */
    static final String OWNER_ID = "hangar";
    static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
    static final Owner OWNER = Owner.builder().id(OWNER_ID).build();

    AdminApi.Key grantee;
    S3Client granteeClient;

    @BeforeAll
    void createGrantee() {
        grantee = new AdminApi(managementEndpoint(), http).createKey();
        granteeClient = clientFor(grantee.id(), grantee.secret());
    }

    @AfterAll
    void closeGrantee() {
        granteeClient.close();
    }

    /** A grant header's value naming one canonical user. */
    static String id(String canonicalId) {
        return "id=\"" + canonicalId + "\"";
    }

    static Grantee canonical(String id) {
        return Grantee.builder().type(Type.CANONICAL_USER).id(id).build();
    }

    static Grant grant(Grantee grantee, Permission permission) {
        return Grant.builder().grantee(grantee).permission(permission).build();
    }
}
