package dev.hangar.junit;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.regions.Region;

/**
 * How {@link HangarServer} starts a server.
 *
 * @param inMemory blocks in the heap (metadata still in RocksDB in the data folder) and no fsync: faster, and
 *     nothing on disk outlives the server
 * @param dataDir the data folder; null for a temporary one, deleted when the server stops
 * @param region the region clients sign for
 * @param logLevel the root log level ({@code warn} keeps test output quiet)
 * @param settings further settings by key, as {@code --key=value} would give them ({@code hangar.storage.sync},
 *     {@code hangar.s3.signature-v2}, ...; see docs/configuration.md)
 */
public record HangarOptions(boolean inMemory, @Nullable Path dataDir, Region region, String logLevel,
        Map<String, String> settings) {

    public HangarOptions {
        settings = Map.copyOf(settings);
    }

    public static HangarOptions defaults() {
        return new HangarOptions(false, null, Region.US_EAST_1, "warn", Map.of());
    }

    public HangarOptions withInMemory(boolean inMemory) {
        return new HangarOptions(inMemory, dataDir, region, logLevel, settings);
    }

    public HangarOptions withDataDir(@Nullable Path dataDir) {
        return new HangarOptions(inMemory, dataDir, region, logLevel, settings);
    }

    public HangarOptions withRegion(Region region) {
        return new HangarOptions(inMemory, dataDir, region, logLevel, settings);
    }

    public HangarOptions withLogLevel(String logLevel) {
        return new HangarOptions(inMemory, dataDir, region, logLevel, settings);
    }

    /** These options with one more setting, {@code hangar.storage.sync=none} say. */
    public HangarOptions withSetting(String key, String value) {
        Map<String, String> more = new LinkedHashMap<>(settings);
        more.put(key, value);
        return new HangarOptions(inMemory, dataDir, region, logLevel, more);
    }
}
