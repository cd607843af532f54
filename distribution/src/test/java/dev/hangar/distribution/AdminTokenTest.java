package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminTokenTest {
    private static final String TOKEN = "a-configured-token-0123456789";

    @TempDir
    Path dataDir;

    @Test
    void aConfiguredTokenMatchesOnlyItself() {
        AdminToken token = AdminToken.resolve(TOKEN, null, dataDir);
        assertThat(token.matches(TOKEN)).isTrue();
        assertThat(token.matches(TOKEN + "x")).isFalse();
        assertThat(token.matches(TOKEN.substring(1))).isFalse();
        assertThat(token.matches(TOKEN.toUpperCase())).isFalse();
        assertThat(token.matches("")).isFalse();
        assertThat(token.matches(null)).isFalse();
        assertThat(token.toString()).doesNotContain(TOKEN);
        assertThat(dataDir.resolve(AdminToken.FILE_NAME)).doesNotExist();
    }

    @Test
    void weakOrAmbiguousSettingsAreRefused() {
        assertThatThrownBy(() -> AdminToken.resolve("short", null, dataDir))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("at least 16");
        assertThatThrownBy(() -> AdminToken.resolve("sixteen chars but spaces", null, dataDir))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("without spaces");
        assertThatThrownBy(() -> AdminToken.resolve(TOKEN, dataDir.resolve("file"), dataDir))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not both");
    }

    @Test
    void aTokenFileIsReadWithoutItsLineEnd() throws IOException {
        Path file = dataDir.resolve("mounted-secret");
        Files.writeString(file, TOKEN + "\n", StandardCharsets.UTF_8);
        AdminToken token = AdminToken.resolve(null, file, dataDir);
        assertThat(token.matches(TOKEN)).isTrue();
        assertThat(token.source()).isEqualTo(file.toString());

        Files.writeString(file, "\n");
        assertThatThrownBy(() -> AdminToken.resolve(" ", file, dataDir)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void withoutSettingsATokenIsGeneratedOnceIntoAnOwnerOnlyFile() throws IOException {
        Path folder = dataDir.resolve("not-yet-created");
        AdminToken first = AdminToken.resolve(null, null, folder);
        Path file = folder.resolve(AdminToken.FILE_NAME);
        assertThat(file).isRegularFile();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        String stored = Files.readString(file).strip();
        assertThat(stored).matches(Pattern.compile("[A-Za-z0-9_-]{43}"));
        assertThat(first.matches(stored)).isTrue();
        try (var leftovers = Files.list(folder)) {
            assertThat(leftovers).containsExactly(file);
        }

        AdminToken again = AdminToken.resolve(null, null, folder);
        assertThat(again.matches(stored)).isTrue();
        assertThat(Files.readString(file).strip()).isEqualTo(stored);

        Path otherFolder = dataDir.resolve("other");
        AdminToken other = AdminToken.resolve(null, null, otherFolder);
        assertThat(other.matches(stored)).as("another data folder's token").isFalse();
    }
}
