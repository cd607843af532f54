package dev.hangar.s3api.access;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and validates a bucket policy document, answering invalid ones with {@code MalformedPolicy}
 * and the message AWS S3 gives for the same mistake.
 */
final class PolicyParser {
    static final String VERSION_2012 = "2012-10-17";
    static final String VERSION_2008 = "2008-10-17";

    private static final String S3_ARN_PREFIX = "arn:aws:s3:::";
    private static final Set<String> POLICY_FIELDS = Set.of("Version", "Id", "Statement");
    private static final Set<String> STATEMENT_FIELDS = Set.of(
            "Sid", "Effect", "Principal", "NotPrincipal", "Action", "NotAction", "Resource", "NotResource", "Condition");

    /** Duplicate keys are refused: a reviewer must not read one {@code Effect} while Hangar applies another. */
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private PolicyParser() {}

    static BucketPolicy parse(String json, String bucket) {
        if (json.isEmpty() || json.charAt(0) != '{') {
            throw malformed("Policies must be valid JSON and the first byte must be '{'");
        }
        if (json.getBytes(StandardCharsets.UTF_8).length > BucketPolicy.MAXIMUM_BYTES) {
            throw malformed("Policy exceeds the maximum allowed document size.");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw malformed("This policy contains invalid Json");
        }
        if (root == null || !root.isObject()) {
            throw malformed("This policy contains invalid Json");
        }
        for (String field : root.propertyNames()) {
            if (!POLICY_FIELDS.contains(field)) {
                throw malformed("Unknown field " + field);
            }
        }
        String version = VERSION_2008;
        JsonNode versionNode = root.get("Version");
        if (versionNode != null) {
            if (!versionNode.isString()
                    || !(versionNode.stringValue().equals(VERSION_2012) || versionNode.stringValue().equals(VERSION_2008))) {
                throw malformed("The policy must contain a valid version string");
            }
            version = versionNode.stringValue();
        }
        String id = null;
        JsonNode idNode = root.get("Id");
        if (idNode != null) {
            if (!idNode.isString()) {
                throw syntaxError();
            }
            id = idNode.stringValue();
        }
        JsonNode statementNode = root.get("Statement");
        if (statementNode == null) {
            throw malformed("Missing required field Statement");
        }
        List<JsonNode> statementNodes = new ArrayList<>();
        if (statementNode.isObject()) {
            statementNodes.add(statementNode);
        } else if (statementNode.isArray()) {
            statementNode.values().forEach(statementNodes::add);
        } else {
            throw syntaxError();
        }
        if (statementNodes.isEmpty()) {
            throw malformed("Could not parse the policy: Statement is empty!");
        }
        boolean variables = version.equals(VERSION_2012);
        List<Statement> statements = new ArrayList<>();
        Set<String> sids = new HashSet<>();
        for (JsonNode node : statementNodes) {
            Statement statement = statement(node, bucket, variables);
            if (statement.sid() != null && !statement.sid().isEmpty() && !sids.add(statement.sid())) {
                throw malformed("Statement IDs (SID) in a single policy must be unique.");
            }
            statements.add(statement);
        }
        return new BucketPolicy(json, bucket, version, id, statements);
    }

    private static Statement statement(JsonNode node, String bucket, boolean variables) {
        if (!node.isObject()) {
            throw syntaxError();
        }
        for (String field : node.propertyNames()) {
            if (!STATEMENT_FIELDS.contains(field)) {
                throw malformed("Unknown field " + field);
            }
        }
        String sid = null;
        JsonNode sidNode = node.get("Sid");
        if (sidNode != null) {
            if (!sidNode.isString()) {
                throw syntaxError();
            }
            sid = sidNode.stringValue();
        }
        Statement.Effect effect = effect(node.get("Effect"));

        JsonNode principalNode = either(node, "Principal", "NotPrincipal");
        Principals principals = principals(principalNode);

        JsonNode actionNode = either(node, "Action", "NotAction");
        boolean notAction = node.has("NotAction");
        List<PolicyPattern> actions = new ArrayList<>();
        EnumSet<S3Action.Scope> actionScopes = EnumSet.noneOf(S3Action.Scope.class);
        List<Set<S3Action.Scope>> scopesPerAction = new ArrayList<>();
        for (String text : strings(actionNode, notAction ? "NotAction" : "Action")) {
            PolicyPattern pattern = PolicyPattern.parse(text, true, false);
            Set<S3Action.Scope> scopes = actionScopes(pattern);
            actions.add(pattern);
            actionScopes.addAll(scopes);
            scopesPerAction.add(scopes);
        }

        JsonNode resourceNode = either(node, "Resource", "NotResource");
        boolean notResource = node.has("NotResource");
        List<PolicyPattern> resources = new ArrayList<>();
        EnumSet<S3Action.Scope> resourceScopes = EnumSet.noneOf(S3Action.Scope.class);
        for (String text : strings(resourceNode, notResource ? "NotResource" : "Resource")) {
            resourceScopes.addAll(resourceScopes(text, bucket));
            resources.add(PolicyPattern.parse(text, true, variables));
        }
        if (!notAction && !notResource) {
            for (Set<S3Action.Scope> scopes : scopesPerAction) {
                if (scopes.stream().noneMatch(resourceScopes::contains)) {
                    throw malformed("Action does not apply to any resource(s) in statement");
                }
            }
        }

        List<Condition> conditions = conditions(node.get("Condition"), variables);
        return new Statement(sid, effect, principals, node.has("NotPrincipal"), actions, notAction, resources,
                notResource, conditions);
    }

    private static Statement.Effect effect(@Nullable JsonNode node) {
        if (node == null) {
            throw malformed("Missing required field Effect");
        }
        if (node.isString()) {
            switch (node.stringValue()) {
                case "Allow" -> {
                    return Statement.Effect.ALLOW;
                }
                case "Deny" -> {
                    return Statement.Effect.DENY;
                }
                default -> {
                    // answered below
                }
            }
        }
        throw malformed("Invalid effect: " + (node.isString() ? node.stringValue() : node.toString()));
    }

    /** The one of a pair of exclusive elements ({@code Action} / {@code NotAction}, …) the statement has. */
    private static JsonNode either(JsonNode statement, String element, String negated) {
        JsonNode positive = statement.get(element);
        JsonNode negative = statement.get(negated);
        if (positive != null && negative != null) {
            throw syntaxError();
        }
        if (positive == null && negative == null) {
            throw malformed("Missing required field " + element);
        }
        return positive != null ? positive : negative;
    }

    /** A string or a non-empty array of strings. */
    private static List<String> strings(JsonNode node, String element) {
        if (node.isString()) {
            return List.of(node.stringValue());
        }
        if (!node.isArray()) {
            throw syntaxError();
        }
        List<String> values = new ArrayList<>();
        for (JsonNode value : node.values()) {
            if (!value.isString()) {
                throw syntaxError();
            }
            values.add(value.stringValue());
        }
        if (values.isEmpty()) {
            throw malformed("Missing required field " + element.replace("Not", ""));
        }
        return values;
    }

    private static Principals principals(JsonNode node) {
        if (node.isString()) {
            if (node.stringValue().equals("*")) {
                return new Principals(true, Set.of());
            }
            throw invalidPrincipal();
        }
        if (!node.isObject() || node.isEmpty()) {
            throw invalidPrincipal();
        }
        boolean everyone = false;
        Set<String> ids = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            List<String> values = principalValues(entry.getValue());
            switch (entry.getKey()) {
                case "AWS" -> {
                    for (String value : values) {
                        if (value.equals("*")) {
                            everyone = true;
                        } else {
                            ids.add(accessKeyId(value));
                        }
                    }
                }
                case "CanonicalUser" -> {
                    for (String value : values) {
                        ids.add(accessKeyId(value));
                    }
                }
                case "Service", "Federated" -> {
                    // Valid on AWS; Hangar has no such principals, so these never match a request.
                    if (values.stream().anyMatch(String::isBlank)) {
                        throw invalidPrincipal();
                    }
                }
                default -> throw invalidPrincipal();
            }
        }
        return new Principals(everyone, ids);
    }

    private static List<String> principalValues(JsonNode node) {
        if (node.isString()) {
            return List.of(node.stringValue());
        }
        if (!node.isArray() || node.isEmpty()) {
            throw invalidPrincipal();
        }
        List<String> values = new ArrayList<>();
        for (JsonNode value : node.values()) {
            if (!value.isString()) {
                throw invalidPrincipal();
            }
            values.add(value.stringValue());
        }
        return values;
    }

    /**
     * The access key id a principal names: the id itself, or the trailing id of an IAM ARN
     * ({@code arn:aws:iam::<id>:root}, {@code arn:aws:iam::<account>:user/<path>/<id>}).
     */
    static String accessKeyId(String value) {
        String id = value;
        if (value.startsWith("arn:")) {
            String[] parts = value.split(":", 6);
            if (parts.length != 6 || parts[1].isEmpty() || !parts[2].equals("iam") || !parts[3].isEmpty()) {
                throw invalidPrincipal();
            }
            String resource = parts[5];
            if (resource.equals("root")) {
                id = parts[4];
            } else if (resource.startsWith("user/")) {
                id = resource.substring(resource.lastIndexOf('/') + 1);
            } else {
                throw invalidPrincipal();
            }
        }
        if (id.isEmpty() || id.chars().anyMatch(c -> c == '*' || c == '?' || c == ':' || Character.isWhitespace(c))) {
            throw invalidPrincipal();
        }
        return id;
    }

    /** The scopes of the known S3 actions an action pattern covers; refuses a pattern that covers none. */
    private static Set<S3Action.Scope> actionScopes(PolicyPattern pattern) {
        String text = pattern.text();
        boolean s3 = text.equals("*") || text.regionMatches(true, 0, "s3:", 0, 3);
        EnumSet<S3Action.Scope> scopes = EnumSet.noneOf(S3Action.Scope.class);
        if (s3) {
            for (S3Action action : S3Action.values()) {
                if (pattern.matches(action.iamName(), true)) {
                    scopes.add(action.scope());
                }
            }
        }
        if (scopes.isEmpty()) {
            throw malformed("Policy has invalid action");
        }
        return scopes;
    }

    /**
     * What a resource covers: {@code *} the bucket and its objects, {@code arn:aws:s3:::bucket} the
     * bucket, {@code arn:aws:s3:::bucket/...} objects. Any other bucket, or anything else, is refused.
     */
    private static Set<S3Action.Scope> resourceScopes(String resource, String bucket) {
        if (resource.equals("*")) {
            return EnumSet.of(S3Action.Scope.BUCKET, S3Action.Scope.OBJECT);
        }
        if (!resource.startsWith(S3_ARN_PREFIX)) {
            throw malformed("Policy has invalid resource");
        }
        String path = resource.substring(S3_ARN_PREFIX.length());
        int slash = path.indexOf('/');
        String resourceBucket = slash < 0 ? path : path.substring(0, slash);
        if (!resourceBucket.equals(bucket)) {
            throw malformed("Policy has invalid resource");
        }
        return EnumSet.of(slash < 0 ? S3Action.Scope.BUCKET : S3Action.Scope.OBJECT);
    }

    private static List<Condition> conditions(@Nullable JsonNode node, boolean variables) {
        if (node == null) {
            return List.of();
        }
        if (!node.isObject()) {
            throw syntaxError();
        }
        List<Condition> conditions = new ArrayList<>();
        for (Map.Entry<String, JsonNode> operator : node.properties()) {
            if (!operator.getValue().isObject()) {
                throw syntaxError();
            }
            for (Map.Entry<String, JsonNode> key : operator.getValue().properties()) {
                conditions.add(Condition.parse(operator.getKey(), key.getKey(), scalars(key.getValue()), variables));
            }
        }
        return conditions;
    }

    /** Condition values: strings, numbers or booleans, alone or in an array, as text. */
    private static List<String> scalars(JsonNode node) {
        if (node.isArray()) {
            List<String> values = new ArrayList<>();
            for (JsonNode value : node.values()) {
                values.add(scalar(value));
            }
            return values;
        }
        return List.of(scalar(node));
    }

    private static String scalar(JsonNode node) {
        if (node.isString()) {
            return node.stringValue();
        }
        if (node.isNumber() || node.isBoolean()) {
            return node.asString().toLowerCase(Locale.ROOT);
        }
        throw syntaxError();
    }

    private static S3Exception invalidPrincipal() {
        return malformed("Invalid principal in policy");
    }

    private static S3Exception syntaxError() {
        return malformed("Syntax errors in policy.");
    }

    private static S3Exception malformed(String message) {
        return new S3Exception(S3Error.MALFORMED_POLICY, message);
    }
}
