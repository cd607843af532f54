package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Micrometer timer {@code hangar.s3.requests} (tags operation and status, with latency buckets), the bytes
 * received and sent and the requests in flight per operation, on the management port's Prometheus endpoint;
 * the management port's own traffic is not counted, and nothing of the actuator is on the S3 port.
 */
class MetricsIT extends AbstractS3IT {

    // It counts the requests one server timed, on that server's management port: in a cluster, its
    // requests all go to the Spring test server, whose metrics these are.
    @Override
    protected boolean usesTheServersAdministration() {
        return true;
    }

    private static final String COUNT_SERIES = "hangar_s3_requests_seconds_count";
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    @Test
    void requestTimersPerOperationAndStatus() {
        String bucket = createBucket("metrics");
        double putsBefore = count("PutObject", "200");
        double missingBefore = count("GetObject", "404");

        s3.putObject(request -> request.bucket(bucket).key("measured"), RequestBody.fromString("measured"));
        s3.putObject(request -> request.bucket(bucket).key("measured-too"), RequestBody.fromString("measured"));
        s3.getObjectAsBytes(request -> request.bucket(bucket).key("measured"));
        s3.listObjectsV2(request -> request.bucket(bucket));
        assertS3Error(() -> s3.getObjectAsBytes(request -> request.bucket(bucket).key("not-there")), 404, "NoSuchKey");

        assertThat(count("PutObject", "200")).isGreaterThanOrEqualTo(putsBefore + 2);
        assertThat(count("GetObject", "200")).isGreaterThanOrEqualTo(1);
        assertThat(count("ListObjectsV2", "200")).isGreaterThanOrEqualTo(1);
        assertThat(count("GetObject", "404")).isGreaterThanOrEqualTo(missingBefore + 1);
    }

    @Test
    void prometheusEndpointExposesTheTimerSeries() {
        s3.listBuckets();
        RawS3.Response scrape = scrape();
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.bodyText())
            .contains(COUNT_SERIES)
            .contains("hangar_s3_requests_seconds_sum")
            .contains("operation=\"ListBuckets\"");
    }

    @Test
    void theRequestTimerHasLatencyBuckets() {
        String bucket = createBucket("buckets");
        s3.putObject(request -> request.bucket(bucket).key("timed"), RequestBody.fromString("timed"));

        Map<String, Double> buckets = series("hangar_s3_requests_seconds_bucket", "PutObject", "200", "le");
        assertThat(buckets).as("PutObject's latency buckets by upper bound").containsKeys("0.005", "0.1", "1.0", "+Inf");
        assertThat(buckets.get("+Inf")).isGreaterThanOrEqualTo(1);
        assertThat(buckets.get("0.005")).isLessThanOrEqualTo(buckets.get("1.0"));
    }

    @Test
    void bytesReceivedAndSentPerOperation() {
        String bucket = createBucket("bytes");
        byte[] content = new byte[300_000];
        new java.util.Random(5).nextBytes(content);
        double receivedBefore = total("hangar_s3_received_bytes_total", "PutObject");
        double sentBefore = total("hangar_s3_sent_bytes_total", "GetObject");

        s3.putObject(request -> request.bucket(bucket).key("counted"), RequestBody.fromBytes(content));
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("counted")).asByteArray()).isEqualTo(content);

        // At least the content: a signed streaming upload adds its chunk signatures on the wire.
        assertThat(total("hangar_s3_received_bytes_total", "PutObject") - receivedBefore).isGreaterThanOrEqualTo(content.length);
        assertThat(total("hangar_s3_sent_bytes_total", "GetObject") - sentBefore).isGreaterThanOrEqualTo(content.length);
    }

    @Test
    void aResponseBeingSentIsInFlightUntilItEnds() throws Exception {
        String bucket = createBucket("in-flight");
        byte[] content = new byte[8 * MIB];
        s3.putObject(request -> request.bucket(bucket).key("slow"), RequestBody.fromBytes(content));
        double before = total("hangar_s3_requests_in_flight", "GetObject");

        // The client reads one byte and stops: the server's send window holds the rest of the response.
        var body = s3.getObject(request -> request.bucket(bucket).key("slow"));
        assertThat(body.read()).isZero();
        assertThat(total("hangar_s3_requests_in_flight", "GetObject")).as("GetObjects in flight while one is unread")
            .isGreaterThanOrEqualTo(before + 1);
        body.abort();

        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (total("hangar_s3_requests_in_flight", "GetObject") > before && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(total("hangar_s3_requests_in_flight", "GetObject"))
            .as("GetObjects in flight 30 s after the client closed the connection").isLessThanOrEqualTo(before);
    }

    @Test
    void theManagementPortsTrafficIsNotCountedAsS3Requests() {
        double before = total(COUNT_SERIES, "Unknown");
        for (int i = 0; i < 3; i++) {
            management("/actuator/health");
            scrape();
        }
        assertThat(total(COUNT_SERIES, "Unknown")).as("S3 requests of no operation after health probes and scrapes")
            .isEqualTo(before);
    }

    @Test
    void actuatorIsNotServedOnTheS3Port() {
        RawS3.Response response = raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/actuator/prometheus")).GET().build());
        assertThat(response.status()).isGreaterThanOrEqualTo(400);
        assertThat(response.bodyText()).doesNotContain(COUNT_SERIES);
    }

    private RawS3.Response scrape() {
        return management("/actuator/prometheus");
    }

    /**
     * A GET on the management port, bounded: a request that gets no answer in 60 s fails with the stacks of the
     * server's threads (it runs in this JVM), so that a stall shows where it is instead of running into the
     * test's timeout.
     */
    private RawS3.Response management(String path) {
        try {
            return raw.send(HttpRequest.newBuilder(URI.create(managementEndpoint() + path)).timeout(Duration.ofSeconds(60))
                .GET().build());
        } catch (java.io.UncheckedIOException e) {
            if (!(e.getCause() instanceof java.net.http.HttpTimeoutException)) {
                throw e;
            }
            StringBuilder stacks = new StringBuilder();
            Thread.getAllStackTraces().forEach((thread, frames) -> {
                stacks.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
                for (StackTraceElement frame : frames) {
                    stacks.append("    at ").append(frame).append('\n');
                }
            });
            throw new AssertionError("GET " + path + " on the management port got no answer in 60 s; the threads:\n"
                + stacks, e);
        }
    }

    /** The value of the series of {@code name} with this operation (summed over its other labels), 0 when absent. */
    private double total(String name, String operation) {
        double total = 0;
        for (Map.Entry<Map<String, String>, Double> series : parse(name).entrySet()) {
            if (operation.equals(series.getKey().get("operation"))) {
                total += series.getValue();
            }
        }
        return total;
    }

    /** The series of {@code name} with this operation and status, by the value of their label {@code by}. */
    private Map<String, Double> series(String name, String operation, String status, String by) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (Map.Entry<Map<String, String>, Double> series : parse(name).entrySet()) {
            Map<String, String> labels = series.getKey();
            if (operation.equals(labels.get("operation")) && status.equals(labels.get("status"))) {
                values.merge(labels.get(by), series.getValue(), Double::sum);
            }
        }
        return values;
    }

    private Map<Map<String, String>, Double> parse(String name) {
        RawS3.Response scrape = scrape();
        assertThat(scrape.status()).as("GET /actuator/prometheus on the management port").isEqualTo(200);
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)}\\s+(\\S+)");
        Map<Map<String, String>, Double> all = new LinkedHashMap<>();
        for (String text : scrape.bodyText().split("\n")) {
            Matcher series = line.matcher(text);
            if (!series.find()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            Matcher label = LABEL.matcher(series.group(1));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            all.merge(labels, Double.parseDouble(series.group(2)), Double::sum);
        }
        return all;
    }

    /** The count of the series with these tags, 0 when it does not exist (yet). */
    private double count(String operation, String status) {
        return series(COUNT_SERIES, operation, status, "status").getOrDefault(status, 0.0);
    }
}
