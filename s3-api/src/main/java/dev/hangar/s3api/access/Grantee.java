package dev.hangar.s3api.access;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Whom an ACL grant is for: one user (for Hangar, an access key), or one of S3's predefined groups. */
public sealed interface Grantee {

    /**
     * A user by canonical id. Two canonical users are the same grantee when their ids are equal,
     * whatever their display names.
     *
     * @param id the canonical id
     * @param displayName the display name, if known
     */
    record CanonicalUser(String id, @Nullable String displayName) implements Grantee {
        public CanonicalUser {
            Objects.requireNonNull(id, "id");
            if (id.isBlank()) {
                throw new IllegalArgumentException("A canonical user needs an id");
            }
        }
    }

    /**
     * A predefined group, by URI.
     *
     * @param uri e.g. {@value #ALL_USERS_URI}
     */
    record Group(String uri) implements Grantee {
        public static final String ALL_USERS_URI = "http://acs.amazonaws.com/groups/global/AllUsers";
        public static final String AUTHENTICATED_USERS_URI = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";
        public static final String LOG_DELIVERY_URI = "http://acs.amazonaws.com/groups/s3/LogDelivery";

        /** Everyone, anonymous requests included. */
        public static final Group ALL_USERS = new Group(ALL_USERS_URI);
        /** Every signed request, whatever key signed it. */
        public static final Group AUTHENTICATED_USERS = new Group(AUTHENTICATED_USERS_URI);
        /** S3's server access log delivery; Hangar delivers no logs, so the group is never a requester. */
        public static final Group LOG_DELIVERY = new Group(LOG_DELIVERY_URI);

        public Group {
            Objects.requireNonNull(uri, "uri");
        }
    }
}
