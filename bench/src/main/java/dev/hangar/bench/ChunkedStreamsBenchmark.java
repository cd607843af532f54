package dev.hangar.bench;

import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.ChunkedStreams;
import dev.hangar.blockstore.SyncPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Time to write an object into blocks and to read it back through {@link ChunkedStreams}, per
 * backend and sync policy: what a PUT and a GET cost below the S3 layer. Payloads are random so
 * nothing can be deduplicated or compressed away.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ChunkedStreamsBenchmark {
    private static final int CHUNK_SIZE = 1 << 20;

    @Param({"memory", "disk-none", "disk-always"})
    public String backend;

    @Param({"65536", "10485760"})
    public int objectSize;

    private Path directory;
    private BlockStore store;
    private byte[] payload;
    private List<BlockRef> stored;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        payload = new byte[objectSize];
        new SplittableRandom(42).nextBytes(payload);
        directory = Files.createTempDirectory("hangar-bench");
        store = switch (backend) {
            case "memory" -> BlockStores.inMemory();
            case "disk-none" -> BlockStores.localDisk(directory, SyncPolicy.NONE);
            case "disk-always" -> BlockStores.localDisk(directory, SyncPolicy.ALWAYS);
            default -> throw new IllegalArgumentException("unknown backend " + backend);
        };
        stored = ChunkedStreams.writeChunks(store, new java.io.ByteArrayInputStream(payload), CHUNK_SIZE);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        Folders.deleteTree(directory);
    }

    @Benchmark
    public List<BlockRef> write() throws IOException {
        List<BlockRef> blocks = ChunkedStreams.writeChunks(store, new java.io.ByteArrayInputStream(payload), CHUNK_SIZE);
        for (BlockRef block : blocks) {
            store.delete(block.id());
        }
        return blocks;
    }

    @Benchmark
    public long read() throws IOException {
        try (InputStream in = ChunkedStreams.openRange(store, stored, 0, objectSize)) {
            return in.transferTo(OutputStream.nullOutputStream());
        }
    }
}
