package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.RaftSettings;
import dev.hangar.cluster.membership.ClusterSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code hangar.cluster.*} becomes {@link ClusterSettings}: the secret's sources, its absence, TLS. */
class StorageConfigurationTest {
    private static final String SECRET = "storage-config-test-secret-0123";
    private static final HangarProperties.ClusterTls NO_TLS = new HangarProperties.ClusterTls(false, null, null, null);

    @TempDir
    Path dir;

    private static HangarProperties.Cluster cluster(boolean enabled, @Nullable String secret, @Nullable Path secretFile,
            HangarProperties.ClusterTls tls) {
        return cluster(enabled, secret, secretFile, tls, "leaderless");
    }

    private static HangarProperties.Cluster cluster(boolean enabled, @Nullable String secret, @Nullable Path secretFile,
            HangarProperties.ClusterTls tls, String replication) {
        return new HangarProperties.Cluster(enabled, "n1", "default", 1, 0, "127.0.0.1", null, null, 3, "consistent", 0,
                Duration.ofSeconds(1), false, secret, secretFile, tls, Duration.ofMinutes(1), Duration.ofMinutes(1),
                Duration.ofHours(1), replication, RAFT);
    }

    private static final HangarProperties.ClusterRaft RAFT =
            new HangarProperties.ClusterRaft(0, null, "read-index", Duration.ofMillis(50), 500,
                    org.springframework.util.unit.DataSize.ofMegabytes(1), Duration.ofSeconds(9));

    @Test
    void theReplicationModeIsLeaderlessOrRaft() {
        assertThat(StorageConfiguration.clusterSettings(cluster(true, SECRET, null, NO_TLS, "Leaderless"))).isNotNull();
        assertThat(StorageConfiguration.raft(cluster(true, SECRET, null, NO_TLS, "Leaderless"))).isNull();
        assertThat(StorageConfiguration.clusterSettings(cluster(true, SECRET, null, NO_TLS, "raft"))).isNotNull();
        // The Raft server listens where the RPC does unless told otherwise.
        assertThat(StorageConfiguration.raft(cluster(true, SECRET, null, NO_TLS, "raft"))).isEqualTo(
                new RaftSettings("127.0.0.1", 0, RaftSettings.Reads.READ_INDEX, Duration.ofMillis(50), 500, 1 << 20,
                        Duration.ofSeconds(9)));
        assertThat(StorageConfiguration.raft(cluster(false, SECRET, null, NO_TLS, "raft")))
                .as("a single node has no Raft mode").isNull();
        assertThatThrownBy(() -> StorageConfiguration.clusterSettings(cluster(true, SECRET, null, NO_TLS, "paxos")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("must be leaderless or raft");
    }

    @Test
    void aSingleNodeNeedsNoSecret() {
        assertThat(StorageConfiguration.clusterSettings(cluster(false, null, null, NO_TLS))).isNull();
    }

    @Test
    void aClusterNodeNeedsTheSecretAndNeverShowsIt() throws Exception {
        assertThatThrownBy(() -> StorageConfiguration.clusterSettings(cluster(true, null, null, NO_TLS)))
                .hasMessageContaining("hangar.cluster.secret (HANGAR_CLUSTER_SECRET)")
                .hasMessageContaining("HANGAR_CLUSTER_SECRET_FILE");
        assertThatThrownBy(() -> StorageConfiguration.clusterSettings(cluster(true, "too-short", null, NO_TLS)))
                .hasMessageContaining("at least 16 characters").message().doesNotContain("too-short");

        HangarProperties.Cluster inline = cluster(true, SECRET, null, NO_TLS);
        ClusterSettings settings = StorageConfiguration.clusterSettings(inline);
        assertThat(settings).isNotNull();
        assertThat(settings.toString()).doesNotContain(SECRET).contains("redacted");
        assertThat(inline.toString()).doesNotContain(SECRET).contains("secret=(redacted)");

        Path file = Files.writeString(dir.resolve("secret"), SECRET + "\n");
        assertThat(StorageConfiguration.clusterSettings(cluster(true, null, file, NO_TLS))).isNotNull();
        assertThatThrownBy(() -> StorageConfiguration.clusterSettings(cluster(true, SECRET, file, NO_TLS)))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> StorageConfiguration.clusterSettings(cluster(true, null, dir.resolve("missing"), NO_TLS)))
                .hasMessageContaining("cannot read the cluster secret file");
    }

    @Test
    void tlsNeedsItsThreeFiles() {
        HangarProperties.ClusterTls incomplete = new HangarProperties.ClusterTls(true, dir.resolve("node.pem"), null, null);
        assertThatThrownBy(() -> StorageConfiguration.clusterSettings(cluster(true, SECRET, null, incomplete)))
                .hasMessageContaining("hangar.cluster.tls.private-key");
        HangarProperties.ClusterTls complete = new HangarProperties.ClusterTls(
                true, dir.resolve("node.pem"), dir.resolve("node.key"), dir.resolve("ca.pem"));
        ClusterSettings settings = StorageConfiguration.clusterSettings(cluster(true, SECRET, null, complete));
        assertThat(settings.tls()).isNotNull();
        assertThat(settings.tls().trustCertificates()).isEqualTo(dir.resolve("ca.pem"));
    }
}
