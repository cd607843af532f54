package dev.hangar.s3api.post;

import static dev.hangar.s3api.post.PostPolicy.invalid;

import dev.hangar.s3api.S3Exception;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a POST policy document with Jackson's tree model. The messages are the ones S3 was recorded
 * answering where a recording exists ("Invalid JSON.", "Invalid Simple-Condition: ...", "Unexpected: ...",
 * "Invalid 'expiration' value: ..."); the others follow their pattern.
 */
final class PostPolicyReader {
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** ISO 8601 in UTC, as S3 accepts it: {@code T} and {@code Z} required, fraction of a second optional. */
    private static final Pattern EXPIRATION = Pattern.compile(
            "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z");
    private static final Pattern DECIMAL_INTEGER = Pattern.compile("\\d{1,18}");

    private static final String INVALID_JSON = "Invalid JSON.";

    private PostPolicyReader() {
    }

    static PostPolicy read(String base64Policy) {
        JsonNode root = parseJson(decode(base64Policy));
        if (!root.isObject()) {
            throw invalid(INVALID_JSON);
        }
        for (String name : root.propertyNames()) {
            if (!name.equals("expiration") && !name.equals("conditions")) {
                throw invalid("Unexpected: '" + name.toLowerCase(Locale.ROOT) + "'");
            }
        }
        Instant expiration = expiration(root.get("expiration"));
        JsonNode conditions = root.get("conditions");
        if (conditions == null) {
            throw invalid("Policy missing conditions.");
        }
        if (!conditions.isArray()) {
            throw invalid("Invalid 'conditions' value: must be a List.");
        }
        List<PostCondition> read = new ArrayList<>(conditions.size());
        for (JsonNode condition : conditions.values()) {
            read.add(condition(condition));
        }
        return new PostPolicy(expiration, read);
    }

    private static String decode(String base64Policy) {
        byte[] bytes;
        try {
            // Line breaks are the one thing a client might add to base64 text; anything else is an error.
            bytes = Base64.getDecoder().decode(base64Policy.replaceAll("[\\r\\n\\t ]", ""));
        } catch (IllegalArgumentException e) {
            throw invalid("invalid Base64 encoding.");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw invalid(INVALID_JSON);
        }
    }

    private static JsonNode parseJson(String json) {
        try {
            return JSON.readTree(json);
        } catch (JacksonException e) {
            throw invalid(INVALID_JSON);
        }
    }

    private static Instant expiration(JsonNode node) {
        if (node == null) {
            throw invalid("Policy missing expiration.");
        }
        String value = node.isString() ? node.stringValue() : node.toString();
        if (!node.isString() || !EXPIRATION.matcher(value).matches()) {
            throw invalidExpiration(value);
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw invalidExpiration(value);
        }
    }

    private static S3Exception invalidExpiration(String value) {
        return invalid("Invalid 'expiration' value: '" + value + "'");
    }

    private static PostCondition condition(JsonNode node) {
        if (node.isObject()) {
            return simpleCondition(node);
        }
        if (node.isArray()) {
            return arrayCondition(node);
        }
        throw invalid("Invalid condition test: must be a List or Object.");
    }

    /** {@code {"acl": "public-read"}}: an exact match on a field named without {@code $}. */
    private static PostCondition simpleCondition(JsonNode node) {
        if (node.size() != 1) {
            throw invalid("Invalid Simple-Condition: Simple-Conditions must have exactly one property specified.");
        }
        Map.Entry<String, JsonNode> member = node.properties().iterator().next();
        JsonNode value = member.getValue();
        if (value.isNull()) {
            throw invalid(INVALID_JSON);
        }
        if (!value.isString()) {
            throw invalid("Invalid Simple-Condition: value must be a string.");
        }
        String name = member.getKey();
        return new PostCondition.ExactMatch(name.toLowerCase(Locale.ROOT), value.stringValue(),
                render("eq", "$" + name, value.stringValue()));
    }

    private static PostCondition arrayCondition(JsonNode node) {
        if (node.isEmpty() || !node.get(0).isString()) {
            throw invalid("Invalid Condition: missing operation identifier.");
        }
        String operation = node.get(0).stringValue();
        return switch (operation.toLowerCase(Locale.ROOT)) {
            case "eq", "starts-with" -> matchCondition(operation, node);
            case "content-length-range" -> rangeCondition(operation, node);
            default -> throw invalid("Invalid Condition: unknown operation '" + operation + "'.");
        };
    }

    private static PostCondition matchCondition(String operation, JsonNode node) {
        if (node.size() != 3) {
            throw invalid("Invalid " + operation + ": wrong number of arguments.");
        }
        JsonNode name = node.get(1);
        JsonNode value = node.get(2);
        if (!name.isString() || !value.isString()) {
            throw invalid(INVALID_JSON);
        }
        String rendered = render(operation, name.stringValue(), value.stringValue());
        if (!name.stringValue().startsWith("$")) {
            return new PostCondition.Unsatisfiable(rendered);
        }
        String field = name.stringValue().substring(1).toLowerCase(Locale.ROOT);
        return operation.equalsIgnoreCase("eq")
                ? new PostCondition.ExactMatch(field, value.stringValue(), rendered)
                : new PostCondition.StartsWith(field, value.stringValue(), rendered);
    }

    /** Bounds are JSON integers or, as S3 also accepts, strings of digits; fractions are refused as S3 does. */
    private static PostCondition rangeCondition(String operation, JsonNode node) {
        if (node.size() != 3) {
            throw invalid("Invalid " + operation + ": wrong number of arguments.");
        }
        String rendered = "[" + jsonString(operation) + ", " + bound(node.get(1)) + ", " + bound(node.get(2)) + "]";
        long[] bounds = new long[2];
        for (int index = 0; index < 2; index++) {
            JsonNode bound = node.get(index + 1);
            if (bound.isIntegralNumber()) {
                if (!bound.canConvertToLong() || bound.longValue() < 0) {
                    throw invalid("Invalid " + operation + ": bounds must be integers from 0 to "
                            + Long.MAX_VALUE + ".");
                }
                bounds[index] = bound.longValue();
            } else if (bound.isString()) {
                if (!DECIMAL_INTEGER.matcher(bound.stringValue()).matches()) {
                    return new PostCondition.Unsatisfiable(rendered);
                }
                bounds[index] = Long.parseLong(bound.stringValue());
            } else {
                throw invalid(INVALID_JSON);
            }
        }
        return new PostCondition.ContentLengthRange(bounds[0], bounds[1], rendered);
    }

    private static String bound(JsonNode bound) {
        return bound.isString() ? jsonString(bound.stringValue()) : bound.toString();
    }

    /** {@code ["eq", "$key", "value"]}, as S3 prints a failed condition: JSON with ", " between the items. */
    private static String render(String operation, String name, String value) {
        return "[" + jsonString(operation) + ", " + jsonString(name) + ", " + jsonString(value) + "]";
    }

    static String jsonString(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            switch (character) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                case '\b' -> quoted.append("\\b");
                case '\f' -> quoted.append("\\f");
                default -> {
                    if (character < 0x20) {
                        quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) character));
                    } else {
                        quoted.append(character);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
