package dev.hangar.bench.proxy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one-way delay of every direction between zones. Entries are written {@code A:B=DELAY} (both
 * directions, A to B and B to A) or {@code A->B=DELAY} (that direction only; it overrides a
 * two-way entry for the same pair whatever the order). A direction without an entry gets {@code
 * fallback}.
 */
public record DelayTable(Map<ZonePair, OneWayDelay> delays, OneWayDelay fallback) {

    public DelayTable {
        delays = Map.copyOf(delays);
        Objects.requireNonNull(fallback, "fallback");
    }

    public OneWayDelay between(String from, String to) {
        return delays.getOrDefault(new ZonePair(from, to), fallback);
    }

    public static DelayTable parse(List<String> entries, OneWayDelay fallback, Jitter shape) {
        Map<ZonePair, OneWayDelay> twoWay = new LinkedHashMap<>();
        Map<ZonePair, OneWayDelay> oneWay = new LinkedHashMap<>();
        for (String entry : entries) {
            int equals = entry.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("a delay entry is A:B=DELAY or A->B=DELAY: " + entry);
            }
            String pair = entry.substring(0, equals).trim();
            OneWayDelay delay = OneWayDelay.parse(entry.substring(equals + 1), shape);
            if (pair.contains("->")) {
                String[] zones = pair.split("->", -1);
                put(oneWay, pairOf(zones, entry), delay, entry);
            } else {
                ZonePair forward = pairOf(pair.split(":", -1), entry);
                put(twoWay, forward, delay, entry);
                if (!forward.from().equals(forward.to())) {
                    put(twoWay, forward.reversed(), delay, entry);
                }
            }
        }
        Map<ZonePair, OneWayDelay> delays = new LinkedHashMap<>(twoWay);
        delays.putAll(oneWay);
        return new DelayTable(delays, fallback);
    }

    private static ZonePair pairOf(String[] zones, String entry) {
        if (zones.length != 2) {
            throw new IllegalArgumentException("a delay entry is A:B=DELAY or A->B=DELAY: " + entry);
        }
        return new ZonePair(zones[0].trim(), zones[1].trim());
    }

    private static void put(Map<ZonePair, OneWayDelay> delays, ZonePair pair, OneWayDelay delay, String entry) {
        OneWayDelay previous = delays.put(pair, delay);
        if (previous != null) {
            // Two entries for one direction are a mistake in the lab's command line; say so.
            throw new IllegalArgumentException("the delay " + pair + " is given twice (" + previous + ", then " + entry + ")");
        }
    }
}
