package dev.hangar.s3api.lifecycle;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Whether S3 would accept a lifecycle configuration, checked on the rules the document was read into. The first
 * fault found is the answer: the number of rules, then the rule IDs, then each rule in order (its filter, that it
 * has an action, then each action). Codes and messages are the ones S3 answers.
 */
public final class LifecycleValidation {
    /** "A lifecycle configuration can have up to 1,000 rules." */
    public static final int MAXIMUM_RULES = 1000;
    /** "The value cannot be longer than 255 characters." */
    public static final int MAXIMUM_ID_LENGTH = 255;
    /** The largest size an object-size filter may name: 1000 TiB, the range S3 names when it refuses one. */
    public static final long MAXIMUM_FILTER_SIZE = 1_099_511_627_776_000L;

    private static final int MAXIMUM_TAG_KEY_LENGTH = 128;
    private static final int MAXIMUM_TAG_VALUE_LENGTH = 256;

    private LifecycleValidation() {
    }

    /**
     * @throws S3Exception {@link S3Error#MALFORMED_XML} for what the schema forbids (no rule; an
     *     {@code Expiration} with more than one of {@code Days}, {@code Date} and {@code ExpiredObjectDeleteMarker};
     *     {@code NewerNoncurrentVersions} without {@code NoncurrentDays}); {@link S3Error#INVALID_ARGUMENT} for an
     *     ID too long or repeated and a day count that is not positive; {@link S3Error#INVALID_REQUEST} for too
     *     many rules, a rule without an action, a filter out of range, and a delete-marker or upload action with a
     *     tag or size filter
     */
    public static void validate(List<LifecycleRule> rules) {
        if (rules.isEmpty()) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        if (rules.size() > MAXIMUM_RULES) {
            throw invalidRequest("The number of lifecycle rules must not exceed the allowed limit of "
                    + MAXIMUM_RULES + " rules.");
        }
        Set<String> ids = new HashSet<>();
        for (LifecycleRule rule : rules) {
            String id = rule.id();
            if (id == null || id.isEmpty()) {
                continue;
            }
            if (id.length() > MAXIMUM_ID_LENGTH) {
                throw invalidArgument("ID length should not exceed allowed limit of " + MAXIMUM_ID_LENGTH);
            }
            if (!ids.add(id)) {
                throw invalidArgument("Rule ID must be unique. Found same ID for more than one rule");
            }
        }
        for (LifecycleRule rule : rules) {
            validate(rule);
        }
    }

    private static void validate(LifecycleRule rule) {
        validate(rule.filter());
        if (!rule.hasAction()) {
            throw invalidRequest("At least one action needs to be specified in a rule");
        }
        int expirationForms = (rule.expirationDays() != null ? 1 : 0) + (rule.expirationDate() != null ? 1 : 0)
                + (rule.expiredObjectDeleteMarker() ? 1 : 0);
        if (expirationForms > 1) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        if (rule.expirationDays() != null && rule.expirationDays() <= 0) {
            throw positiveInteger("Days", "Expiration");
        }
        if (rule.newerNoncurrentVersions() != null && rule.noncurrentDays() == null) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        if (rule.noncurrentDays() != null && rule.noncurrentDays() <= 0) {
            throw positiveInteger("NoncurrentDays", "NoncurrentVersionExpiration");
        }
        if (rule.newerNoncurrentVersions() != null && rule.newerNoncurrentVersions() <= 0) {
            throw positiveInteger("NewerNoncurrentVersions", "NoncurrentVersionExpiration");
        }
        if (rule.abortIncompleteDays() != null && rule.abortIncompleteDays() <= 0) {
            throw positiveInteger("DaysAfterInitiation", "AbortIncompleteMultipartUpload");
        }
        // Neither a delete marker nor an upload has tags or a size, so S3 refuses those filters beside them.
        if (rule.expiredObjectDeleteMarker()) {
            refuseTagsAndSizes(rule.filter(), "ExpiredObjectDeleteMarker");
        }
        if (rule.abortIncompleteDays() != null) {
            refuseTagsAndSizes(rule.filter(), "AbortIncompleteMultipartUpload");
        }
    }

    private static void validate(RuleFilter filter) {
        for (Map.Entry<String, String> tag : filter.tags().entrySet()) {
            if (tag.getKey().isEmpty() || tag.getKey().length() > MAXIMUM_TAG_KEY_LENGTH) {
                throw invalidRequest("A Tag's Key must be a length between 1 and " + MAXIMUM_TAG_KEY_LENGTH + ".");
            }
            if (tag.getValue().length() > MAXIMUM_TAG_VALUE_LENGTH) {
                throw invalidRequest("A Tag's Value must be a length between 0 and " + MAXIMUM_TAG_VALUE_LENGTH
                        + ".");
            }
        }
        @Nullable Long greaterThan = filter.sizeGreaterThan();
        @Nullable Long lessThan = filter.sizeLessThan();
        if (greaterThan != null && (greaterThan < 0 || greaterThan > MAXIMUM_FILTER_SIZE)) {
            throw invalidRequest("'ObjectSizeGreaterThan' should be between 0 and " + MAXIMUM_FILTER_SIZE + ".");
        }
        if (lessThan != null && (lessThan < 1 || lessThan > MAXIMUM_FILTER_SIZE)) {
            throw invalidRequest("'ObjectSizeLessThan' should be between 1 and " + MAXIMUM_FILTER_SIZE + ".");
        }
        if (greaterThan != null && lessThan != null && greaterThan >= lessThan) {
            throw invalidRequest("'ObjectSizeLessThan' has to be a value greater than 'ObjectSizeGreaterThan'.");
        }
    }

    private static void refuseTagsAndSizes(RuleFilter filter, String action) {
        if (filter.hasTags()) {
            throw invalidRequest(action + " cannot be specified with Tags.");
        }
        if (filter.hasSizeBounds()) {
            throw invalidRequest(action + " cannot be specified with Object Size.");
        }
    }

    private static S3Exception positiveInteger(String element, String action) {
        return invalidArgument("'" + element + "' for " + action + " action must be a positive integer");
    }

    private static S3Exception invalidArgument(String message) {
        return new S3Exception(S3Error.INVALID_ARGUMENT, message);
    }

    private static S3Exception invalidRequest(String message) {
        return new S3Exception(S3Error.INVALID_REQUEST, message);
    }
}
