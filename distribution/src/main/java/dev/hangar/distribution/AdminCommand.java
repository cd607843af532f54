package dev.hangar.distribution;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -jar hangar.jar admin ...}: the administration API (docs/configuration.md, "Administration") from
 * the command line. Each command is one authenticated request to a running server's management port; the answer's
 * JSON is printed. The token is read from a file or the environment, never from the command line, where other
 * users of the machine could see it in the process list.
 */
final class AdminCommand {
    static final String DEFAULT_URL = "http://127.0.0.1:9001";
    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    /** What went wrong with a command line: printed with the usage, exit status 2. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /** One request to make: a JSON body for the administration endpoints, headers for the S3 API. */
    record Call(String method, String path, @Nullable Map<String, Object> body, Map<String, String> headers) {
        Call(String method, String path, @Nullable Map<String, Object> body) {
            this(method, path, body, Map.of());
        }
    }

    private AdminCommand() {}

    static int run(List<String> args, Map<String, String> environment, PrintStream out, PrintStream err) {
        try {
            Options options = Options.parse(args);
            if (options.help()) {
                out.print(usage());
                return 0;
            }
            Call call = call(options.words(), options.flags());
            String token = token(options, environment);
            return send(options.url(), token, call, out, err);
        } catch (UsageException e) {
            err.println("hangar admin: " + e.getMessage());
            err.print(usage());
            return CommandLine.USAGE_ERROR;
        }
    }

    /** The request a command stands for. */
    static Call call(List<String> words, Map<String, String> flags) throws UsageException {
        if (words.isEmpty()) {
            throw new UsageException("which command?");
        }
        String group = words.get(0);
        String command = words.size() > 1 ? words.get(1) : "";
        List<String> rest = words.size() > 2 ? words.subList(2, words.size()) : List.of();
        Flags given = new Flags(flags);
        Call call = switch (group + " " + command) {
            case "keys list" -> new Call("GET", "/actuator/accesskeys", null);
            case "keys show" -> new Call("GET", "/actuator/accesskeys/" + one(rest, "key id"), null);
            case "keys create" -> new Call("POST", "/actuator/accesskeys", given.body("bucket", "read", "write", "owner",
                    "create-buckets"));
            case "keys grant" -> new Call("POST", "/actuator/accesskeys/" + one(rest, "key id"),
                    given.body("bucket", "read", "write", "owner", "create-buckets"));
            case "keys revoke" -> new Call("DELETE", "/actuator/accesskeys/" + one(rest, "key id"), null);
            case "kms-keys list" -> new Call("GET", "/actuator/kmskeys", null);
            case "kms-keys show" -> new Call("GET", "/actuator/kmskeys/" + one(rest, "key id"), null);
            case "kms-keys create" -> new Call("POST", "/actuator/kmskeys", given.body("description"));
            case "kms-keys enable" -> new Call("POST", "/actuator/kmskeys/" + one(rest, "key id"), Map.of("enabled", true));
            case "kms-keys disable" -> new Call("POST", "/actuator/kmskeys/" + one(rest, "key id"),
                    Map.of("enabled", false));
            case "kms-keys rewrap" -> new Call("POST", "/actuator/kmskeys", Map.of("action", "rewrap"));
            case "buckets list" -> new Call("GET", ManagementPortConfiguration.ADMIN_S3_PATH + "/", null);
            case "buckets create" -> {
                String bucket = bucketName(one(rest, "bucket name"));
                Map<String, String> headers = Boolean.TRUE.equals(given.body("object-lock").get("objectLock"))
                        ? Map.of("x-amz-bucket-object-lock-enabled", "true")
                        : Map.of();
                yield new Call("PUT", ManagementPortConfiguration.ADMIN_S3_PATH + "/" + bucket, null, headers);
            }
            case "buckets delete" -> new Call("DELETE",
                    ManagementPortConfiguration.ADMIN_S3_PATH + "/" + bucketName(one(rest, "bucket name")), null);
            case "lifecycle status" -> new Call("GET", "/actuator/lifecycle", null);
            case "lifecycle run" -> new Call("POST", "/actuator/lifecycle", given.body("bucket", "as-of"));
            case "storage status" -> new Call("GET", "/actuator/storage", null);
            case "storage compact" -> new Call("POST", "/actuator/storage", Map.of("action", "compact"));
            case "storage scrub" -> {
                Map<String, Object> body = given.body("wait", "orphan-grace");
                body.put("action", "scrub");
                yield new Call("POST", "/actuator/storage", body);
            }
            case "cluster status", "layout show" -> new Call("GET", "/actuator/cluster", null);
            case "layout stage" -> {
                Map<String, Object> body = given.body("zone", "capacity");
                body.put("action", "stage");
                body.put("node", one(rest, "node id"));
                yield new Call("POST", "/actuator/cluster", body);
            }
            case "layout remove" -> new Call("POST", "/actuator/cluster", Map.of("action", "remove", "node", one(rest, "node id")));
            case "layout clear" -> new Call("POST", "/actuator/cluster", Map.of("action", "clear"));
            case "layout apply" -> new Call("POST", "/actuator/cluster",
                    Map.of("action", "apply", "version", whole(one(rest, "the current layout version"))));
            default -> throw new UsageException("unknown command '" + String.join(" ", words) + "'");
        };
        given.requireAllUsed();
        boolean takesArgument = List.of("keys show", "keys grant", "keys revoke", "buckets create", "buckets delete",
                        "kms-keys show", "kms-keys enable", "kms-keys disable",
                        "layout stage", "layout remove", "layout apply")
                .contains(group + " " + command);
        if (!takesArgument && !rest.isEmpty()) {
            throw new UsageException("'" + group + " " + command + "' takes no argument, got " + rest);
        }
        return call;
    }

    private static String one(List<String> rest, String what) throws UsageException {
        if (rest.size() != 1) {
            throw new UsageException("give one " + what + (rest.isEmpty() ? "" : ", got " + rest));
        }
        return rest.get(0);
    }

    /** A bucket name as S3 takes it: checked here so that a typo is not sent as a path. */
    private static String bucketName(String name) throws UsageException {
        String problem = dev.hangar.s3api.semantics.BucketNames.problem(name);
        if (problem != null) {
            throw new UsageException("'" + name + "' is not a bucket name: " + problem);
        }
        return name;
    }

    private static long whole(String text) throws UsageException {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new UsageException("not a whole number: " + text);
        }
    }

    private static String token(Options options, Map<String, String> environment) throws UsageException {
        Path file = options.tokenFile();
        if (file == null) {
            String variable = environment.get("HANGAR_ADMIN_TOKEN");
            if (variable != null && !variable.isBlank()) {
                return variable.strip();
            }
            file = Path.of(environment.getOrDefault("HANGAR_DATA_DIR", "./data"), "admin-token");
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (java.nio.file.NoSuchFileException e) {
            throw new UsageException("no administration token file " + file
                    + ": give --token-file, or set HANGAR_ADMIN_TOKEN or HANGAR_DATA_DIR");
        } catch (IOException e) {
            throw new UsageException("cannot read the administration token from " + file + " (" + e.getMessage()
                    + "): give --token-file, or set HANGAR_ADMIN_TOKEN");
        }
    }

    private static int send(URI base, String token, Call call, PrintStream out, PrintStream err) {
        HttpRequest.BodyPublisher body = call.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(call.body()));
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(call.path()))
                .timeout(Duration.ofMinutes(30)) // a scrub with "wait" answers when it is done
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json");
        call.headers().forEach(builder::header);
        HttpRequest request = builder.method(call.method(), body).build();
        HttpResponse<String> response;
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (ConnectException e) {
            err.println("hangar admin: nothing answers at " + base + " (is the server running? --url names another)");
            return 1;
        } catch (IOException e) {
            err.println("hangar admin: " + call.method() + " " + base.resolve(call.path()) + " failed: " + e);
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
        String text = pretty(response.body());
        boolean ok = response.statusCode() / 100 == 2;
        PrintStream target = ok ? out : err;
        if (!ok) {
            target.println("hangar admin: " + call.method() + " " + call.path() + " answered " + response.statusCode());
        }
        if (!text.isEmpty()) {
            target.println(text);
        }
        return ok ? 0 : 1;
    }

    private static String pretty(String body) {
        if (body.isBlank()) {
            return "";
        }
        try {
            JsonNode tree = JSON.readTree(body);
            return JSON.writeValueAsString(tree);
        } catch (RuntimeException notJson) {
            return body;
        }
    }

    static String usage() {
        return """
                Usage: java -jar hangar.jar admin [--url <management url>] [--token-file <file>] <command>

                Talks to a running server's administration API (docs/configuration.md, "Administration").
                  --url          the management endpoint (http://127.0.0.1:9001)
                  --token-file   the administration token's file; without it, HANGAR_ADMIN_TOKEN, else
                                 $HANGAR_DATA_DIR/admin-token (./data/admin-token). Never on the command line.

                Commands:
                  keys list | keys show <id> | keys revoke <id>
                  keys create [--bucket <b> [--read] [--write] [--owner]] [--create-buckets]
                  keys grant <id> [--bucket <b> [--read] [--write] [--owner]] [--create-buckets=true|false]
                  buckets list | buckets create <name> [--object-lock] | buckets delete <name>
                  kms-keys list | kms-keys show <id> | kms-keys create [--description <text>]
                  kms-keys enable <id> | kms-keys disable <id> | kms-keys rewrap   (SSE-KMS keys)
                  lifecycle status | lifecycle run [--bucket <b>] [--as-of <ISO-8601 instant>]
                  storage status | storage compact | storage scrub [--wait] [--orphan-grace <duration>]
                  cluster status | layout show
                  layout stage <node> [--zone <z>] [--capacity <n>] | layout remove <node> | layout clear
                  layout apply <current version>
                """;
    }

    /** The parsed command line: {@code --name value}, {@code --name=value} or a bare {@code --flag}, and words. */
    record Options(URI url, @Nullable Path tokenFile, boolean help, List<String> words, Map<String, String> flags) {
        private static final java.util.Set<String> VALUED = java.util.Set.of("url", "token-file", "bucket", "as-of",
                "orphan-grace", "zone", "capacity");

        static Options parse(List<String> args) throws UsageException {
            URI url = URI.create(DEFAULT_URL);
            Path tokenFile = null;
            boolean help = false;
            List<String> words = new ArrayList<>();
            Map<String, String> flags = new LinkedHashMap<>();
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                if (!arg.startsWith("--")) {
                    words.add(arg);
                    continue;
                }
                String name = arg.substring(2);
                String value = null;
                int equals = name.indexOf('=');
                if (equals >= 0) {
                    value = name.substring(equals + 1);
                    name = name.substring(0, equals);
                } else if (VALUED.contains(name)) {
                    if (i + 1 >= args.size()) {
                        throw new UsageException("--" + name + " needs a value");
                    }
                    value = args.get(++i);
                }
                switch (name) {
                    case "help" -> help = true;
                    case "url" -> url = URI.create(value.endsWith("/") ? value : value + "/");
                    case "token-file" -> tokenFile = Path.of(value);
                    default -> flags.put(name, value == null ? "true" : value);
                }
            }
            return new Options(url, tokenFile, help, words, flags);
        }
    }

    /** The flags of one command, each taken once into the request body; one left over is refused. */
    private static final class Flags {
        private static final java.util.Set<String> BOOLEAN = java.util.Set.of("read", "write", "owner", "create-buckets", "wait",
                "object-lock");
        private final Map<String, String> left;

        Flags(Map<String, String> flags) {
            this.left = new LinkedHashMap<>(flags);
        }

        /** A body of the given flags, named as the API names them (camel case). */
        Map<String, Object> body(String... names) throws UsageException {
            Map<String, Object> body = new LinkedHashMap<>();
            for (String name : names) {
                String value = left.remove(name);
                if (value == null) {
                    continue;
                }
                Object typed = value;
                if (BOOLEAN.contains(name)) {
                    if (!value.equals("true") && !value.equals("false")) {
                        throw new UsageException("--" + name + " is true or false, got " + value);
                    }
                    typed = Boolean.parseBoolean(value);
                } else if (name.equals("capacity")) {
                    typed = whole(value);
                }
                body.put(camel(name), typed);
            }
            return body;
        }

        void requireAllUsed() throws UsageException {
            if (!left.isEmpty()) {
                throw new UsageException("this command takes no " + left.keySet().stream().map(name -> "--" + name).toList());
            }
        }

        private static String camel(String name) {
            StringBuilder text = new StringBuilder();
            boolean upper = false;
            for (char c : name.toCharArray()) {
                if (c == '-') {
                    upper = true;
                } else {
                    text.append(upper ? Character.toUpperCase(c) : c);
                    upper = false;
                }
            }
            return text.toString();
        }
    }
}
