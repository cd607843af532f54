package dev.hangar.bench.aot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StartupCacheTest {

    private final Path folder = Path.of("/opt/hangar");

    @Test
    void jdk25AndNewerMakeAnAotCacheInOneTrainingRun() {
        StartupCache cache = StartupCache.in(folder, 25);

        assertThat(cache.file()).isEqualTo(folder.resolve("hangar.aot"));
        assertThat(cache.recordFlags()).containsExactly("-XX:AOTCacheOutput=/opt/hangar/hangar.aot");
        assertThat(cache.useFlags()).containsExactly("-XX:AOTCache=/opt/hangar/hangar.aot");
        assertThat(StartupCache.in(folder, 26).file()).isEqualTo(cache.file());
    }

    @Test
    void olderJdksMakeADynamicClassDataSharingArchive() {
        StartupCache cache = StartupCache.in(folder, 21);

        assertThat(cache.file()).isEqualTo(folder.resolve("hangar.jsa"));
        assertThat(cache.recordFlags()).containsExactly("-XX:ArchiveClassesAtExit=/opt/hangar/hangar.jsa");
        assertThat(cache.useFlags()).containsExactly("-XX:SharedArchiveFile=/opt/hangar/hangar.jsa");
        assertThat(StartupCache.in(folder, 24).file()).isEqualTo(cache.file());
    }
}
