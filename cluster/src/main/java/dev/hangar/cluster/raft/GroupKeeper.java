package dev.hangar.cluster.raft;

import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.LayoutCodec;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.membership.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.jspecify.annotations.Nullable;

/**
 * Keeps this node's divisions in line with the groups of the layout: once the cluster has a layout, it plans its
 * groups ({@link GroupPlan}), records that layout in {@code groups-layout} beside the Raft logs, and adds this
 * node's division of every group it is a member of, retrying every second until each member's Raft address is
 * known. The plan outlives restarts through that file.
 *
 * <p>A later layout whose groups differ is not applied yet: moving buckets between groups (a snapshot of the
 * moved partitions into the new group, then a switch of routing) is the next step of the Raft mode. Until then
 * the groups stay those of the first layout, which keeps every committed command where it was, and the change
 * is logged as a warning; blocks still move to their new owners.
 */
final class GroupKeeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GroupKeeper.class.getName());
    static final String PLAN_FILE = "groups-layout";
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final RaftHost host;
    private final RaftAddresses addresses;
    private final Path planFile;
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("hangar-raft-groups").factory());
    private volatile @Nullable GroupPlan plan;
    private volatile boolean ready;

    GroupKeeper(RaftHost host, RaftAddresses addresses, Path folder) {
        this.host = host;
        this.addresses = addresses;
        this.planFile = folder.resolve(PLAN_FILE);
        try {
            if (Files.exists(planFile)) {
                plan = GroupPlan.of(LayoutCodec.decode(Files.readAllBytes(planFile)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Raft groups' layout " + planFile, e);
        }
    }

    /** The groups commands are routed by; empty until the cluster has a layout. */
    @Nullable GroupPlan plan() {
        return plan;
    }

    /** Whether this node has added every division its plan gives it. */
    boolean ready() {
        return ready;
    }

    /** Takes a layout: the first one forms the groups; later ones are checked against them. */
    synchronized void layout(ClusterLayout layout) {
        if (layout.version() == 0 || layout.partitions() == 0 || layout.replicas(0).isEmpty()) {
            return;
        }
        GroupPlan current = plan;
        if (current == null) {
            GroupPlan formed = GroupPlan.of(layout);
            try {
                Files.createDirectories(planFile.getParent());
                AtomicFiles.write(planFile, LayoutCodec.encode(layout));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot record the Raft groups' layout in " + planFile, e);
            }
            plan = formed;
            LOG.info(() -> "Raft groups formed on layout v" + layout.version() + ": " + formed.groups().size()
                    + " groups");
        } else if (layout.version() > current.layoutVersion()
                && !GroupPlan.of(layout).byPartition().equals(current.byPartition())) {
            LOG.warning(() -> "layout v" + layout.version() + " changes the Raft groups of layout v"
                    + current.layoutVersion() + "; moving metadata between groups is not supported yet, so the"
                    + " groups and the placement of buckets stay as they are");
        }
        retries.execute(this::ensureDivisions);
    }

    private void ensureDivisions() {
        GroupPlan current = plan;
        if (current == null) {
            return;
        }
        boolean all = true;
        for (GroupPlan.Group group : current.groups()) {
            if (!group.hasMember(host.self()) || host.hasGroup(group.id())) {
                continue;
            }
            try {
                host.addGroup(raftGroup(group));
            } catch (IOException | RuntimeException e) {
                all = false;
                LOG.log(Level.FINE, "cannot add Raft group " + group.id() + " yet; retrying", e);
            }
        }
        ready = all;
        if (!all) {
            retries.schedule(this::ensureDivisions, RETRY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The Ratis group of a planned group: its members at their Raft addresses, the preferred leader first. */
    RaftGroup raftGroup(GroupPlan.Group group) {
        List<RaftPeer> peers = new ArrayList<>();
        for (NodeId member : group.members()) {
            InetSocketAddress address = addresses.of(member).join();
            peers.add(RaftPeer.newBuilder()
                    .setId(RaftHost.peerId(member))
                    .setAddress(address.getHostString() + ":" + address.getPort())
                    // The first replica leads when it can: leaders spread over the nodes as first replicas do.
                    .setPriority(member.equals(group.preferredLeader()) ? 1 : 0)
                    .build());
        }
        return RaftGroup.valueOf(group.id(), peers);
    }

    @Override
    public void close() {
        retries.shutdownNow();
    }
}
