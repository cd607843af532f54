package dev.hangar.cluster.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Function;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * The laws every {@link MergeRule} must keep, checked over random entries of one key: a property
 * test without a property-testing library. Each law runs {@code cases} cases from one seeded
 * generator; a failure names the seed and the case, so that it can be replayed.
 */
public final class MergeRuleLaws {
    private MergeRuleLaws() {}

    /**
     * The seed of a property test: {@code -Dhangar.test.seed=...} to replay a failure, else a new
     * one each run, so that runs together cover more cases than one.
     */
    public static long seed() {
        return Long.getLong("hangar.test.seed", System.nanoTime());
    }

    /** A seeded generator: the same seed draws the same cases. */
    public static RandomGenerator generator(long seed) {
        return RandomGeneratorFactory.<RandomGenerator>of("L64X128MixRandom").create(seed);
    }

    /**
     * Checks that merge under {@code rule} is commutative, associative and idempotent, {@code cases}
     * times each, without asking it to keep one of the two entries: for rules that join entries
     * ({@link MergeRule#merge} building a new one), which need not be a total order.
     *
     * @param entries draws a random entry of one fixed key from the generator it is given
     */
    public static void checkJoin(MergeRule rule, long seed, int cases, Function<RandomGenerator, Entry> entries) {
        RandomGenerator random = generator(seed);
        for (int i = 0; i < cases; i++) {
            String replay = "seed " + seed + ", case " + i;
            Entry a = entries.apply(random);
            Entry b = entries.apply(random);
            Entry c = entries.apply(random);

            assertThat(rule.merge(a, a)).as("idempotent, %s: %s", replay, a).isEqualTo(a);
            assertThat(rule.merge(a, b)).as("commutative, %s: %s, %s", replay, a, b).isEqualTo(rule.merge(b, a));
            assertThat(rule.merge(rule.merge(a, b), c)).as("associative, %s: %s, %s, %s", replay, a, b, c)
                    .isEqualTo(rule.merge(a, rule.merge(b, c)));
            Entry ab = rule.merge(a, b);
            assertThat(rule.merge(ab, ab)).as("idempotent on a merge, %s: %s, %s", replay, a, b).isEqualTo(ab);
            assertThat(rule.merge(ab, a)).as("absorbs what it merged, %s: %s, %s", replay, a, b).isEqualTo(ab);
        }
    }

    /**
     * Checks that {@code rule} is a total order on the entries {@code entries} draws (antisymmetric,
     * transitive, zero only for equal entries), and that merge is commutative, associative and
     * idempotent, {@code cases} times each.
     *
     * @param entries draws a random entry of one fixed key from the generator it is given
     */
    public static void check(MergeRule rule, long seed, int cases, Function<RandomGenerator, Entry> entries) {
        RandomGenerator random = generator(seed);
        for (int i = 0; i < cases; i++) {
            String replay = "seed " + seed + ", case " + i;
            Entry a = entries.apply(random);
            Entry b = entries.apply(random);
            Entry c = entries.apply(random);

            assertThat(rule.merge(a, a)).as("idempotent, %s: %s", replay, a).isEqualTo(a);
            assertThat(rule.merge(a, b)).as("commutative, %s: %s, %s", replay, a, b).isEqualTo(rule.merge(b, a));
            assertThat(rule.merge(rule.merge(a, b), c)).as("associative, %s: %s, %s, %s", replay, a, b, c)
                    .isEqualTo(rule.merge(a, rule.merge(b, c)));

            int ab = Integer.signum(rule.compare(a, b));
            assertThat(Integer.signum(rule.compare(b, a))).as("antisymmetric, %s: %s, %s", replay, a, b).isEqualTo(-ab);
            assertThat(ab == 0).as("zero only for equal entries, %s: %s, %s", replay, a, b).isEqualTo(a.equals(b));
            if (ab >= 0 && rule.compare(b, c) >= 0) {
                assertThat(rule.compare(a, c)).as("transitive, %s: %s, %s, %s", replay, a, b, c).isGreaterThanOrEqualTo(0);
            }
            assertThat(rule.merge(a, b)).as("merge keeps one of the two, %s", replay).isIn(a, b);
        }
    }
}
