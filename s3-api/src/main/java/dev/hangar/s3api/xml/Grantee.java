package dev.hangar.s3api.xml;

import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code Grantee} of an ACL grant, typed by its {@code xsi:type} attribute: a canonical user
 * ({@code ID}, then {@code DisplayName} when known), a predefined group ({@code URI}), or an account
 * named by email ({@code EmailAddress}), which S3 resolves to a canonical user before storing it.
 */
public sealed interface Grantee permits Grantee.CanonicalUser, Grantee.Group, Grantee.AmazonCustomerByEmail {

    /** The {@code xsi:type} this grantee is written with. */
    String xsiType();

    /**
     * An account by its canonical id.
     *
     * @param displayName optional, and ignored by S3 in a request
     */
    record CanonicalUser(String id, @Nullable String displayName) implements Grantee {
        public CanonicalUser {
            Objects.requireNonNull(id, "canonical user id is required");
        }

        public CanonicalUser(String id) {
            this(id, null);
        }

        @Override
        public String xsiType() {
            return "CanonicalUser";
        }
    }

    /** One of S3's predefined groups, by its URI. */
    record Group(String uri) implements Grantee {
        /** Anyone, signed or not. */
        public static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
        /** Any signed request, from any account. */
        public static final String AUTHENTICATED_USERS = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";
        /** S3's server access logging. */
        public static final String LOG_DELIVERY = "http://acs.amazonaws.com/groups/s3/LogDelivery";

        /** The groups S3 knows; a grant to any other URI is refused. */
        public static final Set<String> KNOWN = Set.of(ALL_USERS, AUTHENTICATED_USERS, LOG_DELIVERY);

        public Group {
            Objects.requireNonNull(uri, "group uri is required");
        }

        @Override
        public String xsiType() {
            return "Group";
        }
    }

    /** An account by the email address of its owner. */
    record AmazonCustomerByEmail(String emailAddress) implements Grantee {
        public AmazonCustomerByEmail {
            Objects.requireNonNull(emailAddress, "email address is required");
        }

        @Override
        public String xsiType() {
            return "AmazonCustomerByEmail";
        }
    }
}
