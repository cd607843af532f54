package dev.hangar.metadata.command;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * Runs a property over many generated cases, with plain JUnit: no property-testing library, just a
 * seeded generator. One seed drives every case of a run, generation and check alike, so a failure
 * is reproduced by running the same test with the seed it reports:
 *
 * <pre>./mvnw -pl metadata test -Dtest=CommandCodecPropertiesTest -Dhangar.property.seed=1234</pre>
 *
 * <p>Without {@value #SEED}, each run takes a fresh seed, so that runs keep exploring. {@value
 * #CASES} changes the number of cases (1,000 by default). There is no shrinking: cases are kept
 * small by their generators instead.
 */
public final class PropertyRunner {
    public static final String SEED = "hangar.property.seed";
    public static final String CASES = "hangar.property.cases";
    public static final int DEFAULT_CASES = 1_000;

    /** An algorithm the JDK specifies, so that a seed gives the same cases on every JDK. */
    private static final String ALGORITHM = "L64X128MixRandom";

    private PropertyRunner() {}

    /**
     * Checks {@code property} on {@link #cases()} values made by {@code generate}; the check gets
     * the same generator, for choices of its own (a mutation, a prefix).
     *
     * @return how many cases ran
     * @throws AssertionError naming the property, the case, the seed and the value, on the first
     *     case whose check (or generation) throws anything
     */
    public static <T> int check(String property, Function<RandomGenerator, T> generate,
            BiConsumer<T, RandomGenerator> check) {
        long seed = seed();
        int cases = cases();
        RandomGenerator random = RandomGeneratorFactory.of(ALGORITHM).create(seed);
        for (int i = 1; i <= cases; i++) {
            T value = null;
            try {
                value = generate.apply(random);
                check.accept(value, random);
            } catch (Throwable failure) { // an OutOfMemoryError or a StackOverflowError is a finding too
                throw new AssertionError("property \"" + property + "\" failed on case " + i + " of " + cases
                        + " with seed " + seed + " (rerun with -D" + SEED + "=" + seed + ")\ncase: " + describe(value)
                        + "\n" + failure, failure);
            }
        }
        return cases;
    }

    public static int cases() {
        return Integer.getInteger(CASES, DEFAULT_CASES);
    }

    private static long seed() {
        String given = System.getProperty(SEED);
        return given == null || given.isBlank() ? new SecureRandom().nextLong() : Long.parseLong(given.strip());
    }

    private static String describe(Object value) {
        return value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : String.valueOf(value);
    }
}
