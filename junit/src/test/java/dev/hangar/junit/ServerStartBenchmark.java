package dev.hangar.junit;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What a per-method {@link HangarExtension} costs each test once the JVM is warm: a server started, answering
 * its first request (ListBuckets through a new client), and closed with its data folder. The warm-up
 * iterations start and stop servers until the JIT has compiled the start-up path, as a test suite's first
 * tests do for the rest. Run (README):
 *
 * <pre>{@code
 * ./mvnw -q -pl junit -am -DskipTests install
 * ./mvnw -q -pl junit dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * java -cp junit/target/test-classes:junit/target/classes:$(cat junit/target/cp.txt) org.openjdk.jmh.Main ServerStart
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 15)
@Measurement(iterations = 15)
@Fork(1)
public class ServerStartBenchmark {

    @Param({"false", "true"})
    public boolean inMemory;

    @Benchmark
    public int startAnswerAndStop() {
        try (HangarServer server = HangarServer.start(HangarOptions.defaults().withInMemory(inMemory))) {
            S3Client client = server.newClient();
            return client.listBuckets().buckets().size();
        }
    }
}
