package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Micrometer timer {@code hangar.s3.requests} (tags operation and status) on the management
 * port's Prometheus endpoint, and nothing of the actuator on the S3 port.
 */
class MetricsIT extends AbstractS3IT {

    // It counts the requests one server timed, on that server's management port: in a cluster, its
    // requests all go to the Spring test server, whose metrics these are.
    @Override
    protected boolean usesTheServersAdministration() {
        return true;
    }

    private static final String COUNT_SERIES = "hangar_s3_requests_seconds_count";
    private static final Pattern SERIES_LINE = Pattern.compile("^" + COUNT_SERIES + "\\{([^}]*)}\\s+(\\S+)");
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
    void actuatorIsNotServedOnTheS3Port() {
        RawS3.Response response = raw.send(HttpRequest.newBuilder(URI.create(endpoint() + "/actuator/prometheus")).GET().build());
        assertThat(response.status()).isGreaterThanOrEqualTo(400);
        assertThat(response.bodyText()).doesNotContain(COUNT_SERIES);
    }

    private RawS3.Response scrape() {
        return raw.send(HttpRequest.newBuilder(URI.create(managementEndpoint() + "/actuator/prometheus")).GET().build());
    }

    /** The count of the series with these tags, 0 when it does not exist (yet). */
    private double count(String operation, String status) {
        RawS3.Response scrape = scrape();
        assertThat(scrape.status()).as("GET /actuator/prometheus on the management port").isEqualTo(200);
        double total = 0;
        for (String line : scrape.bodyText().split("\n")) {
            Matcher series = SERIES_LINE.matcher(line);
            if (!series.find()) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            Matcher label = LABEL.matcher(series.group(1));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            if (operation.equals(labels.get("operation")) && status.equals(labels.get("status"))) {
                total += Double.parseDouble(series.group(2));
            }
        }
        return total;
    }
}
