package dev.hangar.metadata.listing;

import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * An {@link OrderedCursor} over records held in memory, in unsigned byte order as both stores keep
 * them, counting its seeks and steps as RocksDB's tickers would.
 */
final class MemoryCursor implements OrderedCursor {
    private final NavigableMap<byte[], byte[]> records = new TreeMap<>(Arrays::compareUnsigned);
    private Map.@Nullable Entry<byte[], byte[]> at;
    private int seeks;
    private int nexts;

    MemoryCursor put(byte[] key, byte[] value) {
        records.put(key, value);
        return this;
    }

    @Override
    public byte @Nullable [] key() {
        return at == null ? null : at.getKey().clone();
    }

    @Override
    public byte[] value() {
        if (at == null) {
            throw new IllegalStateException("no record at the cursor");
        }
        return at.getValue().clone();
    }

    @Override
    public void next() {
        if (at == null) {
            throw new IllegalStateException("next past the end");
        }
        nexts++;
        at = records.higherEntry(at.getKey());
    }

    @Override
    public void seek(byte[] target) {
        seeks++;
        at = records.ceilingEntry(target);
    }

    int seeks() {
        return seeks;
    }

    int nexts() {
        return nexts;
    }
}
