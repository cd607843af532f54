package dev.hangar.bench.proxy;

import java.util.regex.Pattern;

/** A direction between two zones: bytes sent from a node of {@code from} to a node of {@code to}. */
public record ZonePair(String from, String to) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.]+(?:-[A-Za-z0-9_.]+)*");

    public ZonePair {
        requireZoneName(from);
        requireZoneName(to);
    }

    /** Zone names are letters, digits, {@code _ . -}; no {@code : = @ >} since those separate options' parts. */
    static String requireZoneName(String zone) {
        if (!NAME.matcher(zone).matches()) {
            throw new IllegalArgumentException("not a zone name (letters, digits, _ . -): '" + zone + "'");
        }
        return zone;
    }

    ZonePair reversed() {
        return new ZonePair(to, from);
    }

    @Override
    public String toString() {
        return from + "->" + to;
    }
}
