package dev.hangar.cluster.layout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How many replica slots each storage node should hold: capacity shares, capped first per zone and
 * then per node, then rounded to integers that add up to exactly {@code partitions * replicas}.
 *
 * <p>The caps are what makes the shares reachable: with at least {@code r} zones, a zone can hold at
 * most one replica of each partition however large its capacity, and no node can hold a partition
 * twice. Water-filling hands what a capped zone or node cannot take to the others in proportion to
 * their capacity.
 */
final class Quotas {
    private Quotas() {}

    static int[] compute(LayoutPlanner.Assignment a) {
        int nodes = a.nodes.size();
        int[] quota = new int[nodes];
        if (nodes == 0 || a.replicas == 0) {
            return quota;
        }
        long total = (long) a.partitions * a.replicas;
        // A partition may put at most replicas - minZones + 1 replicas in one zone, else it would
        // span fewer than minZones zones.
        int perZonePerPartition = a.replicas - a.minZones + 1;

        long[] zoneWeight = new long[a.zones];
        int[] zoneNodes = new int[a.zones];
        int[] zoneKept = new int[a.zones];
        for (int n = 0; n < nodes; n++) {
            zoneWeight[a.zoneOf[n]] += a.nodes.get(n).capacity();
            zoneNodes[a.zoneOf[n]]++;
            zoneKept[a.zoneOf[n]] += a.count[n];
        }
        double[] zoneCap = new double[a.zones];
        for (int z = 0; z < a.zones; z++) {
            zoneCap[z] = (double) a.partitions * Math.min(perZonePerPartition, zoneNodes[z]);
        }
        int[] zoneQuota = round(waterFill(zoneWeight, zoneCap, total), zoneCap, total, zoneKept);

        for (int z = 0; z < a.zones; z++) {
            List<Integer> members = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                if (a.zoneOf[n] == z) {
                    members.add(n);
                }
            }
            long[] weight = new long[members.size()];
            double[] cap = new double[members.size()];
            int[] kept = new int[members.size()];
            for (int i = 0; i < members.size(); i++) {
                weight[i] = a.nodes.get(members.get(i)).capacity();
                cap[i] = a.partitions;
                kept[i] = a.count[members.get(i)];
            }
            int[] share = round(waterFill(weight, cap, zoneQuota[z]), cap, zoneQuota[z], kept);
            for (int i = 0; i < members.size(); i++) {
                quota[members.get(i)] = share[i];
            }
        }
        return quota;
    }

    /** Shares of {@code total} in proportion to {@code weight}, none above its cap. */
    static double[] waterFill(long[] weight, double[] cap, double total) {
        int k = weight.length;
        double[] share = new double[k];
        boolean[] capped = new boolean[k];
        boolean changed = true;
        while (changed) {
            changed = false;
            double remaining = total;
            double freeWeight = 0;
            for (int i = 0; i < k; i++) {
                if (capped[i]) {
                    remaining -= cap[i];
                } else {
                    freeWeight += weight[i];
                }
            }
            for (int i = 0; i < k; i++) {
                share[i] = capped[i] ? cap[i] : freeWeight == 0 ? 0 : remaining * weight[i] / freeWeight;
            }
            for (int i = 0; i < k; i++) {
                if (!capped[i] && share[i] > cap[i]) {
                    capped[i] = true;
                    changed = true;
                }
            }
        }
        return share;
    }

    /**
     * Largest-remainder rounding to integers summing to {@code total}. Ties go to the entry that
     * already holds more (it need not move anything to keep its extra unit), then to the lower index.
     */
    static int[] round(double[] share, double[] cap, long total, int[] kept) {
        int k = share.length;
        int[] result = new int[k];
        long sum = 0;
        for (int i = 0; i < k; i++) {
            result[i] = (int) Math.floor(share[i] + 1e-9);
            sum += result[i];
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingDouble(i -> -(share[i] - result[i]))
                .thenComparingInt(i -> -kept[i])
                .thenComparingInt(i -> i));
        for (int i : order) {
            if (sum >= total) {
                break;
            }
            if (result[i] + 1 <= cap[i]) {
                result[i]++;
                sum++;
            }
        }
        return result;
    }
}
