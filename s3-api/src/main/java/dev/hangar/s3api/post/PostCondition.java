package dev.hangar.s3api.post;

import java.util.Locale;
import java.util.Objects;

/**
 * One condition of a POST policy. Each keeps the text S3 quotes when the condition fails, which is the
 * condition as the policy wrote it, in array form: {@code {"acl": "public-read"}} is quoted as
 * {@code ["eq", "$acl", "public-read"]}.
 *
 * <p>Field names are held lower-cased and without their {@code $}: form field names are case-insensitive
 * on S3, and {@code $Content-Type}, {@code $content-type} and a form field {@code Content-Type} are one
 * field. Values are compared case-sensitively.
 */
public sealed interface PostCondition {

    /** The condition as S3 quotes it in an error message, for example {@code ["starts-with", "$key", "user/"]}. */
    String rendered();

    /** {@code {"field": "value"}} or {@code ["eq", "$field", "value"]}: the field is present and equals the value. */
    record ExactMatch(String field, String value, String rendered) implements PostCondition {
        public ExactMatch {
            requireFieldName(field);
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(rendered, "rendered");
        }
    }

    /**
     * {@code ["starts-with", "$field", "prefix"]}: the field is present and its value starts with the prefix; an
     * empty prefix admits any value. A {@code Content-Type} value is a comma-separated list, each of whose
     * entries must start with the prefix.
     */
    record StartsWith(String field, String prefix, String rendered) implements PostCondition {
        public StartsWith {
            requireFieldName(field);
            Objects.requireNonNull(prefix, "prefix");
            Objects.requireNonNull(rendered, "rendered");
        }
    }

    /** {@code ["content-length-range", minimum, maximum]}: the file's length in bytes, both bounds inclusive. */
    record ContentLengthRange(long minimum, long maximum, String rendered) implements PostCondition {
        public ContentLengthRange {
            if (minimum < 0 || maximum < 0) {
                throw new IllegalArgumentException("content-length-range bounds must not be negative: " + rendered);
            }
            Objects.requireNonNull(rendered, "rendered");
        }
    }

    /**
     * A condition S3 accepts in a policy but that no form satisfies: an {@code eq} or {@code starts-with} whose
     * field is written without its {@code $}, or a {@code content-length-range} whose bounds are strings that are
     * not numbers. S3 answers such a policy with "Policy Condition failed", not with a malformed-policy error.
     */
    record Unsatisfiable(String rendered) implements PostCondition {
        public Unsatisfiable {
            Objects.requireNonNull(rendered, "rendered");
        }
    }

    private static void requireFieldName(String field) {
        Objects.requireNonNull(field, "field");
        if (!field.equals(field.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("field names are held lower-cased: " + field);
        }
    }
}
