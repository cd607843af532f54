package dev.hangar.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvTest {
    @TempDir
    Path dir;

    @Test
    void readsWhatItWroteByColumnName() throws IOException {
        Path file = dir.resolve("out.csv");
        new Csv(List.of("policy", "p50_ms", "rounds")).row(List.of("raft", "1.5", "")).row(List.of("leaderless", "0.3", "1"))
                .write(file);
        assertThat(Csv.read(file)).containsExactly(Map.of("policy", "raft", "p50_ms", "1.5", "rounds", ""),
                Map.of("policy", "leaderless", "p50_ms", "0.3", "rounds", "1"));
    }

    @Test
    void refusesARowWhoseCellsDoNotMatchTheHeader() throws IOException {
        Path file = Files.writeString(dir.resolve("bad.csv"), "a,b\n1,2\n3\n");
        assertThatThrownBy(() -> Csv.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 cells where the header has 2");
    }
}
