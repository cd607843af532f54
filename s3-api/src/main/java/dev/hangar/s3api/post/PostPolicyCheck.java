package dev.hangar.s3api.post;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Checks a POST upload against its policy, as S3 does: the policy has not expired, every condition holds, every
 * form field is covered by a condition, and the file's length is within every {@code content-length-range}.
 *
 * <p>The form fields are given after {@code ${filename}} has been expanded ({@link PostFields#resolveFilename}):
 * "all variables within the form are expanded prior to validating the POST policy". The field {@code bucket}
 * is the bucket the upload goes to, which the caller sets from the request's URL whatever the form says: the
 * policy's {@code bucket} condition is checked against it, and it is never an extra field.
 */
public final class PostPolicyCheck {
    static final String DENIED = "Invalid according to Policy: ";

    /**
     * Fields that no condition has to cover: {@code x-amz-signature}, {@code file} and {@code policy} (AWS's
     * list), the signature fields of a Version 2 form, {@code AWSAccessKeyId} and {@code signature} (AWS's list
     * for those forms), and {@code bucket}, which holds the target bucket (see the class comment).
     */
    private static final Set<String> UNCOVERED_FIELDS =
            Set.of("x-amz-signature", "file", "policy", "awsaccesskeyid", "signature", "bucket");
    private static final String IGNORED_PREFIX = "x-ignore-";

    private PostPolicyCheck() {
    }

    /**
     * {@link #verifyFields} then {@link #verifyContentLength}.
     *
     * @param formFields the form's fields before the file, names lower-cased (they are lower-cased here again)
     * @param contentLength the length of the file part in bytes
     * @param now the time the upload is judged at
     * @throws S3Exception as the two steps do
     */
    public static void verify(PostPolicy policy, Map<String, String> formFields, long contentLength, Instant now) {
        verifyFields(policy, formFields, now);
        verifyContentLength(policy, contentLength);
    }

    /**
     * The checks that need only the fields before the file, so an upload can be refused before its body is read:
     * first the expiration, then the conditions in the policy's order, then the fields no condition covers.
     *
     * @throws S3Exception {@link S3Error#ACCESS_DENIED} with "Invalid according to Policy: Policy expired.",
     *     "... Policy Condition failed: [\"eq\", \"$key\", \"v\"]" (the first failing condition as the policy
     *     wrote it) or "... Extra input fields: name" (every uncovered field, sorted, comma-separated)
     */
    public static void verifyFields(PostPolicy policy, Map<String, String> formFields, Instant now) {
        if (now.isAfter(policy.expiration())) {
            throw denied("Policy expired.");
        }
        Map<String, String> fields = lowerCased(formFields);
        Set<String> covered = new HashSet<>();
        for (PostCondition condition : policy.conditions()) {
            boolean holds = switch (condition) {
                case PostCondition.ExactMatch exact -> {
                    covered.add(exact.field());
                    yield exact.value().equals(fields.get(exact.field()));
                }
                case PostCondition.StartsWith startsWith -> {
                    covered.add(startsWith.field());
                    yield startsWith(startsWith, fields.get(startsWith.field()));
                }
                case PostCondition.ContentLengthRange range -> true;
                case PostCondition.Unsatisfiable unsatisfiable -> false;
            };
            if (!holds) {
                throw denied("Policy Condition failed: " + condition.rendered());
            }
        }
        List<String> extra = fields.keySet().stream()
                .filter(name -> !covered.contains(name))
                .filter(name -> !UNCOVERED_FIELDS.contains(name) && !name.startsWith(IGNORED_PREFIX))
                .sorted()
                .toList();
        if (!extra.isEmpty()) {
            throw denied("Extra input fields: " + String.join(", ", extra));
        }
    }

    /**
     * The file's length against every {@code content-length-range}; both bounds are inclusive.
     *
     * @throws S3Exception {@link S3Error#ENTITY_TOO_LARGE} or {@link S3Error#ENTITY_TOO_SMALL}, with the
     *     messages S3 sends for a POST ("... the maximum allowed size", "... the minimum allowed size")
     */
    public static void verifyContentLength(PostPolicy policy, long contentLength) {
        for (PostCondition condition : policy.conditions()) {
            if (condition instanceof PostCondition.ContentLengthRange range) {
                if (contentLength > range.maximum()) {
                    throw new S3Exception(S3Error.ENTITY_TOO_LARGE,
                            "Your proposed upload exceeds the maximum allowed size");
                }
                if (contentLength < range.minimum()) {
                    throw new S3Exception(S3Error.ENTITY_TOO_SMALL,
                            "Your proposed upload is smaller than the minimum allowed size");
                }
            }
        }
    }

    /**
     * A {@code Content-Type} value is a comma-separated list for {@code starts-with}, each entry of which must
     * match; every other field is one string, commas and all.
     */
    private static boolean startsWith(PostCondition.StartsWith condition, @Nullable String value) {
        if (value == null) {
            // S3 fails a condition on a field the form does not carry, even ["starts-with", "$f", ""].
            return false;
        }
        if (!condition.field().equals("content-type")) {
            return value.startsWith(condition.prefix());
        }
        for (String entry : value.split(",", -1)) {
            if (!entry.strip().startsWith(condition.prefix())) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, String> lowerCased(Map<String, String> formFields) {
        Map<String, String> fields = new HashMap<>();
        formFields.forEach((name, value) -> {
            if (fields.put(name.toLowerCase(Locale.ROOT), value) != null) {
                throw new IllegalArgumentException("form field given twice: " + name);
            }
        });
        return fields;
    }

    private static S3Exception denied(String detail) {
        return new S3Exception(S3Error.ACCESS_DENIED, DENIED + detail);
    }
}
