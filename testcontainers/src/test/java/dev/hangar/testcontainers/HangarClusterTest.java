package dev.hangar.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** Three containers forming a cluster: what one node wrote, every other node serves. */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class HangarClusterTest {

    @BeforeAll
    static void engine() throws Exception {
        Engine.require();
    }

    @Test
    void everyNodeServesWhatAnotherWrote() {
        HangarCluster cluster = new HangarCluster(DockerImageName.parse(Engine.IMAGE), 3, "leaderless");
        cluster.getNodes().forEach(node -> node.withImagePullPolicy(any -> false).withEnv("JAVA_TOOL_OPTIONS", "-Xmx256m"));
        try {
            cluster.start();
            List<HangarContainer> nodes = cluster.getNodes();
            try (S3Client first = nodes.get(0).newS3Client()) {
                first.createBucket(request -> request.bucket("shared"));
                first.putObject(request -> request.bucket("shared").key("k"), RequestBody.fromString("written on node1"));
            }
            for (HangarContainer node : nodes.subList(1, nodes.size())) {
                try (S3Client other = node.newS3Client()) {
                    assertThat(other.getObjectAsBytes(request -> request.bucket("shared").key("k")).asUtf8String())
                        .as("read through %s", node.getNetworkAliases()).isEqualTo("written on node1");
                }
            }
        } finally {
            cluster.stop();
        }
    }
}
