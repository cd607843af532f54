package dev.hangar.blockstore.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.AbstractBlockStoreContractTest;
import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.SyncPolicy;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class LocalDiskBlockStoreTest extends AbstractBlockStoreContractTest {

    @Override
    protected BlockStore createStore(Path tempDir) throws IOException {
        return BlockStores.localDisk(tempDir, SyncPolicy.ALWAYS);
    }

    @Test
    void storesEachBlockUnderFoldersNamedAfterItsFirstDigits() throws IOException {
        BlockId id = write(randomBytes(10));

        assertThat(fileOf(id)).isRegularFile().hasSize(10);
    }

    @Test
    void blocksSurviveAReopen() throws IOException {
        byte[] content = randomBytes(100_000);
        BlockId id = write(content);

        reopenStore();

        assertThat(readAll(id, 0, content.length)).isEqualTo(content);
    }

    @Test
    void openRemovesTemporariesThatACrashLeftBehind() throws IOException {
        BlockId kept = write(randomBytes(10));
        BlockId interrupted = BlockId.random();
        Path folder = Files.createDirectories(fileOf(interrupted).getParent());
        Path temporary =
                Files.write(folder.resolve(interrupted.value() + ".tmp-5eed"), randomBytes(1000));
        store().close();

        BlockStore reopened = reopenStore();

        assertThat(temporary).doesNotExist();
        assertThat(reopened.exists(interrupted)).isFalse();
        assertThat(reopened.exists(kept)).isTrue();
    }

    @Test
    void writesLeaveNoTemporaries() throws IOException {
        for (int index = 0; index < 20; index++) {
            write(randomBytes(index * 1000));
        }
        IOException failure = new IOException("client went away");
        assertThatThrownBy(() -> store().write(BlockId.random(), failingAfter(70_000, failure)))
                .isSameAs(failure);

        assertThat(temporaries()).isEmpty();
    }

    @Test
    void readsLazilyFromTheFile() throws IOException {
        byte[] content = randomBytes(300_000);
        BlockId id = write(content);

        try (InputStream stream = store().read(id, 0, content.length)) {
            byte[] start = stream.readNBytes(10);
            // Bytes changed on disk after the stream was opened show up only if it reads on demand.
            byte[] changed = new byte[1000];
            try (FileChannel file = FileChannel.open(fileOf(id), StandardOpenOption.WRITE)) {
                file.write(ByteBuffer.wrap(changed), 200_000);
            }
            byte[] rest = stream.readAllBytes();

            assertThat(start).isEqualTo(Arrays.copyOf(content, 10));
            assertThat(Arrays.copyOfRange(rest, 200_000 - 10, 201_000 - 10)).isEqualTo(changed);
        }
    }

    @Test
    void refusesASecondStoreOnTheSameFolder() {
        assertThatThrownBy(() -> BlockStores.localDisk(tempDir(), SyncPolicy.NONE))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("already open");
    }

    @Test
    void writeIntoNewFoldersWithoutAnExistingRoot() throws IOException {
        Path root = tempDir().resolve("not").resolve("yet");
        try (BlockStore nested = BlockStores.localDisk(root, SyncPolicy.ALWAYS)) {
            BlockId id = BlockId.random();
            nested.write(id, new ByteArrayInputStream(randomBytes(5)));

            assertThat(nested.exists(id)).isTrue();
        }
    }

    /** Where the documented layout puts a block: {@code root/ab/cd/abcd...}. */
    private Path fileOf(BlockId id) {
        String value = id.value();
        Path folder = tempDir().resolve(value.substring(0, 2)).resolve(value.substring(2, 4));
        return folder.resolve(value);
    }

    private List<Path> temporaries() throws IOException {
        try (Stream<Path> paths = Files.walk(tempDir())) {
            return paths.filter(path -> path.getFileName().toString().contains(".tmp-")).toList();
        }
    }
}
