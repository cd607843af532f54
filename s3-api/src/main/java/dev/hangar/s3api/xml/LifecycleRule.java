package dev.hangar.s3api.xml;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One lifecycle {@code Rule}. Rendered as {@code ID}?, {@code Filter} or the deprecated rule-level
 * {@code Prefix}, {@code Status}, every {@code Transition}, {@code Expiration}?, every {@code
 * NoncurrentVersionTransition}, {@code NoncurrentVersionExpiration}?, {@code
 * AbortIncompleteMultipartUpload}?. S3 answers a rule's elements as {@code ID}, {@code Filter},
 * {@code Status}, then its actions, transitions before the expiration as in the API reference's
 * sample; it accepts them in any order.
 *
 * @param id the rule's {@code ID}, at most 255 characters, or null when the client sent none (S3
 *     then makes one up; that is the caller's to do)
 * @param filter the rule's {@code Filter}; exactly one of filter and prefix is set
 * @param prefix the rule-level {@code Prefix} of the deprecated form, kept as such because S3 gives
 *     a rule back as it was sent
 * @param transitions the {@code Transition} actions, possibly none
 * @param noncurrentVersionTransitions the {@code NoncurrentVersionTransition} actions, possibly none
 */
public record LifecycleRule(
        @Nullable String id,
        @Nullable LifecycleFilter filter,
        @Nullable String prefix,
        Status status,
        List<LifecycleTransition> transitions,
        @Nullable LifecycleExpiration expiration,
        List<NoncurrentVersionTransition> noncurrentVersionTransitions,
        @Nullable NoncurrentVersionExpiration noncurrentVersionExpiration,
        @Nullable AbortIncompleteMultipartUpload abortIncompleteMultipartUpload) {

    public LifecycleRule {
        Objects.requireNonNull(status, "status is required");
        if ((filter == null) == (prefix == null)) {
            throw new IllegalArgumentException("a lifecycle rule has either a Filter or a rule-level Prefix");
        }
        transitions = List.copyOf(transitions);
        noncurrentVersionTransitions = List.copyOf(noncurrentVersionTransitions);
        if (transitions.isEmpty() && expiration == null && noncurrentVersionTransitions.isEmpty()
                && noncurrentVersionExpiration == null && abortIncompleteMultipartUpload == null) {
            throw new IllegalArgumentException("a lifecycle rule has at least one action");
        }
    }

    /** A rule with a filter and only expiration-type actions, the common case. */
    public static LifecycleRule of(
            @Nullable String id,
            LifecycleFilter filter,
            Status status,
            @Nullable LifecycleExpiration expiration,
            @Nullable NoncurrentVersionExpiration noncurrentVersionExpiration,
            @Nullable AbortIncompleteMultipartUpload abortIncompleteMultipartUpload) {
        return new LifecycleRule(id, filter, null, status, List.of(), expiration, List.of(),
                noncurrentVersionExpiration, abortIncompleteMultipartUpload);
    }

    /** A rule's {@code Status}. */
    public enum Status {
        ENABLED("Enabled"),
        DISABLED("Disabled");

        private final String wireName;

        Status(String wireName) {
            this.wireName = wireName;
        }

        /** The value as the document spells it. */
        public String wireName() {
            return wireName;
        }
    }
}
