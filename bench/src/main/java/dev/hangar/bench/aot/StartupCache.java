package dev.hangar.bench.aot;

import java.nio.file.Path;
import java.util.List;

/**
 * The JVM's start-up cache for one server jar, and the flags that make and use it. JDK 25 and newer
 * keep loaded and linked classes and method profiles in an AOT cache (JEP 483, 514, 515); JDK 21 to
 * 24 keep the loaded classes in a dynamic class data sharing archive. Either is valid only for the
 * JVM that made it and the same class path; a JVM that cannot use one says so and starts without it.
 *
 * @param file where the cache is written, beside the jar
 * @param recordFlags the flags of the training run that writes it on exit
 * @param useFlags the flags of a run that starts from it
 */
public record StartupCache(Path file, List<String> recordFlags, List<String> useFlags) {

    /** The AOT cache's file name; the launcher looks for it. */
    public static final String AOT_CACHE = "hangar.aot";

    /** The class data sharing archive's file name (JDK 21 to 24). */
    public static final String CDS_ARCHIVE = "hangar.jsa";

    public StartupCache {
        recordFlags = List.copyOf(recordFlags);
        useFlags = List.copyOf(useFlags);
    }

    /** The cache for a jar in {@code directory}, of the kind the JVM of feature release {@code jdk} makes. */
    public static StartupCache in(Path directory, int jdk) {
        if (jdk >= 25) {
            Path file = directory.resolve(AOT_CACHE);
            return new StartupCache(file, List.of("-XX:AOTCacheOutput=" + file), List.of("-XX:AOTCache=" + file));
        }
        Path file = directory.resolve(CDS_ARCHIVE);
        return new StartupCache(file, List.of("-XX:ArchiveClassesAtExit=" + file), List.of("-XX:SharedArchiveFile=" + file));
    }
}
