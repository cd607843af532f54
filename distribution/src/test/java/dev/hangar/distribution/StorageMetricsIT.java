package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RandomContent;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The {@code hangar.storage.*} gauges and counters on the management port's Prometheus endpoint, and the
 * {@code /actuator/storage} status, after some PUTs of packed-size objects to the shared server.
 */
class StorageMetricsIT extends AbstractS3IT {
    private static final int OBJECTS = 8;

    @Test
    void storageMetricsReflectWhatWasWritten() {
        String bucket = createBucket("storage-metrics");
        long bytes = 0;
        for (int i = 0; i < OBJECTS; i++) {
            RandomContent content = RandomContent.of(500 + i, 10_000 + 3_000L * i);
            bytes += content.size();
            String key = "packed-" + i;
            s3.putObject(request -> request.bucket(bucket).key(key), content.requestBody());
        }

        // Storage statistics are sampled at most every 100 ms: a scrape just before the PUTs may
        // still be what the next one shows.
        String scrape = scrape();
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (value(scrape, "hangar_storage_packed_chunks") < OBJECTS && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            scrape = scrape();
        }

        assertThat(value(scrape, "hangar_storage_objects")).isGreaterThanOrEqualTo(OBJECTS);
        assertThat(value(scrape, "hangar_storage_bytes")).isGreaterThanOrEqualTo(bytes);
        assertThat(value(scrape, "hangar_storage_buckets")).isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "hangar_storage_segment_files")).isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "hangar_storage_segment_bytes")).isGreaterThanOrEqualTo(bytes);
        assertThat(value(scrape, "hangar_storage_packed_chunks")).isGreaterThanOrEqualTo(OBJECTS);
        assertThat(value(scrape, "hangar_storage_garbage_ratio")).isBetween(0.0, 1.0);
        // The shared server syncs every write (sync=always): packed writes are acknowledged by group commits.
        double groupCommits = value(scrape, "hangar_storage_group_commits_total");
        assertThat(groupCommits).isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "hangar_storage_group_commit_writes_total")).isGreaterThanOrEqualTo(groupCommits);
        assertThat(value(scrape, "hangar_storage_group_commit_largest")).isGreaterThanOrEqualTo(1);
        assertThat(value(scrape, "hangar_storage_fsyncs_total")).isGreaterThanOrEqualTo(groupCommits);
        assertThat(value(scrape, "hangar_storage_corrupt_blocks_total")).isGreaterThanOrEqualTo(0);
        assertThat(value(scrape, "hangar_storage_compaction_segments_total")).isGreaterThanOrEqualTo(0);
        assertThat(value(scrape, "hangar_storage_compaction_reclaimed_bytes_total")).isGreaterThanOrEqualTo(0);
        assertThat(value(scrape, "hangar_storage_scrub_running")).isBetween(0.0, 1.0);
        for (String series : new String[] {"hangar_storage_scrub_checked_blocks", "hangar_storage_scrub_checked_bytes",
                "hangar_storage_scrub_corrupt_blocks", "hangar_storage_scrub_missing_blocks",
                "hangar_storage_scrub_failed_checks", "hangar_storage_scrub_orphans_removed",
                "hangar_storage_scrub_last_completed_seconds", "hangar_storage_scrubs_total"}) {
            assertThat(value(scrape, series)).as(series).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void storageEndpointShowsStatisticsScrubProgressAndSettings() {
        String bucket = createBucket("storage-status");
        s3.putObject(request -> request.bucket(bucket).key("one"), RandomContent.of(600, 20_000).requestBody());

        AdminApi.Response response = new AdminApi(managementEndpoint(), http).get("/actuator/storage");

        assertThat(response.status()).as("GET /actuator/storage: %s", response.body()).isEqualTo(200);
        JsonNode status = response.json();
        assertThat(status.get("stored").get("objects").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(status.get("stored").get("bytes").asLong()).isGreaterThanOrEqualTo(20_000);
        assertThat(status.get("blocks").get("segmentFiles").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(status.get("blocks").has("garbageRatio")).isTrue();
        assertThat(status.get("scrub").has("running")).isTrue();
        assertThat(status.get("settings").get("compactionInterval").asString()).isEqualTo("PT10M");
        assertThat(status.get("settings").get("scrubInterval").asString()).isEqualTo("PT168H");
        assertThat(status.get("settings").get("scrubBytesPerSecond").asLong()).isEqualTo(16L << 20);
        assertThat(status.get("settings").get("orphanGrace").asString()).isEqualTo("PT24H");
    }

    private String scrape() {
        AdminApi.Response response = new AdminApi(managementEndpoint(), http).get("/actuator/prometheus");
        assertThat(response.status()).as("GET /actuator/prometheus on the management port").isEqualTo(200);
        return response.body();
    }

    private static double value(String scrape, String series) {
        OptionalDouble value = DedicatedServer.prometheusValue(scrape, series);
        assertThat(value).as("series %s in the Prometheus scrape", series).isPresent();
        return value.getAsDouble();
    }
}
