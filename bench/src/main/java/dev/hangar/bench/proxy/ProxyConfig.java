package dev.hangar.bench.proxy;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link ProxyServer} runs on.
 *
 * @param bindAddress where every listener listens
 * @param listeners the ports and their targets
 * @param zones the zone of a connecting client, from its source address
 * @param delays the one-way delay of each direction between zones
 * @param maxInFlightBytes per direction of a connection, the bytes read and not yet written; at the
 *     cap the proxy stops reading that side, so TCP pushes back on the sender. One connection's
 *     direction then carries at most about {@code maxInFlightBytes / delay} bytes per second (the
 *     bandwidth-delay product rule), so the cap must exceed bandwidth × delay of the links emulated
 * @param chunkBytes the largest read, and so the largest unit that gets one delay draw
 * @param maxConnections connections open at once over all listeners; one more is refused (closed at once)
 * @param connectTimeout how long to wait for a target to accept
 * @param seed the jitter draws' seed; a run with the same seed and the same reads draws the same delays
 */
public record ProxyConfig(InetAddress bindAddress, List<ListenerSpec> listeners, ZoneMap zones, DelayTable delays,
                          int maxInFlightBytes, int chunkBytes, int maxConnections, Duration connectTimeout, long seed) {

    public static final int DEFAULT_MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;
    public static final int DEFAULT_CHUNK_BYTES = 64 * 1024;
    public static final int DEFAULT_MAX_CONNECTIONS = 512;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

    public ProxyConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        listeners = List.copyOf(listeners);
        Objects.requireNonNull(zones, "zones");
        Objects.requireNonNull(delays, "delays");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("no listener");
        }
        if (chunkBytes < 1) {
            throw new IllegalArgumentException("chunk size must be positive: " + chunkBytes);
        }
        if (maxInFlightBytes < chunkBytes) {
            // A read of a full chunk must fit under the cap, or the reader would wait forever.
            throw new IllegalArgumentException("the in-flight cap (" + maxInFlightBytes + " B) is below one chunk (" + chunkBytes + " B)");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("max connections must be positive: " + maxConnections);
        }
        if (connectTimeout.isNegative() || connectTimeout.isZero() || connectTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("connect timeout out of range: " + connectTimeout);
        }
    }

    /** Defaults for every setting but the listeners, zones and delays. */
    public static ProxyConfig of(List<ListenerSpec> listeners, ZoneMap zones, DelayTable delays) {
        return new ProxyConfig(InetAddress.getLoopbackAddress(), listeners, zones, delays, DEFAULT_MAX_IN_FLIGHT_BYTES,
            DEFAULT_CHUNK_BYTES, DEFAULT_MAX_CONNECTIONS, DEFAULT_CONNECT_TIMEOUT, 0L);
    }

    public ProxyConfig withBindAddress(InetAddress bindAddress) {
        return new ProxyConfig(bindAddress, listeners, zones, delays, maxInFlightBytes, chunkBytes, maxConnections, connectTimeout, seed);
    }

    public ProxyConfig withLimits(int maxInFlightBytes, int chunkBytes, int maxConnections) {
        return new ProxyConfig(bindAddress, listeners, zones, delays, maxInFlightBytes, chunkBytes, maxConnections, connectTimeout, seed);
    }

    public ProxyConfig withSeed(long seed) {
        return new ProxyConfig(bindAddress, listeners, zones, delays, maxInFlightBytes, chunkBytes, maxConnections, connectTimeout, seed);
    }
}
