package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.cluster.ClusterNode;
import dev.hangar.distribution.support.RawS3;
import dev.hangar.distribution.support.S3Clients;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.client.ReactorResourceFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A Hangar server of one test class's own, for settings that the server {@link AbstractS3IT} shares cannot
 * have (a tiny segment size, maintenance only on demand) and for tests that tamper with the files on disk.
 * It runs in-process on random ports, in a data folder of its own, on Reactor Netty event loops of its own
 * (closing a server on the global ones would stop the shared server too), and is closed by the class.
 */
final class DedicatedServer implements AutoCloseable {
    private static final String ACCESS_KEY = "HANGARDEDICATEDKEY01";
    private static final String SECRET_KEY = "hangar-dedicated-secret-0123456789abcdefg";

    private final ConfigurableApplicationContext context;
    private final Path dataDir;
    private final S3Client s3;
    private final HttpClient http;
    private final URI management;

    private final int port;

    private DedicatedServer(ConfigurableApplicationContext context, Path dataDir, String accessKey, String secretKey) {
        this.context = context;
        this.dataDir = dataDir;
        this.port = ((WebServerApplicationContext) context).getWebServer().getPort();
        this.s3 = S3Clients.sync(URI.create("http://localhost:" + port), accessKey, secretKey);
        this.http = RawS3.newHttpClient();
        this.management = URI.create("http://localhost:" + context.getEnvironment().getProperty("local.management.port"));
    }

    /**
     * Starts a server on {@code dataDir} with these {@code hangar.*} settings ({@code "storage.sync=none"}, ...);
     * one that begins with {@code --} is another application argument, taken as it is ({@code --server.ssl...}).
     */
    static DedicatedServer start(Path dataDir, String... hangarSettings) {
        return startWithKeys(dataDir, ACCESS_KEY, SECRET_KEY, hangarSettings);
    }

    /** As {@link #start(Path, String...)}, with this root key pair (a cluster's nodes share one). */
    static DedicatedServer startWithKeys(Path dataDir, String accessKey, String secretKey, String... hangarSettings) {
        // Command-line arguments, not default properties: application.yml derives server.port and
        // management.server.port from hangar.* keys, and would override defaults.
        List<String> arguments = new ArrayList<>(List.of(
                "--hangar.data-dir=" + dataDir,
                "--hangar.root-access-key=" + accessKey,
                "--hangar.root-secret-key=" + secretKey,
                "--hangar.s3.region=" + S3Clients.REGION.id(),
                "--hangar.s3.port=0",
                "--server.port=0",
                "--hangar.management.port=0",
                "--management.server.port=0",
                "--hangar.website.enabled=false",
                "--hangar.admin.token=" + AdminApi.TOKEN));
        for (String setting : hangarSettings) {
            arguments.add(setting.startsWith("--") ? setting : "--hangar." + setting);
        }
        ConfigurableApplicationContext context = new SpringApplicationBuilder(HangarApplication.class)
                .initializers(initialized -> ((GenericApplicationContext) initialized).registerBean(
                        ReactorResourceFactory.class, () -> {
                            ReactorResourceFactory resources = new ReactorResourceFactory();
                            resources.setUseGlobalResources(false);
                            // Stopped servers take no more tasks: Reactor's 2 s quiet period would be paid by every stop.
                            resources.setShutdownQuietPeriod(java.time.Duration.ZERO);
                            return resources;
                        }))
                .run(arguments.toArray(String[]::new));
        return new DedicatedServer(context, dataDir, accessKey, secretKey);
    }

    /** The S3 port. */
    int port() {
        return port;
    }

    /** The storage service of this server, for tests that look behind the S3 API (a cluster node's replicas). */
    ClusterNode node() {
        return context.getBean(ClusterNode.class);
    }

    S3Client s3() {
        return s3;
    }

    Path dataDir() {
        return dataDir;
    }

    AdminApi admin() {
        return new AdminApi(management, http);
    }

    /** {@code http://localhost:<management port>}. */
    URI management() {
        return management;
    }

    /** The value of a Prometheus series on the management port, summed over its labels; it must be there. */
    double metric(String series) {
        OptionalDouble value = prometheusValue(scrape(), series);
        assertThat(value).as("series %s in the Prometheus scrape", series).isPresent();
        return value.getAsDouble();
    }

    /**
     * The value of a Prometheus series, summed over the lines whose labels include every one of
     * {@code labels} ({@code "operation=\"PutObject\""}, ...); 0 if there is none.
     */
    double metric(String series, String... labels) {
        Pattern line = Pattern.compile("^" + Pattern.quote(series) + "\\{([^}]*)}\\s+(\\S+)", Pattern.MULTILINE);
        Matcher matcher = line.matcher(scrape());
        double total = 0;
        while (matcher.find()) {
            String present = matcher.group(1);
            if (java.util.Arrays.stream(labels).allMatch(present::contains)) {
                total += Double.parseDouble(matcher.group(2));
            }
        }
        return total;
    }

    private String scrape() {
        AdminApi.Response response = admin().get("/actuator/prometheus");
        assertThat(response.status()).as("GET /actuator/prometheus").isEqualTo(200);
        return response.body();
    }

    /** The value of {@code series} in a Prometheus scrape, summed over its labels; empty if absent. */
    static OptionalDouble prometheusValue(String scrape, String series) {
        Pattern line = Pattern.compile("^" + Pattern.quote(series) + "(\\{[^}]*})?\\s+(\\S+)", Pattern.MULTILINE);
        Matcher matcher = line.matcher(scrape);
        boolean found = false;
        double total = 0;
        while (matcher.find()) {
            found = true;
            total += Double.parseDouble(matcher.group(2));
        }
        return found ? OptionalDouble.of(total) : OptionalDouble.empty();
    }

    @Override
    public void close() {
        s3.close();
        context.close();
    }
}
