package dev.hangar.distribution.support;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Signature Version 2 computed by botocore, not by Hangar: {@code interop/sign_v2.py} run with the interop
 * venv's Python ({@code bash interop/setup.sh} installs it) signs requests with botocore's own {@code
 * HmacV1Auth}, {@code HmacV1QueryAuth} and boto3's {@code generate_presigned_post}. A test that needs it fails
 * with the install command when the venv is missing, unless {@code HANGAR_INTEROP=skip} asks to skip it.
 */
public final class BotocoreSigner {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long TIMEOUT_SECONDS = 120;

    private final Path python;
    private final Path script;
    private final String accessKey;
    private final String secretKey;

    private BotocoreSigner(Path python, Path script, String accessKey, String secretKey) {
        this.python = python;
        this.script = script;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
    }

    /** A signer for one key pair; fails (or, with {@code HANGAR_INTEROP=skip}, skips) when botocore is missing. */
    public static BotocoreSigner forKey(String accessKey, String secretKey) {
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().resolve("..").normalize();
        Path venv = Optional.ofNullable(System.getenv("INTEROP_VENV")).map(Path::of)
            .orElse(root.resolve("interop/.venv"));
        Path python = venv.resolve("bin/python");
        Path script = root.resolve("interop/sign_v2.py");
        if (!Files.isExecutable(python) || !Files.isRegularFile(script)) {
            String install = "botocore, which computes the Signature Version 2 signatures of this test, is missing ("
                + python + " or " + script + "); install it with `bash interop/setup.sh`, or set HANGAR_INTEROP=skip"
                + " to skip this test";
            boolean skip = "skip".equalsIgnoreCase(System.getProperty("HANGAR_INTEROP", ""))
                || "skip".equalsIgnoreCase(Optional.ofNullable(System.getenv("HANGAR_INTEROP")).orElse(""));
            assumeFalse(skip, install);
            throw new AssertionError(install);
        }
        return new BotocoreSigner(python, script, accessKey, secretKey);
    }

    /** The same signer with another key pair (an unknown key, a wrong secret). */
    public BotocoreSigner withKey(String otherAccessKey, String otherSecretKey) {
        return new BotocoreSigner(python, script, otherAccessKey, otherSecretKey);
    }

    /**
     * Signs with {@code Authorization: AWS key:signature}.
     *
     * @param headers the headers to send besides, which botocore signs as S3 says (Content-Type, Content-MD5,
     *     x-amz-*)
     * @param skewSeconds how far botocore's clock is moved from now
     * @param dateLine when not null, the Date line botocore signs instead of now (empty for a request that
     *     sends x-amz-date)
     * @return every header to send: the given ones, {@code Date} and {@code Authorization}
     */
    public Map<String, String> signHeader(String method, String url, Map<String, String> headers, long skewSeconds,
            String dateLine) {
        Map<String, Object> job = job("header");
        job.put("method", method);
        job.put("url", url);
        job.put("headers", headers);
        job.put("skew_seconds", skewSeconds);
        job.put("date_line", dateLine);
        Map<String, String> signed = new LinkedHashMap<>();
        run(job).get("headers").properties().forEach(entry -> signed.put(entry.getKey(), entry.getValue().asString()));
        return signed;
    }

    public Map<String, String> signHeader(String method, String url, Map<String, String> headers) {
        return signHeader(method, url, headers, 0, null);
    }

    /** A presigned URL ({@code AWSAccessKeyId}, {@code Signature}, {@code Expires} = now + expiresIn). */
    public String presign(String method, String url, Map<String, String> headers, long expiresInSeconds) {
        Map<String, Object> job = job("query");
        job.put("method", method);
        job.put("url", url);
        job.put("headers", headers);
        job.put("expires_in", expiresInSeconds);
        return run(job).get("url").asString();
    }

    /**
     * A browser upload's form: boto3's {@code generate_presigned_post} with Signature Version 2.
     *
     * @param fields extra fields (boto3 adds no condition for them: give one in conditions)
     * @param conditions extra conditions, as JSON values (objects or arrays)
     * @return the form's fields, in boto3's order: key, the extra fields, AWSAccessKeyId, policy, signature
     */
    public Map<String, String> presignPost(String endpoint, String bucket, String key, Map<String, String> fields,
            List<Object> conditions, long expiresInSeconds) {
        Map<String, Object> job = job("post");
        job.put("endpoint", endpoint);
        job.put("bucket", bucket);
        job.put("key", key);
        job.put("fields", fields);
        job.put("conditions", conditions);
        job.put("expires_in", expiresInSeconds);
        Map<String, String> form = new LinkedHashMap<>();
        run(job).get("fields").properties().forEach(entry -> form.put(entry.getKey(), entry.getValue().asString()));
        return form;
    }

    private Map<String, Object> job(String kind) {
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("kind", kind);
        job.put("access_key", accessKey);
        job.put("secret_key", secretKey);
        return job;
    }

    private JsonNode run(Map<String, Object> job) {
        List<String> command = new ArrayList<>(List.of(python.toString(), script.toString()));
        try {
            Process process = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .directory(new File(System.getProperty("user.dir")))
                .start();
            CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> readAll(process, false));
            CompletableFuture<byte[]> errors = CompletableFuture.supplyAsync(() -> readAll(process, true));
            try (OutputStream input = process.getOutputStream()) {
                input.write(JSON.writeValueAsBytes(List.of(job)));
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("interop/sign_v2.py did not answer within " + TIMEOUT_SECONDS + " s");
            }
            String out = new String(output.join(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new AssertionError("interop/sign_v2.py failed (exit " + process.exitValue() + "): "
                    + new String(errors.join(), StandardCharsets.UTF_8) + out);
            }
            return JSON.readTree(out).get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readAll(Process process, boolean errors) {
        try {
            return (errors ? process.getErrorStream() : process.getInputStream()).readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
