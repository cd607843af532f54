package dev.hangar.bench.lab;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A node's management port as the lab uses it, with the administration token: the cluster's state
 * ({@code /actuator/cluster}), layout changes, and the rounds each S3 request cost, from the node's own
 * Prometheus metrics ({@code hangar_cluster_rounds}).
 */
public final class AdminClient implements AutoCloseable {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int SCRAPE_ATTEMPTS = 3;
    /** {@code hangar_cluster_rounds_sum{kind="metadata",operation="PutObject",...} 12.0}, and {@code _count}. */
    private static final Pattern ROUNDS = Pattern.compile(
            "^hangar_cluster_rounds_(sum|count)\\{([^}]*)}\\s+(\\S+)$", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private final URI management;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    AdminClient(URI management, String token) {
        this.management = management;
        this.token = token;
    }

    /** The cluster's state as this node sees it; null while it does not answer. */
    public @Nullable JsonNode cluster() {
        try {
            HttpResponse<String> response = send(request("/actuator/cluster").GET());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : null;
        } catch (IOException | JacksonException e) {
            return null;
        }
    }

    /** Posts a change to {@code /actuator/cluster} (a JSON body); fails unless it is accepted. */
    void change(String body) {
        HttpResponse<String> response;
        try {
            response = send(request("/actuator/cluster").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach " + management + ": " + e, e);
        }
        if (response.statusCode() / 100 != 2) {
            throw new IllegalStateException("cluster change " + body + " refused: " + response.statusCode() + " "
                    + response.body());
        }
    }

    /**
     * The metadata rounds this node has counted so far per S3 operation: {@code {sum, count}} of
     * {@code hangar_cluster_rounds{kind="metadata"}}, summed over its other labels.
     */
    public Map<String, double[]> metadataRounds() throws IOException {
        // A scrape may time out on a loaded machine (the lab's containers share its cores): a few tries, since the
        // counters only grow and a later reading is as good as the first.
        IOException last = null;
        for (int attempt = 0; attempt < SCRAPE_ATTEMPTS; attempt++) {
            try {
                HttpResponse<String> response = send(request("/actuator/prometheus").GET());
                if (response.statusCode() == 200) {
                    return parseRounds(response.body());
                }
                last = new IOException("metrics of " + management + " answered " + response.statusCode());
            } catch (IOException e) {
                last = e;
            }
            pause();
        }
        throw last;
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    static Map<String, double[]> parseRounds(String exposition) {
        Map<String, double[]> byOperation = new HashMap<>();
        Matcher line = ROUNDS.matcher(exposition);
        while (line.find()) {
            Map<String, String> labels = new HashMap<>();
            Matcher label = LABEL.matcher(line.group(2));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            if (!"metadata".equals(labels.get("kind")) || labels.get("operation") == null) {
                continue;
            }
            double[] sumAndCount = byOperation.computeIfAbsent(labels.get("operation"), any -> new double[2]);
            sumAndCount["sum".equals(line.group(1)) ? 0 : 1] += Double.parseDouble(line.group(3));
        }
        return byOperation;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(management.resolve(path)).timeout(TIMEOUT).header("Authorization", "Bearer " + token);
    }

    @Override
    public void close() {
        http.close();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
