package dev.hangar.cluster.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.layout.NodeId;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeIdentityTest {
    @TempDir
    Path dir;

    @Test
    void generatesAnIdOnceAndKeepsIt() throws Exception {
        Path data = dir.resolve("fresh");
        NodeId first = NodeIdentity.loadOrCreate(data, null);

        assertThat(Files.readString(data.resolve(NodeIdentity.FILE)).strip()).isEqualTo(first.value());
        assertThat(NodeIdentity.loadOrCreate(data, null)).isEqualTo(first);
        assertThat(NodeIdentity.loadOrCreate(data, first.value())).isEqualTo(first);
        assertThat(NodeIdentity.loadOrCreate(dir.resolve("other"), null)).isNotEqualTo(first);
    }

    @Test
    void keepsAConfiguredIdAndRefusesToRenameADirectory() {
        assertThat(NodeIdentity.loadOrCreate(dir, "node-1")).isEqualTo(new NodeId("node-1"));
        assertThat(NodeIdentity.loadOrCreate(dir, null)).isEqualTo(new NodeId("node-1"));
        assertThatThrownBy(() -> NodeIdentity.loadOrCreate(dir, "node-2"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("belongs to node node-1");
    }
}
