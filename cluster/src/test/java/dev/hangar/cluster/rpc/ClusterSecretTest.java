package dev.hangar.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.layout.NodeId;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterSecretTest {
    private static final String TEXT = "cluster-secret-test-0123456789";

    @TempDir
    Path dir;

    @Test
    void refusesShortSecretsWithoutRepeatingThem() {
        assertThatThrownBy(() -> ClusterSecret.of("  fifteen-chars  "))
                .hasMessageContaining("at least 16 characters").hasMessageContaining("has 13")
                .message().doesNotContain("fifteen");
    }

    @Test
    void neverShowsItselfAndReadsTheSameFromAFile() throws Exception {
        ClusterSecret inline = ClusterSecret.of(TEXT);
        assertThat(inline.toString()).doesNotContain(TEXT).isEqualTo("ClusterSecret[redacted]");
        assertThat(RpcSecurity.of(inline).toString()).doesNotContain(TEXT);

        ClusterSecret fromFile = ClusterSecret.read(Files.writeString(dir.resolve("secret"), TEXT + "\n"));
        // Same key, whichever way it came: a proof made with one verifies with the other.
        Handshake.Transcript transcript = new Handshake.Transcript(
                new Handshake.Hello(new NodeId("a"), Handshake.nonce(), ""),
                new Handshake.Challenge(new NodeId("b"), Handshake.nonce(), ""));
        RpcFrame proof = Handshake.proof(inline, Handshake.Role.CLIENT, transcript);
        assertThat(Handshake.verify(fromFile, Handshake.Role.CLIENT, transcript, proof)).isTrue();

        assertThatThrownBy(() -> ClusterSecret.read(Files.writeString(dir.resolve("short"), "short\n")))
                .hasMessageContaining("at least 16 characters").hasMessageContaining(dir.resolve("short").toString());
    }
}
