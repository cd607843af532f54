package dev.hangar.s3api.access;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The principals a statement's {@code Principal} (or {@code NotPrincipal}) names: everyone
 * ({@code "*"}, anonymous requests included) or a set of Hangar access key ids.
 *
 * @param everyone whether {@code "*"} was given
 * @param accessKeyIds the access key ids named, ARNs reduced to their trailing id
 */
record Principals(boolean everyone, Set<String> accessKeyIds) {

    Principals {
        accessKeyIds = Collections.unmodifiableSet(new LinkedHashSet<>(accessKeyIds));
    }

    /** Whether the principal (an access key id, or null for an anonymous request) is one of these. */
    boolean contains(@Nullable String principal) {
        return everyone || principal != null && accessKeyIds.contains(principal);
    }
}
