package dev.hangar.bench.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.ObjectVersion;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;

/**
 * Runs every method of {@link ConsensusBenchmark} once through every role, on one 3-node cluster (and its gateway)
 * per policy, at no delay, so that a broken benchmark fails the build rather than a lab run: each request is served
 * as expected, and the rounds the coordinator counted are those of docs/cluster.md ({@link ExpectedRounds}), which
 * also shows that each role is played by the node it names. No time is checked.
 */
class ConsensusBenchmarkTest {

    @ParameterizedTest
    @EnumSource(Policy.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyBenchmarkServesARequestThroughEveryRoleAtTheRoundsExpected(Policy policy) {
        try (InProcessCluster cluster = InProcessCluster.start(policy, 3, SyncPolicy.NONE)) {
            for (Role role : Role.values()) {
                ConsensusBenchmark benchmark = benchmark(policy, role);
                benchmark.prepare(cluster);
                Map<Operation, RoundsCounters> counted = new LinkedHashMap<>();
                Function<Operation, RoundsCounters> counter = operation -> counted.computeIfAbsent(operation,
                        ignored -> new RoundsCounters());

                assertThat(benchmark.putObject(counter.apply(Operation.PUT))).as("what a new key's PUT replaced")
                        .isEmpty();
                assertThat(benchmark.conditionalPutObject(counter.apply(Operation.CONDITIONAL_PUT)))
                        .as("what a new key's conditional PUT replaced").isEmpty();
                assertThat(benchmark.getObject(counter.apply(Operation.GET))).hasSize(benchmark.size);
                assertThat(benchmark.headObject(counter.apply(Operation.HEAD))).startsWith("\"").endsWith("\"");
                assertThat(benchmark.listObjectsV2(counter.apply(Operation.LIST)).entries())
                        .extracting(ObjectVersion::key).allMatch(key -> key.startsWith(ConsensusBenchmark.READ_PREFIX))
                        .hasSize(ConsensusBenchmark.READ_OBJECTS);
                ConsensusBenchmark.Deletable target = new ConsensusBenchmark.Deletable();
                target.write(benchmark);
                assertThat(benchmark.deleteObject(target, counter.apply(Operation.DELETE)).key())
                        .isEqualTo(target.key);

                assertThat(counted.keySet()).containsExactly(Operation.values());
                counted.forEach((operation, rounds) -> {
                    String cell = operation.method() + " " + policy + " through the " + role;
                    assertThat(rounds.requests).as("requests of %s", cell).isEqualTo(1);
                    assertThat(rounds.objectRounds).as("object rounds of %s", cell)
                            .isEqualTo(ExpectedRounds.object(policy, role, operation));
                    // A settings cache (leaderless) or a Raft gateway's copies may miss on a role's first requests,
                    // or after a pause on a loaded machine; a Raft member never pays for one.
                    assertThat(rounds.settingsRounds).as("settings rounds of %s", cell)
                            .isBetween((long) ExpectedRounds.SETTINGS_WHEN_WARM,
                                    (long) ExpectedRounds.settingsOnMiss(policy, role, operation));
                });
            }
        }
    }

    private static ConsensusBenchmark benchmark(Policy policy, Role role) {
        ConsensusBenchmark benchmark = new ConsensusBenchmark();
        benchmark.policy = policy.toString();
        benchmark.role = role.toString();
        benchmark.delayMs = 0;
        benchmark.nodes = 3;
        benchmark.size = 256;
        benchmark.calls = "s3";
        benchmark.sync = "none";
        return benchmark;
    }
}
