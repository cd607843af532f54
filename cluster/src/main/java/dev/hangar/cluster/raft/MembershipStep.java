package dev.hangar.cluster.raft;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The next membership on the way from a group's current members to its planned ones. Ratis refuses a change whose
 * new members are as many as the members it keeps (RATIS-1912: such a group may never elect a leader again), so a
 * change that replaces a majority goes in steps: first new members join while every current one stays (fewer
 * joining than staying; one joining a group of one), then the members not planned leave.
 */
final class MembershipStep {
    private MembershipStep() {}

    /**
     * The membership to ask for next: {@code target} itself when Ratis accepts that in one change, otherwise
     * {@code current} with as many of the new members as it accepts. Members keep the order of {@code target},
     * then that of {@code current}.
     *
     * @param current the members now (not empty)
     * @param target the planned members (not empty)
     */
    static <T> List<T> next(List<T> current, List<T> target) {
        if (current.isEmpty() || target.isEmpty()) {
            throw new IllegalArgumentException("a group has at least one member: " + current + " -> " + target);
        }
        long kept = target.stream().filter(current::contains).count();
        List<T> joining = target.stream().filter(member -> !current.contains(member)).toList();
        if (acceptable(current.size(), target.size(), joining.size(), kept)) {
            return List.copyOf(target);
        }
        int joinNow = current.size() == 1 ? 1 : Math.min(joining.size(), current.size() - 1);
        Set<T> next = new LinkedHashSet<>();
        target.stream().filter(current::contains).forEach(next::add);
        next.addAll(joining.subList(0, joinNow));
        next.addAll(current);
        return new ArrayList<>(next);
    }

    /** Whether Ratis accepts a change from {@code size} members to {@code newSize}, {@code joining} of them new. */
    static boolean acceptable(int size, int newSize, long joining, long kept) {
        if (size == 1 && newSize == 2 && joining == 1) {
            return true;
        }
        return joining < kept;
    }
}
