package dev.hangar.s3api.access;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * One condition of a statement: an operator, one condition key and the values it is compared with,
 * e.g. {@code "IpAddress": {"aws:SourceIp": ["192.0.2.0/24", "2001:db8::/32"]}}.
 *
 * <p>AWS semantics: a request value matches when it matches any of the policy values; a negated
 * operator holds when no request value matches any policy value. When the request lacks the key,
 * the condition is false, except for negated operators (true), an {@code ...IfExists} operator
 * (true) and {@code ForAllValues:} (true, vacuously); {@code Null} tests for exactly that absence.
 * With {@code ForAnyValue:} some request value has to match (for a negated operator: fail to match
 * every policy value); with {@code ForAllValues:} every request value has to.
 */
final class Condition {

    /** How a multivalued request key is compared: as one value, or as a set. */
    enum Qualifier {
        NONE(""),
        FOR_ANY_VALUE("ForAnyValue:"),
        FOR_ALL_VALUES("ForAllValues:");

        private final String prefix;

        Qualifier(String prefix) {
            this.prefix = prefix;
        }
    }

    /** A policy value, parsed once for its operator's type. */
    private sealed interface Expected {}

    private record Text(PolicyPattern pattern) implements Expected {}

    private record Arn(List<PolicyPattern> components) implements Expected {}

    private record Numeric(BigDecimal value) implements Expected {}

    private record Time(Instant value) implements Expected {}

    private record Flag(boolean value) implements Expected {}

    private record Bytes(byte[] value) implements Expected {}

    private record Range(IpRange range) implements Expected {}

    private static final String IF_EXISTS = "IfExists";

    /** Keys whose fixed values S3 counts as naming who may ask, so that a statement limited by them is not public. */
    private static final java.util.Set<String> FIXED_VALUE_KEYS = java.util.Set.of("aws:sourcearn", "aws:sourcevpc",
            "aws:sourcevpce", "aws:sourceowner", "aws:sourceaccount", "aws:userid",
            "s3:x-amz-server-side-encryption-aws-kms-key-id");

    private final ConditionOperator operator;
    private final Qualifier qualifier;
    private final boolean ifExists;
    private final String key;
    private final List<Expected> expected;

    private Condition(
            ConditionOperator operator, Qualifier qualifier, boolean ifExists, String key, List<Expected> expected) {
        this.operator = operator;
        this.qualifier = qualifier;
        this.ifExists = ifExists;
        this.key = key;
        this.expected = List.copyOf(expected);
    }

    /**
     * Parses one operator / key / values triple of a {@code Condition} block.
     *
     * @param operatorName e.g. {@code ForAnyValue:StringLikeIfExists}
     * @param variables whether policy variables are expanded in string values (policy version 2012-10-17)
     * @throws S3Exception MalformedPolicy for an unknown operator, a key that is no AWS or S3
     *     condition key, or a value the operator cannot compare
     */
    static Condition parse(String operatorName, String key, List<String> values, boolean variables) {
        String name = operatorName;
        Qualifier qualifier = Qualifier.NONE;
        for (Qualifier candidate : List.of(Qualifier.FOR_ANY_VALUE, Qualifier.FOR_ALL_VALUES)) {
            if (name.regionMatches(true, 0, candidate.prefix, 0, candidate.prefix.length())) {
                qualifier = candidate;
                name = name.substring(candidate.prefix.length());
            }
        }
        boolean ifExists = name.length() > IF_EXISTS.length()
                && name.regionMatches(true, name.length() - IF_EXISTS.length(), IF_EXISTS, 0, IF_EXISTS.length());
        if (ifExists) {
            name = name.substring(0, name.length() - IF_EXISTS.length());
        }
        ConditionOperator operator = ConditionOperator.fromPolicyName(name);
        if (operator == null || ifExists && operator == ConditionOperator.NULL) {
            throw malformed("Invalid Condition type : " + operatorName);
        }
        if (!isConditionKey(key)) {
            throw malformed("Policy has an invalid condition key");
        }
        if (values.isEmpty()) {
            throw malformed("Syntax errors in policy.");
        }
        List<Expected> expected = new ArrayList<>(values.size());
        for (String value : values) {
            expected.add(expected(operator, operatorName, value, variables));
        }
        return new Condition(operator, qualifier, ifExists, key, expected);
    }

    /** AWS accepts any {@code aws:} key (global keys) and the {@code s3:} keys; keys of other services never occur. */
    private static boolean isConditionKey(String key) {
        int colon = key.indexOf(':');
        if (colon <= 0 || colon == key.length() - 1) {
            return false;
        }
        String service = key.substring(0, colon).toLowerCase(Locale.ROOT);
        return service.equals("aws") || service.equals("s3");
    }

    private static Expected expected(ConditionOperator operator, String operatorName, String value, boolean variables) {
        return switch (operator.type()) {
            case STRING -> new Text(PolicyPattern.parse(
                    value, operator.comparison() == ConditionOperator.Comparison.LIKE, variables));
            case ARN -> new Arn(arnComponents(value).stream()
                    .map(component -> PolicyPattern.parse(component, true, variables))
                    .toList());
            case NUMERIC -> {
                BigDecimal number = number(value);
                if (number == null) {
                    throw invalidValue(operatorName, value);
                }
                yield new Numeric(number);
            }
            case DATE -> {
                Instant time = time(value);
                if (time == null) {
                    throw invalidValue(operatorName, value);
                }
                yield new Time(time);
            }
            case BOOLEAN, NULL_CHECK -> {
                if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                    throw invalidValue(operatorName, value);
                }
                yield new Flag(value.equalsIgnoreCase("true"));
            }
            case BINARY -> {
                byte[] bytes = bytes(value);
                if (bytes == null) {
                    throw invalidValue(operatorName, value);
                }
                yield new Bytes(bytes);
            }
            case IP_ADDRESS -> {
                IpRange range = IpRange.parse(value);
                if (range == null) {
                    throw malformed("Invalid IP address in Conditions");
                }
                yield new Range(range);
            }
        };
    }

    /**
     * Whether this condition keeps a statement from being public, as S3 judges a policy for Block
     * Public Access: it limits the source address to ranges narrower than every address
     * ({@code IpAddress} on {@code aws:SourceIp}), or it holds only for fixed values (no wildcard, no
     * policy variable) of a key that names the requester or its origin ({@code aws:SourceArn},
     * {@code aws:SourceVpc}, {@code aws:SourceVpce}, {@code aws:SourceOwner}, {@code aws:SourceAccount},
     * {@code aws:userid}, {@code s3:x-amz-server-side-encryption-aws-kms-key-id}). A negated operator,
     * {@code IfExists} or {@code ForAllValues:} holds for a request without the key, so limits nothing.
     */
    boolean limitsPublicAccess() {
        if (ifExists || qualifier == Qualifier.FOR_ALL_VALUES || operator.negated()) {
            return false;
        }
        String name = key.toLowerCase(Locale.ROOT);
        if (operator == ConditionOperator.IP_ADDRESS) {
            return name.equals("aws:sourceip")
                    && expected.stream().allMatch(value -> value instanceof Range range && range.range().prefixLength() > 0);
        }
        boolean equality = switch (operator) {
            case STRING_EQUALS, STRING_EQUALS_IGNORE_CASE, STRING_LIKE, ARN_EQUALS, ARN_LIKE -> true;
            default -> false;
        };
        return equality && FIXED_VALUE_KEYS.contains(name) && expected.stream().allMatch(Condition::isFixed);
    }

    private static boolean isFixed(Expected value) {
        return switch (value) {
            case Text text -> text.pattern().isFixed();
            case Arn arn -> arn.components().stream().allMatch(PolicyPattern::isFixed);
            default -> false;
        };
    }

    /** Whether the request satisfies this condition. */
    boolean holds(AccessRequest request) {
        List<String> actual = request.values(key);
        if (operator == ConditionOperator.NULL) {
            boolean absent = actual.isEmpty();
            return expected.stream().anyMatch(value -> ((Flag) value).value() == absent);
        }
        if (actual.isEmpty()) {
            if (ifExists) {
                return true;
            }
            return switch (qualifier) {
                case NONE -> operator.negated();
                case FOR_ANY_VALUE -> false;
                case FOR_ALL_VALUES -> true;
            };
        }
        Function<String, @Nullable String> variables = variableKey -> {
            List<String> values = request.values(variableKey);
            return values.isEmpty() ? null : values.getFirst();
        };
        Predicate<String> matchesSome = value -> expected.stream().anyMatch(policy -> matches(value, policy, variables));
        boolean negated = operator.negated();
        return switch (qualifier) {
            case NONE -> negated ? actual.stream().noneMatch(matchesSome) : actual.stream().anyMatch(matchesSome);
            case FOR_ANY_VALUE -> negated
                    ? actual.stream().anyMatch(matchesSome.negate())
                    : actual.stream().anyMatch(matchesSome);
            case FOR_ALL_VALUES -> negated
                    ? actual.stream().noneMatch(matchesSome)
                    : actual.stream().allMatch(matchesSome);
        };
    }

    /** The positive comparison of one request value with one policy value. */
    private boolean matches(String actual, Expected policy, Function<String, @Nullable String> variables) {
        ConditionOperator.Comparison comparison = operator.comparison();
        return switch (policy) {
            case Text text -> text.pattern().matches(
                    actual, comparison == ConditionOperator.Comparison.EQUAL_IGNORING_CASE, variables);
            case Arn arn -> arnMatches(actual, arn.components(), variables);
            case Numeric number -> {
                BigDecimal value = number(actual);
                yield value != null && compares(value.compareTo(number.value()), comparison);
            }
            case Time time -> {
                Instant value = time(actual);
                yield value != null && compares(value.compareTo(time.value()), comparison);
            }
            case Flag flag -> actual.strip().equalsIgnoreCase(Boolean.toString(flag.value()));
            case Bytes bytes -> {
                byte[] value = bytes(actual);
                yield value != null && Arrays.equals(value, bytes.value());
            }
            case Range range -> range.range().contains(actual);
        };
    }

    private static boolean compares(int order, ConditionOperator.Comparison comparison) {
        return switch (comparison) {
            case EQUAL, EQUAL_IGNORING_CASE, LIKE, IN_RANGE -> order == 0;
            case LESS -> order < 0;
            case LESS_OR_EQUAL -> order <= 0;
            case GREATER -> order > 0;
            case GREATER_OR_EQUAL -> order >= 0;
        };
    }

    /**
     * ARNs are compared component by component (partition, service, region, account, resource), so a
     * wildcard does not reach across a colon; an ARN pattern with fewer components is compared whole.
     */
    private static boolean arnMatches(
            String actual, List<PolicyPattern> components, Function<String, @Nullable String> variables) {
        if (components.size() == 1) {
            return components.getFirst().matches(actual, false, variables);
        }
        List<String> parts = arnComponents(actual);
        if (parts.size() != components.size()) {
            return false;
        }
        for (int i = 0; i < parts.size(); i++) {
            if (!components.get(i).matches(parts.get(i), false, variables)) {
                return false;
            }
        }
        return true;
    }

    /** The six components of {@code arn:partition:service:region:account:resource}, or the whole text. */
    private static List<String> arnComponents(String arn) {
        String[] parts = arn.split(":", 6);
        return parts.length == 6 ? List.of(parts) : List.of(arn);
    }

    private static @Nullable BigDecimal number(String text) {
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * A time as the policy language writes it: ISO 8601 ({@code 2024-06-01T12:00:00Z}, with an offset, or
     * a date alone, read as midnight UTC) or seconds since the epoch ({@code aws:EpochTime}).
     */
    static @Nullable Instant time(String text) {
        String value = text.strip();
        if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9') && value.length() <= 12) {
            return Instant.ofEpochSecond(Long.parseLong(value));
        }
        try {
            return OffsetDateTime.parse(value, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException notWithOffset) {
            // try the forms without an offset below
        }
        try {
            return LocalDateTime.parse(value, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notLocal) {
            // try a date alone
        }
        try {
            return LocalDate.parse(value, DateTimeFormatter.ISO_LOCAL_DATE).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException notADate) {
            return null;
        }
    }

    private static byte @Nullable [] bytes(String base64) {
        try {
            return Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static S3Exception invalidValue(String operatorName, String value) {
        return malformed("Invalid value in Conditions for operator " + operatorName + ": " + value);
    }

    private static S3Exception malformed(String message) {
        return new S3Exception(S3Error.MALFORMED_POLICY, message);
    }

    @Override
    public String toString() {
        return qualifier.prefix + operator.policyName() + (ifExists ? IF_EXISTS : "") + " " + key + " " + expected;
    }
}
