package dev.hangar.bench.lab;

import dev.hangar.bench.proxy.DelayTable;
import dev.hangar.bench.proxy.Jitter;
import dev.hangar.bench.proxy.OneWayDelay;
import dev.hangar.bench.proxy.ZonePair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the nodes of a lab cluster sit: the storage nodes' zones, the gateway's zone, and the delay
 * between two nodes of one zone. Between zones, the delay is the cell's round trip, halved per
 * direction; so a topology whose nodes each have a zone of their own puts the same round trip on
 * every link, and Garage's "6 nodes in 3 zones" puts it only between zones.
 *
 * @param name how reports and the command line name it ({@code 3}, {@code 5}, {@code 6x3})
 * @param storageZones the zone of each storage node {@code n1, n2, ...}, in order
 * @param gatewayZone the zone of the gateway {@code gw}, which holds no data
 * @param inZoneOneWay the one-way delay between two nodes of one zone
 */
public record LabTopology(String name, List<String> storageZones, String gatewayZone, Duration inZoneOneWay) {
    /** Inside one zone in Garage's multi-zone topology (its benchmark page: 0.5 ms, no jitter). */
    static final Duration GARAGE_IN_ZONE = Duration.ofNanos(500_000);

    public LabTopology {
        storageZones = List.copyOf(storageZones);
        if (storageZones.size() < 3) {
            throw new IllegalArgumentException("a lab cluster has at least 3 storage nodes (replication factor 3)");
        }
    }

    /**
     * {@code N} (N storage nodes, each a zone of its own, and a gateway in a zone of its own) or {@code NxZ}
     * (N storage nodes spread over Z zones in turn, the gateway in the first zone, 0.5 ms inside a zone).
     */
    public static LabTopology parse(String text) {
        String trimmed = text.trim();
        try {
            int x = trimmed.indexOf('x');
            if (x < 0) {
                int nodes = Integer.parseInt(trimmed);
                List<String> zones = new ArrayList<>();
                for (int i = 1; i <= nodes; i++) {
                    zones.add("z" + i);
                }
                return new LabTopology(trimmed, zones, "zg", Duration.ZERO);
            }
            int nodes = Integer.parseInt(trimmed.substring(0, x));
            int zoneCount = Integer.parseInt(trimmed.substring(x + 1));
            if (zoneCount < 1 || zoneCount > nodes) {
                throw new IllegalArgumentException("between 1 and " + nodes + " zones: " + text);
            }
            List<String> zones = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                // n1, n2 in z1, n3, n4 in z2, ...: neighbours share a zone, as in Garage's page.
                zones.add("z" + (i * zoneCount / nodes + 1));
            }
            return new LabTopology(trimmed, zones, zones.getFirst(), GARAGE_IN_ZONE);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a topology is N or NxZ (storage nodes, zones), e.g. 3, 5, 6x3: " + text, e);
        }
    }

    public int storageNodes() {
        return storageZones.size();
    }

    /** The storage nodes' ids, {@code n1 ... nN}. */
    public List<String> storageIds() {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= storageNodes(); i++) {
            ids.add("n" + i);
        }
        return ids;
    }

    /** Every node's zone by id, the gateway's last. */
    public Map<String, String> zones() {
        Map<String, String> zones = new LinkedHashMap<>();
        List<String> ids = storageIds();
        for (int i = 0; i < ids.size(); i++) {
            zones.put(ids.get(i), storageZones.get(i));
        }
        zones.put(LabCluster.GATEWAY, gatewayZone);
        return zones;
    }

    /**
     * The delays of a cell: {@code rtt} halved on each direction between two zones, with jitter of
     * {@code jitterPercent} of that (uniform, as netem), and the in-zone delay inside a zone.
     */
    public DelayTable delays(Duration rtt, int jitterPercent) {
        Duration oneWay = rtt.dividedBy(2);
        OneWayDelay between = new OneWayDelay(oneWay, oneWay.multipliedBy(jitterPercent).dividedBy(100), Jitter.UNIFORM);
        Map<ZonePair, OneWayDelay> inside = new LinkedHashMap<>();
        Set<String> distinct = new LinkedHashSet<>(zones().values());
        for (String zone : distinct) {
            inside.put(new ZonePair(zone, zone), new OneWayDelay(inZoneOneWay, Duration.ZERO, Jitter.UNIFORM));
        }
        return new DelayTable(inside, between);
    }

    @Override
    public String toString() {
        return name;
    }
}
