package dev.hangar.bench.proxy;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads and writes short durations: {@code 0}, {@code 250us}, {@code 0.5ms}, {@code 50ms}, {@code 2s}. */
final class Durations {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s)?");

    private Durations() {
    }

    static Duration parse(String text) {
        Matcher matcher = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a duration (examples: 0.5ms, 50ms, 1s): " + text);
        }
        BigDecimal amount = new BigDecimal(matcher.group(1));
        String unit = matcher.group(2);
        if (unit == null && amount.signum() != 0) {
            // A bare number is ambiguous (ms? s?); only 0 means the same in every unit.
            throw new IllegalArgumentException("a duration needs a unit (ns, us, ms, s): " + text);
        }
        long nanosPerUnit = switch (unit == null ? "ns" : unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            default -> 1_000_000_000L;
        };
        BigDecimal nanos = amount.multiply(BigDecimal.valueOf(nanosPerUnit));
        try {
            return Duration.ofNanos(nanos.setScale(0, RoundingMode.HALF_UP).longValueExact());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("duration out of range: " + text, e);
        }
    }

    /** An exact text in the largest unit that reads well: {@code 2s}, {@code 50ms}, {@code 1.5ms}, {@code 500us}, {@code 20ns}. */
    static String format(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos == 0) {
            return "0";
        }
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + "s";
        }
        if (nanos >= 1_000_000L) {
            return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
        }
        if (nanos % 1_000L == 0) {
            return nanos / 1_000L + "us";
        }
        return nanos + "ns";
    }
}
