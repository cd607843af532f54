package dev.hangar.s3api.access;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The condition operators of the policy language, without their {@code IfExists} suffix and
 * {@code ForAnyValue:} / {@code ForAllValues:} prefix (see {@link Condition}).
 *
 * <p>Each negated operator ({@code StringNotEquals}, {@code NotIpAddress}, …) is described by the
 * comparison of its positive twin; {@link Condition} applies the negation, since with several
 * values and set qualifiers a negation is not simply the opposite answer.
 */
enum ConditionOperator {
    STRING_EQUALS("StringEquals", Type.STRING, Comparison.EQUAL, false),
    STRING_NOT_EQUALS("StringNotEquals", Type.STRING, Comparison.EQUAL, true),
    STRING_EQUALS_IGNORE_CASE("StringEqualsIgnoreCase", Type.STRING, Comparison.EQUAL_IGNORING_CASE, false),
    STRING_NOT_EQUALS_IGNORE_CASE("StringNotEqualsIgnoreCase", Type.STRING, Comparison.EQUAL_IGNORING_CASE, true),
    STRING_LIKE("StringLike", Type.STRING, Comparison.LIKE, false),
    STRING_NOT_LIKE("StringNotLike", Type.STRING, Comparison.LIKE, true),
    NUMERIC_EQUALS("NumericEquals", Type.NUMERIC, Comparison.EQUAL, false),
    NUMERIC_NOT_EQUALS("NumericNotEquals", Type.NUMERIC, Comparison.EQUAL, true),
    NUMERIC_LESS_THAN("NumericLessThan", Type.NUMERIC, Comparison.LESS, false),
    NUMERIC_LESS_THAN_EQUALS("NumericLessThanEquals", Type.NUMERIC, Comparison.LESS_OR_EQUAL, false),
    NUMERIC_GREATER_THAN("NumericGreaterThan", Type.NUMERIC, Comparison.GREATER, false),
    NUMERIC_GREATER_THAN_EQUALS("NumericGreaterThanEquals", Type.NUMERIC, Comparison.GREATER_OR_EQUAL, false),
    DATE_EQUALS("DateEquals", Type.DATE, Comparison.EQUAL, false),
    DATE_NOT_EQUALS("DateNotEquals", Type.DATE, Comparison.EQUAL, true),
    DATE_LESS_THAN("DateLessThan", Type.DATE, Comparison.LESS, false),
    DATE_LESS_THAN_EQUALS("DateLessThanEquals", Type.DATE, Comparison.LESS_OR_EQUAL, false),
    DATE_GREATER_THAN("DateGreaterThan", Type.DATE, Comparison.GREATER, false),
    DATE_GREATER_THAN_EQUALS("DateGreaterThanEquals", Type.DATE, Comparison.GREATER_OR_EQUAL, false),
    BOOL("Bool", Type.BOOLEAN, Comparison.EQUAL, false),
    BINARY_EQUALS("BinaryEquals", Type.BINARY, Comparison.EQUAL, false),
    IP_ADDRESS("IpAddress", Type.IP_ADDRESS, Comparison.IN_RANGE, false),
    NOT_IP_ADDRESS("NotIpAddress", Type.IP_ADDRESS, Comparison.IN_RANGE, true),
    ARN_EQUALS("ArnEquals", Type.ARN, Comparison.LIKE, false),
    ARN_LIKE("ArnLike", Type.ARN, Comparison.LIKE, false),
    ARN_NOT_EQUALS("ArnNotEquals", Type.ARN, Comparison.LIKE, true),
    ARN_NOT_LIKE("ArnNotLike", Type.ARN, Comparison.LIKE, true),
    NULL("Null", Type.NULL_CHECK, Comparison.EQUAL, false);

    /** What the values of an operator are. */
    enum Type {
        STRING,
        NUMERIC,
        DATE,
        BOOLEAN,
        BINARY,
        IP_ADDRESS,
        ARN,
        NULL_CHECK
    }

    /** How a request value is compared with a policy value. */
    enum Comparison {
        EQUAL,
        EQUAL_IGNORING_CASE,
        LIKE,
        LESS,
        LESS_OR_EQUAL,
        GREATER,
        GREATER_OR_EQUAL,
        IN_RANGE
    }

    private static final Map<String, ConditionOperator> BY_LOWER_CASE_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(
                    operator -> operator.policyName.toLowerCase(Locale.ROOT), Function.identity()));

    private final String policyName;
    private final Type type;
    private final Comparison comparison;
    private final boolean negated;

    ConditionOperator(String policyName, Type type, Comparison comparison, boolean negated) {
        this.policyName = policyName;
        this.type = type;
        this.comparison = comparison;
        this.negated = negated;
    }

    /** The name as written in a policy, e.g. {@code StringNotLike}. */
    String policyName() {
        return policyName;
    }

    Type type() {
        return type;
    }

    Comparison comparison() {
        return comparison;
    }

    /** Whether the operator asks for no match ({@code StringNotEquals}, {@code NotIpAddress}, …). */
    boolean negated() {
        return negated;
    }

    /** The operator of this name, compared without regard to case; null if there is none. */
    static @Nullable ConditionOperator fromPolicyName(String name) {
        return BY_LOWER_CASE_NAME.get(name.toLowerCase(Locale.ROOT));
    }
}
