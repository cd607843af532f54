package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The README's start command: the runnable folder's launcher starts the server from the start-up
 * cache that the build trained (docs/performance.md). The JVM is told to fail rather than start
 * without the cache ({@code -XX:AOTMode=on} on JDK 25+, {@code -Xshare:on} before), so a cache that
 * does not fit the jar or the JVM fails this test instead of quietly slowing every start.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LauncherIT {

    private static final String ACCESS_KEY = "HANGARLAUNCHERKEY001";
    private static final String SECRET_KEY = "hangar-launcher-secret-0123456789abcdefg";

    @Test
    void startsFromTheTrainedCacheAndServes() throws IOException, InterruptedException {
        Path folder = PackagedServer.launcher().getParent();
        boolean aotCache = Files.isRegularFile(folder.resolve("hangar.aot"));
        boolean cdsArchive = Files.isRegularFile(folder.resolve("hangar.jsa"));
        assumeTrue(aotCache || cdsArchive, "no start-up cache in " + folder + " (built with -Dhangar.aot.skip=true)");
        assertThat(folder.resolve("jvm")).as("the JVM the cache was trained for").isRegularFile();

        Path work = Files.createDirectories(Path.of("target", "launcher-it"));
        Path dataDir = Files.createTempDirectory(work.toAbsolutePath(), "data-");
        String javaOptions = "-Xmx256m " + (aotCache ? "-XX:AOTMode=on" : "-Xshare:on");
        PackagedServer server = null;
        try {
            server = PackagedServer.startLauncher(dataDir, javaOptions,
                Map.of("HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY, "HANGAR_ROOT_SECRET_KEY", SECRET_KEY));
            try (S3Client s3 = S3Clients.sync(server.endpoint(), ACCESS_KEY, SECRET_KEY)) {
                s3.createBucket(request -> request.bucket("launched"));
                byte[] small = RandomContent.of(7, 2_000).bytes();
                byte[] large = RandomContent.of(8, 3 * 1024 * 1024 + 5).bytes();
                s3.putObject(request -> request.bucket("launched").key("small"), RequestBody.fromBytes(small));
                s3.putObject(request -> request.bucket("launched").key("large"), RequestBody.fromBytes(large));
                assertThat(s3.getObjectAsBytes(request -> request.bucket("launched").key("small")).asByteArray()).isEqualTo(small);
                assertThat(s3.getObjectAsBytes(request -> request.bucket("launched").key("large")).asByteArray()).isEqualTo(large);
                assertThat(s3.listObjectsV2(request -> request.bucket("launched")).keyCount()).isEqualTo(2);
            }
            assertThat(server.output()).as("the JVM's start-up cache messages\n" + server.logTail(50)).doesNotContain("[error][aot]",
                "[error][cds]");
        } finally {
            PackagedServer.stopAndDelete(server, dataDir);
        }
    }
}
