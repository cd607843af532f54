package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.S3Clients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The packaged server's metrics over JMX, as jconsole or VisualVM would read them: the test attaches to the
 * server's JVM (the local attach mechanism, open to the same OS user only), starts its local management agent
 * and reads Hangar's S3 request counter for an operation it made, and the Actuator health endpoint's MBean.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JmxIT {

    private static final String ACCESS_KEY = "HANGARJMXITKEY000001";
    private static final String SECRET_KEY = "hangar-jmx-it-secret-0123456789abcdefghij";

    @Test
    void requestCountersAndHealthAreReadableOverJmx() throws Exception {
        Path work = Files.createDirectories(Path.of("target", "jmx-it").toAbsolutePath());
        Path dataDir = Files.createTempDirectory(work, "data-");
        PackagedServer server = null;
        try {
            server = PackagedServer.start(dataDir, "256m",
                Map.of("HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY, "HANGAR_ROOT_SECRET_KEY", SECRET_KEY), "jmx");
            try (S3Client s3 = S3Clients.sync(server.endpoint(), ACCESS_KEY, SECRET_KEY)) {
                s3.createBucket(request -> request.bucket("over-jmx"));
                for (int i = 0; i < 3; i++) {
                    int n = i;
                    s3.putObject(request -> request.bucket("over-jmx").key("k" + n), RequestBody.fromString("counted"));
                }
            }

            VirtualMachine vm = VirtualMachine.attach(Long.toString(server.pid()));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
                MBeanServerConnection jmx = connector.getMBeanServerConnection();
                // Micrometer's JMX names: the meter's name, then each tag's key and value, dot-separated.
                Set<ObjectName> all = jmx.queryNames(new ObjectName("metrics:*"), null);
                List<ObjectName> puts = all.stream()
                    .filter(name -> name.getKeyProperty("name").startsWith("hangarS3Requests.")
                        && name.getKeyProperty("name").contains(".operation.PutObject."))
                    .toList();
                assertThat(puts).as("Hangar's PutObject timers among %s", all).isNotEmpty();
                long count = 0;
                for (ObjectName put : puts) {
                    count += ((Number) jmx.getAttribute(put, "Count")).longValue();
                }
                assertThat(count).as("PutObject requests counted over JMX").isGreaterThanOrEqualTo(3);

                Set<ObjectName> health = jmx.queryNames(new ObjectName("org.springframework.boot:type=Endpoint,name=Health"), null);
                assertThat(health).as("the Actuator health endpoint's MBean").hasSize(1);
                Object answer = jmx.invoke(health.iterator().next(), "health", new Object[0], new String[0]);
                assertThat(answer.toString()).contains("UP");
            }
        } finally {
            PackagedServer.stopAndDelete(server, dataDir);
        }
    }
}
