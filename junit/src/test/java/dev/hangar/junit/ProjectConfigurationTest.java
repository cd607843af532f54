package dev.hangar.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A project's own application.yml on the test class path (this module's test resources have one that turns
 * the web server off) does not configure the Hangar run beside it: the server still serves S3, and its
 * management port answers as Hangar's own configuration sets it up.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ProjectConfigurationTest {

    @Test
    void hangarReadsItsOwnConfigurationNotTheProjects() throws Exception {
        try (HangarServer server = HangarServer.start(HangarOptions.defaults().withInMemory(true))) {
            S3Client s3 = server.newClient();
            assertThat(s3.listBuckets().buckets()).isEmpty();
            try (HttpClient http = HttpClient.newHttpClient()) {
                HttpResponse<String> readiness = http.send(HttpRequest.newBuilder(
                    URI.create(server.managementEndpoint() + "/actuator/health/readiness")).build(),
                    HttpResponse.BodyHandlers.ofString());
                assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(200);
            }
        }
    }
}
