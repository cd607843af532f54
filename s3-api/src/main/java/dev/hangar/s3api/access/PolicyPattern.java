package dev.hangar.s3api.access;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A value of the policy language that is matched against a request value: an action, a resource
 * ARN, or a condition value.
 *
 * <p>With wildcards on, {@code *} matches any run of characters (slashes included) and {@code ?}
 * exactly one character; with them off, both are literal. With policy variables on (the
 * {@code 2012-10-17} language), {@code ${key}} is replaced by the request's value of that condition
 * key, {@code ${key, 'fallback'}} by the fallback when the request has none, and {@code ${*}},
 * {@code ${?}}, {@code ${$}} stand for the literal characters. A variable the request has no value
 * for, and no fallback, makes the pattern match nothing, as on AWS.
 */
final class PolicyPattern {

    private sealed interface Part {}

    private record Literal(String text) implements Part {}

    private record AnyRun() implements Part {}

    private record AnyOne() implements Part {}

    private record Variable(String key, @Nullable String fallback) implements Part {}

    private static final int ANY_RUN = -1;
    private static final int ANY_ONE = -2;

    private final String text;
    private final List<Part> parts;
    private final boolean hasVariables;
    /** The compiled form when there are no variables; resolved per request otherwise. */
    private final int @Nullable [] compiled;

    private PolicyPattern(String text, List<Part> parts) {
        this.text = text;
        this.parts = List.copyOf(parts);
        this.hasVariables = parts.stream().anyMatch(Variable.class::isInstance);
        this.compiled = hasVariables ? null : compile(this.parts, key -> null);
    }

    /** Parses a pattern; nothing in it is an error, since every text is a valid (possibly literal) pattern. */
    static PolicyPattern parse(String text, boolean wildcards, boolean variables) {
        List<Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int index = 0;
        while (index < text.length()) {
            char c = text.charAt(index);
            if (variables && c == '$' && text.startsWith("${", index)) {
                int end = text.indexOf('}', index + 2);
                if (end > 0) {
                    flush(literal, parts);
                    parts.add(variable(text.substring(index + 2, end)));
                    index = end + 1;
                    continue;
                }
            }
            if (wildcards && c == '*') {
                flush(literal, parts);
                parts.add(new AnyRun());
            } else if (wildcards && c == '?') {
                flush(literal, parts);
                parts.add(new AnyOne());
            } else {
                literal.append(c);
            }
            index++;
        }
        flush(literal, parts);
        return new PolicyPattern(text, parts);
    }

    private static Part variable(String body) {
        String inside = body.strip();
        return switch (inside) {
            case "*", "?", "$" -> new Literal(inside);
            default -> {
                int comma = inside.indexOf(',');
                if (comma > 0) {
                    String fallback = inside.substring(comma + 1).strip();
                    if (fallback.length() >= 2 && fallback.startsWith("'") && fallback.endsWith("'")) {
                        yield new Variable(inside.substring(0, comma).strip(),
                                fallback.substring(1, fallback.length() - 1));
                    }
                }
                yield new Variable(inside, null);
            }
        };
    }

    private static void flush(StringBuilder literal, List<Part> parts) {
        if (!literal.isEmpty()) {
            parts.add(new Literal(literal.toString()));
            literal.setLength(0);
        }
    }

    /** The pattern as written in the policy. */
    String text() {
        return text;
    }

    /** Whether the pattern names one value: no wildcard, no policy variable. */
    boolean isFixed() {
        return !hasVariables && !hasWildcards();
    }

    boolean hasWildcards() {
        return parts.stream().anyMatch(part -> part instanceof AnyRun || part instanceof AnyOne);
    }

    /**
     * Whether the value matches, variables resolved with {@code variables} (which answers null for a
     * key the request has no value of).
     */
    boolean matches(String value, boolean ignoreCase, Function<String, @Nullable String> variables) {
        int[] pattern = compiled != null ? compiled : compile(parts, variables);
        return pattern != null && glob(pattern, value.codePoints().toArray(), ignoreCase);
    }

    /** Whether the value matches a pattern that has no variables. */
    boolean matches(String value, boolean ignoreCase) {
        return matches(value, ignoreCase, key -> null);
    }

    /** Code points, with {@link #ANY_RUN} and {@link #ANY_ONE} for the wildcards; null if a variable is unresolved. */
    private static int @Nullable [] compile(List<Part> parts, Function<String, @Nullable String> variables) {
        List<Integer> codes = new ArrayList<>();
        for (Part part : parts) {
            switch (part) {
                case Literal literal -> literal.text().codePoints().forEach(codes::add);
                case AnyRun anyRun -> codes.add(ANY_RUN);
                case AnyOne anyOne -> codes.add(ANY_ONE);
                case Variable variable -> {
                    String value = variables.apply(variable.key());
                    if (value == null) {
                        value = variable.fallback();
                    }
                    if (value == null) {
                        return null;
                    }
                    value.codePoints().forEach(codes::add);
                }
            }
        }
        return codes.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Wildcard matching with a single backtracking point, linear in practice and O(n·m) at worst. */
    private static boolean glob(int[] pattern, int[] value, boolean ignoreCase) {
        int p = 0;
        int v = 0;
        int starAt = -1;
        int starMatched = 0;
        while (v < value.length) {
            if (p < pattern.length && pattern[p] == ANY_ONE) {
                p++;
                v++;
            } else if (p < pattern.length && pattern[p] >= 0 && same(pattern[p], value[v], ignoreCase)) {
                p++;
                v++;
            } else if (p < pattern.length && pattern[p] == ANY_RUN) {
                starAt = p++;
                starMatched = v;
            } else if (starAt >= 0) {
                p = starAt + 1;
                v = ++starMatched;
            } else {
                return false;
            }
        }
        while (p < pattern.length && pattern[p] == ANY_RUN) {
            p++;
        }
        return p == pattern.length;
    }

    private static boolean same(int a, int b, boolean ignoreCase) {
        return a == b || ignoreCase
                && (Character.toLowerCase(a) == Character.toLowerCase(b)
                        || Character.toUpperCase(a) == Character.toUpperCase(b));
    }

    @Override
    public String toString() {
        return text;
    }
}
