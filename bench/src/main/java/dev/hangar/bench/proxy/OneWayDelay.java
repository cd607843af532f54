package dev.hangar.bench.proxy;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The delay of one direction of a link: {@code base} plus a jitter draw of the given shape, never
 * negative. Written {@code 50ms±10ms} (or {@code 50ms+-10ms}, easier to type) or {@code 0.5ms}.
 */
public record OneWayDelay(Duration base, Duration jitter, Jitter shape) {

    public static final OneWayDelay NONE = new OneWayDelay(Duration.ZERO, Duration.ZERO, Jitter.UNIFORM);

    private static final Pattern TEXT = Pattern.compile("([^±+]+?)\\s*(?:(?:±|\\+-|\\+/-)\\s*(.+))?");

    public OneWayDelay {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(jitter, "jitter");
        Objects.requireNonNull(shape, "shape");
        if (base.isNegative() || jitter.isNegative()) {
            throw new IllegalArgumentException("a delay and its jitter are not negative: " + base + " ± " + jitter);
        }
    }

    public static OneWayDelay parse(String text, Jitter shape) {
        Matcher matcher = TEXT.matcher(text.trim());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a delay (examples: 0.5ms, 50ms±10ms, 50ms+-10ms): " + text);
        }
        Duration base = Durations.parse(matcher.group(1));
        Duration jitter = matcher.group(2) == null ? Duration.ZERO : Durations.parse(matcher.group(2));
        return new OneWayDelay(base, jitter, shape);
    }

    /** One draw, in nanoseconds: base + jitter offset, clamped at 0. */
    public long sampleNanos(RandomGenerator random) {
        long base = this.base.toNanos();
        if (jitter.isZero()) {
            return base;
        }
        long offset = Math.round(jitter.toNanos() * shape.offset(random));
        return Math.max(0, base + offset);
    }

    /** The smallest delay a draw can give. */
    public long minNanos() {
        return Math.max(0, base.toNanos() - Math.round(jitter.toNanos() * shape.maxOffset()));
    }

    /** The largest delay a draw can give. */
    public long maxNanos() {
        return base.toNanos() + Math.round(jitter.toNanos() * shape.maxOffset());
    }

    @Override
    public String toString() {
        String text = Durations.format(base);
        if (jitter.isZero()) {
            return text;
        }
        return text + "±" + Durations.format(jitter) + (shape == Jitter.UNIFORM ? "" : " (" + shape.name().toLowerCase(java.util.Locale.ROOT) + ")");
    }
}
