package dev.hangar.s3api.access;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One statement of a bucket policy, validated. The {@code not...} flags say whether the element was
 * written as {@code NotPrincipal}, {@code NotAction} or {@code NotResource}: the statement then
 * applies to everything except what it lists.
 */
record Statement(
        @Nullable String sid,
        Effect effect,
        Principals principals,
        boolean notPrincipal,
        List<PolicyPattern> actions,
        boolean notAction,
        List<PolicyPattern> resources,
        boolean notResource,
        List<Condition> conditions) {

    enum Effect {
        ALLOW,
        DENY
    }

    Statement {
        actions = List.copyOf(actions);
        resources = List.copyOf(resources);
        conditions = List.copyOf(conditions);
    }

    /** Whether this statement covers the request: principal, action, resource and every condition match. */
    boolean applies(AccessRequest request) {
        return principals.contains(request.principal()) != notPrincipal
                && matchesAny(actions, request.action(), true, request) != notAction
                && matchesAny(resources, request.resource(), false, request) != notResource
                && conditions.stream().allMatch(condition -> condition.holds(request));
    }

    /**
     * Whether this statement makes a policy public: it allows, its principal is everyone ({@code "*"},
     * or a {@code NotPrincipal}, which names everyone but a few), and no condition limits it to fixed
     * requesters (see {@link Condition#limitsPublicAccess()}).
     */
    boolean isPublic() {
        return effect == Effect.ALLOW
                && (notPrincipal || principals.everyone())
                && conditions.stream().noneMatch(Condition::limitsPublicAccess);
    }

    private static boolean matchesAny(
            List<PolicyPattern> patterns, String value, boolean ignoreCase, AccessRequest request) {
        for (PolicyPattern pattern : patterns) {
            if (pattern.matches(value, ignoreCase, key -> {
                List<String> values = request.values(key);
                return values.isEmpty() ? null : values.getFirst();
            })) {
                return true;
            }
        }
        return false;
    }
}
