package dev.hangar.bench.proxy;

import java.util.random.RandomGenerator;

/**
 * How a delay's jitter is distributed around its base. {@link #UNIFORM} is what Linux netem does
 * for {@code delay 50ms 10ms} without a distribution table, so it is the default.
 */
public enum Jitter {

    /** Uniform over {@code [-jitter, +jitter]}. */
    UNIFORM {
        @Override
        double offset(RandomGenerator random) {
            return 2 * random.nextDouble() - 1;
        }
    },

    /**
     * Normal with standard deviation {@code jitter}, cut at ±3 standard deviations so that one
     * unlucky draw cannot stall a connection for seconds.
     */
    NORMAL {
        @Override
        double offset(RandomGenerator random) {
            return Math.clamp(random.nextGaussian(), -3.0, 3.0);
        }
    };

    /** A draw in units of the jitter amount. */
    abstract double offset(RandomGenerator random);

    /** The largest offset a draw can give, in units of the jitter amount. */
    double maxOffset() {
        return this == UNIFORM ? 1.0 : 3.0;
    }
}
