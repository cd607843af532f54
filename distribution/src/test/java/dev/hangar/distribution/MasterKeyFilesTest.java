package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.s3api.encryption.MasterKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class MasterKeyFilesTest {
    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

    @TempDir
    Path folder;

    @Test
    void noMasterKeyMeansNoKeyService() {
        assertThat(MasterKeyFiles.load(properties(java.util.Map.of()))).isEmpty();
    }

    @Test
    void readsTheCurrentKeyFromAFileOrTheEnvironmentAndPreviousOnesFromFiles() throws IOException {
        Path current = Files.writeString(folder.resolve("current.key"), KEY + "\n");
        byte[] old = new byte[32];
        old[0] = 1;
        Path previous = Files.writeString(folder.resolve("previous.key"), Base64.getEncoder().encodeToString(old));

        Optional<MasterKeys> fromFile = MasterKeyFiles.load(properties(java.util.Map.of(
                "hangar.encryption.master-key-file", current.toString(),
                "hangar.encryption.previous-master-key-files", previous.toString())));
        Optional<MasterKeys> fromEnvironment = MasterKeyFiles.load(properties(java.util.Map.of(
                "hangar.encryption.master-key", KEY)));

        assertThat(fromFile).isPresent();
        assertThat(fromFile.get().ids()).hasSize(2);
        assertThat(fromEnvironment.orElseThrow().currentId()).isEqualTo(fromFile.get().currentId());
    }

    @Test
    void refusesKeysInTheDataFolderMalformedKeysAndContradictions() throws IOException {
        Path data = Files.createDirectories(folder.resolve("data"));
        Path inside = Files.writeString(data.resolve("master.b64"), KEY);
        Path shortKey = Files.writeString(folder.resolve("short.key"), Base64.getEncoder().encodeToString(new byte[16]));
        Path notBase64 = Files.writeString(folder.resolve("text.key"), "not a key!");

        assertThatThrownBy(() -> MasterKeyFiles.load(properties(java.util.Map.of("hangar.data-dir", data.toString(),
                "hangar.encryption.master-key-file", inside.toString())))).hasMessageContaining("inside the data folder");
        assertThatThrownBy(() -> MasterKeyFiles.load(properties(java.util.Map.of(
                "hangar.encryption.master-key-file", shortKey.toString())))).hasMessageContaining("16 bytes");
        assertThatThrownBy(() -> MasterKeyFiles.load(properties(java.util.Map.of(
                "hangar.encryption.master-key-file", notBase64.toString())))).hasMessageContaining("not base64");
        assertThatThrownBy(() -> MasterKeyFiles.load(properties(java.util.Map.of("hangar.encryption.master-key", KEY,
                "hangar.encryption.master-key-file", shortKey.toString())))).hasMessageContaining("not both");
        Path valid = Files.writeString(folder.resolve("valid.key"), KEY);
        assertThatThrownBy(() -> MasterKeyFiles.load(properties(java.util.Map.of(
                "hangar.encryption.previous-master-key-files", valid.toString()))))
                .hasMessageContaining("without a current master key");
    }

    @Test
    void theEnvironmentKeyIsNeverInTheConfigurationsDescription() {
        HangarProperties properties = properties(java.util.Map.of("hangar.encryption.master-key", KEY));

        assertThat(properties.toString()).doesNotContain(KEY).contains("masterKey=(redacted)");
    }

    private HangarProperties properties(java.util.Map<String, String> settings) {
        java.util.Map<String, String> all = new java.util.HashMap<>(settings);
        all.putIfAbsent("hangar.data-dir", folder.resolve("data").toString());
        return new Binder(new MapConfigurationPropertySource(all)).bindOrCreate("hangar", HangarProperties.class);
    }
}
