package dev.hangar.bench.proxy;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One listening port of the proxy and where it forwards: written {@code PORT=HOST:PORT} or {@code
 * PORT=HOST:PORT@ZONE}; {@code HOST} may be a bracketed IPv6 literal. {@code targetZone} is the
 * zone of the node behind it. Port 0 listens on a free port (tests).
 */
public record ListenerSpec(int port, String targetHost, int targetPort, String targetZone) {

    private static final Pattern TEXT = Pattern.compile("(\\d+)=(\\[[^\\]]+\\]|[^:@\\[\\]]+):(\\d+)(?:@(.+))?");

    public ListenerSpec {
        requirePort(port, 0);
        Objects.requireNonNull(targetHost, "targetHost");
        requirePort(targetPort, 1);
        ZonePair.requireZoneName(targetZone);
    }

    /** Parses {@code text}; {@code defaultZone} is the target zone when the text names none (null: it must name one). */
    public static ListenerSpec parse(String text, @Nullable String defaultZone) {
        Matcher matcher = TEXT.matcher(text.trim());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("a listener is PORT=HOST:PORT or PORT=HOST:PORT@ZONE: " + text);
        }
        String zone = matcher.group(4) != null ? matcher.group(4) : defaultZone;
        if (zone == null) {
            throw new IllegalArgumentException("no target zone for " + text + ": add @ZONE or --target-zone");
        }
        String host = matcher.group(2);
        if (host.startsWith("[")) {
            host = host.substring(1, host.length() - 1);
        }
        return new ListenerSpec(port(matcher.group(1), text), host, port(matcher.group(3), text), zone);
    }

    private static int port(String digits, String text) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port out of range: " + text, e);
        }
    }

    private static void requirePort(int port, int min) {
        if (port < min || port > 65535) {
            throw new IllegalArgumentException("port out of range " + min + "..65535: " + port);
        }
    }

    @Override
    public String toString() {
        String host = targetHost.contains(":") ? "[" + targetHost + "]" : targetHost;
        return port + "=" + host + ":" + targetPort + "@" + targetZone;
    }
}
