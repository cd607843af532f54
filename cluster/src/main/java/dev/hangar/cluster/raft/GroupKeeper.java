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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.apache.ratis.proto.RaftProtos.RaftConfigurationProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerProto;
import org.apache.ratis.protocol.GroupInfoReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftConfiguration;
import org.apache.ratis.server.RaftServer;
import org.jspecify.annotations.Nullable;

/**
 * Keeps this node's divisions in line with the groups of the layout.
 *
 * <p><b>Forming.</b> The groups form on the cluster's first layout (version 1): every node plans them alike from it
 * ({@link GroupPlan}) and records it in {@code groups-layout} beside the Raft logs, which fixes the routing for good.
 * A node that first sees a later layout (it joined after, or missed the first) asks the others for theirs ({@link
 * GroupFormation}); should none of the layout's storage nodes have groups, the Raft mode was switched on after the
 * first layout, and it forms them on the one it has.
 *
 * <p><b>Following the layout.</b> Each later layout gives the groups new members ({@link GroupPlan#reconfigured}),
 * and this node does its part, every second until nothing is left to do:
 * <ul>
 *   <li>a member without a division adds one: with every member on the first layout (all form the group at once);
 *       afterwards with none, so that it waits for the leader to bring it in instead of calling elections;
 *   <li>the leader of a group whose membership differs asks Ratis to change it (compare-and-set): Ratis catches new
 *       members up (log or snapshot) before it commits the joint membership, then the new one, so every committed
 *       command stays on a majority of whichever membership decides;
 *   <li>a node that is no longer a member removes its division (log and store) once a member reports the new
 *       membership in force: the joint membership was then committed, and the new members decide without it. Each
 *       removal runs on a thread of its own, as closing a division can take long.
 * </ul>
 * No command moves between groups, so none is lost or applied twice; a group's leader may be an old member until
 * the change commits, and a client's forwards follow it (Ratis answers with the leader).
 */
final class GroupKeeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GroupKeeper.class.getName());
    static final String PLAN_FILE = "groups-layout";
    private static final Duration RETRY = Duration.ofSeconds(1);
    private static final Duration INFO_WAIT = Duration.ofSeconds(5);
    private static final Duration SLOW_REMOVAL = Duration.ofSeconds(30);

    private final RaftHost host;
    private final RaftAddresses addresses;
    private final GroupFormation formations;
    private final Path planFile;
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("hangar-raft-groups").factory());
    /** Membership changes this node (as a leader) has asked for and that have not ended yet, by group. */
    private final Map<RaftGroupId, CompletableFuture<?>> changing = new ConcurrentHashMap<>();
    /**
     * Divisions this node is removing, by group. Ratis takes a division out of its server at once, then closes it
     * and waits for the close to finish, without a bound (one once took over 90 s); each removal has its
     * own thread so that one slow close holds up neither the other groups nor this node's part in them. At most one
     * per group, so at most as many threads as groups.
     */
    private final Map<RaftGroupId, CompletableFuture<Void>> removing = new ConcurrentHashMap<>();
    private final ExecutorService removals = Executors.newThreadPerTaskExecutor(
            Thread.ofPlatform().daemon().name("hangar-raft-group-removal-", 0).factory());
    private volatile @Nullable ClusterLayout formedOn;
    private volatile @Nullable GroupPlan formation;
    private volatile @Nullable GroupPlan plan;
    private volatile @Nullable ClusterLayout latest;
    private boolean reconciling;

    GroupKeeper(RaftHost host, RaftAddresses addresses, GroupFormation formations, Path folder) {
        this.host = host;
        this.addresses = addresses;
        this.formations = formations;
        this.planFile = folder.resolve(PLAN_FILE);
        try {
            if (Files.exists(planFile)) {
                ClusterLayout layout = LayoutCodec.decode(Files.readAllBytes(planFile));
                formedOn = layout;
                formation = GroupPlan.of(layout);
                plan = formation;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Raft groups' layout " + planFile, e);
        }
    }

    /** The groups commands are routed by, with the members of the latest layout; empty until they are formed. */
    @Nullable GroupPlan plan() {
        return plan;
    }

    /** The layout the groups were formed on, if they were: what other nodes ask for ({@link GroupFormation}). */
    @Nullable ClusterLayout formedOn() {
        return formedOn;
    }

    /** Takes a layout: forms the groups on the first one, gives them new members on later ones. */
    synchronized void layout(ClusterLayout layout) {
        if (layout.version() == 0 || layout.partitions() == 0 || layout.replicas(0).isEmpty()) {
            return;
        }
        ClusterLayout previous = latest;
        if (previous != null && previous.version() >= layout.version()) {
            return;
        }
        latest = layout;
        if (formation == null && layout.version() == 1) {
            form(layout, "formed on layout v1");
        }
        follow();
        reconcileSoon();
    }

    // With the groups formed, their members become those of the latest layout; clients of changed groups are
    // dropped, so that the next forward finds the members anew.
    private synchronized void follow() {
        GroupPlan formed = formation;
        ClusterLayout layout = latest;
        if (formed == null || layout == null) {
            return;
        }
        GroupPlan current = plan;
        if (current != null && current.layoutVersion() >= layout.version()) {
            return;
        }
        GroupPlan next = formed.reconfigured(layout);
        if (current != null) {
            List<String> changed = new ArrayList<>();
            for (GroupPlan.Group group : next.groups()) {
                GroupPlan.Group before = current.group(group.id());
                if (!group.equals(before)) {
                    changed.add(group.id() + " " + (before == null ? "[]" : before.members()) + " -> "
                            + group.members());
                    host.dropClient(group.id());
                }
            }
            if (!changed.isEmpty()) {
                LOG.info(() -> "layout v" + layout.version() + " changes the members of " + changed.size()
                        + " Raft groups: " + String.join("; ", changed));
            }
        }
        next.groups().forEach(group -> group.members().forEach(host.faults()::register));
        plan = next;
    }

    private synchronized void form(ClusterLayout layout, String how) {
        GroupPlan formed = GroupPlan.of(layout);
        try {
            Files.createDirectories(planFile.getParent());
            AtomicFiles.write(planFile, LayoutCodec.encode(layout));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the Raft groups' layout in " + planFile, e);
        }
        formedOn = layout;
        formation = formed;
        LOG.info(() -> "Raft groups " + how + ": " + formed.groups().size() + " groups");
    }

    private void reconcileSoon() {
        synchronized (this) {
            if (reconciling) {
                return;
            }
            reconciling = true;
        }
        try {
            retries.execute(this::reconcile);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            // Closing.
        }
    }

    private void reconcile() {
        synchronized (this) {
            reconciling = false;
        }
        boolean settled;
        try {
            settled = formation != null || learnFormation() ? reconcileGroups() : false;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "keeping the Raft groups in line with the layout failed; retrying", e);
            settled = false;
        }
        if (!settled) {
            try {
                retries.schedule(this::reconcileSoon, RETRY.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                // Closing.
            }
        }
    }

    // Asks the other storage nodes of the latest layout for the layout their groups formed on; true once known.
    private boolean learnFormation() {
        ClusterLayout layout = latest;
        if (layout == null) {
            return false;
        }
        boolean allAnswered = true;
        for (NodeId node : layout.partitionCounts().keySet()) {
            if (node.equals(host.self())) {
                continue;
            }
            try {
                Optional<ClusterLayout> formed = formations.ask(node).get(INFO_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                if (formed.isPresent()) {
                    form(formed.get(), "learned from " + node + " (formed on layout v" + formed.get().version() + ")");
                    follow();
                    return true;
                }
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                allAnswered = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        if (!allAnswered) {
            return false;
        }
        form(layout, "formed on layout v" + layout.version() + ", no other node having groups");
        follow();
        return true;
    }

    // One pass over the groups: true when nothing is left to do.
    private boolean reconcileGroups() {
        GroupPlan current = plan;
        GroupPlan formed = formation;
        if (current == null || formed == null) {
            return false;
        }
        boolean settled = true;
        for (GroupPlan.Group group : current.groups()) {
            Optional<RaftServer.Division> division = host.division(group.id());
            try {
                if (!group.hasMember(host.self())) {
                    // A leader that is not a member any more still makes the change: it leads until it commits.
                    settled &= division.isEmpty() || (isLeader(division.get())
                            && !planned(group, division.get().getRaftConf()) ? matches(group, division.get())
                            : leave(group));
                } else if (division.isEmpty() && removing.containsKey(group.id())) {
                    // A member again before its earlier division finished closing: that one goes first.
                    settled = false;
                } else if (division.isEmpty()) {
                    // On the first layout every member forms the group; later, a new member waits to be brought in.
                    host.addGroup(current.layoutVersion() == formed.layoutVersion()
                            ? raftGroup(group) : RaftGroup.valueOf(group.id(), List.of()));
                    settled = false;
                } else if (!division.get().getInfo().isAlive()) {
                    settled = false;
                    rejoin(group, division.get());
                } else {
                    settled &= matches(group, division.get());
                }
            } catch (IOException | RuntimeException e) {
                settled = false;
                LOG.log(Level.FINE, "Raft group " + group.id() + " is not in line with the layout yet; retrying", e);
            }
        }
        return settled;
    }

    // Whether this member's division has the planned membership; its leader asks for it when it differs.
    private boolean matches(GroupPlan.Group group, RaftServer.Division division) {
        RaftConfiguration conf = division.getRaftConf();
        if (planned(group, conf)) {
            return true;
        }
        if (division.getInfo().isLeader() && division.getInfo().isLeaderReady() && conf.getPreviousPeers().isEmpty()
                && !changing.containsKey(group.id())) {
            List<RaftPeer> before = List.copyOf(conf.getCurrentPeers());
            List<NodeId> step = MembershipStep.next(ids(before).stream().map(NodeId::new).toList(), group.members());
            List<RaftPeer> next = peers(step, group.preferredLeader());
            LOG.info(() -> "Raft group " + group.id() + ": changing members " + ids(before) + " -> " + step
                    + (step.equals(group.members()) ? "" : " on the way to " + group.members()));
            CompletableFuture<?> change = host.setMembers(group.id(), before, next)
                    .whenComplete((reply, failure) -> {
                        changing.remove(group.id());
                        if (failure != null || !reply.isSuccess()) {
                            // Typically a new member not yet up when Ratis began bringing it up to date.
                            LOG.info(() -> "Raft group " + group.id() + ": the change of members failed ("
                                    + (failure != null ? failure : reply.getException()) + "); retrying");
                        } else {
                            LOG.info(() -> "Raft group " + group.id() + " now has members " + step);
                        }
                        reconcileSoon();
                    });
            changing.put(group.id(), change);
        }
        return false;
    }

    // A joining member whose division shut itself down: Ratis closes a division that calls an election while not in
    // the membership it knows, which a new member installed from a snapshot of the old membership may do before the
    // leader's next entry (the new membership) reaches it. It held nothing any majority counts, so it starts again
    // empty and the leader brings it up to date anew. A division closed while a member (a failed state machine) is
    // left for the operator: its replica may be one a majority counts.
    private void rejoin(GroupPlan.Group group, RaftServer.Division division) throws IOException {
        RaftPeerId self = RaftHost.peerId(host.self());
        if (host.countsSelf(division)
                || division.getRaftConf().getPreviousPeers().stream().anyMatch(peer -> peer.getId().equals(self))) {
            LOG.warning(() -> "Raft group " + group.id() + ": this member's division has stopped; restart the node"
                    + " once its log shows why");
            return;
        }
        host.removeGroup(group.id());
        LOG.info(() -> "Raft group " + group.id() + ": this node's division stopped while joining; joining again");
    }

    // The planned members, none left of an earlier membership, and the preferred leader alone of highest priority.
    private static boolean planned(GroupPlan.Group group, RaftConfiguration conf) {
        return conf.getPreviousPeers().isEmpty() && sameMembers(ids(conf.getCurrentPeers()), group)
                && conf.getCurrentPeers().stream().allMatch(peer -> peer.getPriority()
                        == (peer.getId().equals(RaftHost.peerId(group.preferredLeader())) ? 1 : 0));
    }

    // A node no longer a member removes its division once a member reports the planned membership in force, so that
    // it neither keeps a stale replica nor calls elections in a group that has moved on. Not while it leads: Ratis
    // has a leader outside the new membership step down once that commits.
    private boolean leave(GroupPlan.Group group) {
        RaftGroupId id = group.id();
        if (removing.containsKey(id) || !memberReportsPlanned(group)) {
            return false;
        }
        CompletableFuture<Void> removal = new CompletableFuture<>();
        removing.put(id, removal);
        removal.whenComplete((ignored, failure) -> {
            removing.remove(id);
            if (failure != null) {
                LOG.log(Level.WARNING, "Raft group " + id + ": removing this node's division failed; retrying", failure);
            } else {
                LOG.info(() -> "Raft group " + id + ": this node is no longer a member; its division is removed");
            }
            reconcileSoon();
        });
        try {
            removals.execute(() -> {
                try {
                    host.removeGroup(id);
                    removal.complete(null);
                } catch (IOException | RuntimeException e) {
                    removal.completeExceptionally(e);
                }
            });
            retries.schedule(() -> {
                if (!removal.isDone()) {
                    LOG.warning(() -> "Raft group " + id + ": this node's division has been closing for "
                            + SLOW_REMOVAL.toSeconds() + " s; the other groups go on meanwhile");
                }
            }, SLOW_REMOVAL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closed) {
            removal.cancel(false);
        }
        return false;
    }

    private static boolean isLeader(RaftServer.Division division) {
        try {
            return division.getInfo().isLeader();
        } catch (IllegalStateException closed) {
            return false;
        }
    }

    private boolean memberReportsPlanned(GroupPlan.Group group) {
        RaftGroup target = raftGroup(group);
        for (NodeId member : group.members()) {
            try {
                GroupInfoReply info = (GroupInfoReply) RaftHost.send(System.nanoTime() + INFO_WAIT.toNanos(),
                        () -> host.client(target).getGroupManagementApi(RaftHost.peerId(member)).info(group.id()));
                Optional<RaftConfigurationProto> conf = info.getConf();
                if (conf.isPresent() && conf.get().getOldPeersCount() == 0
                        && sameMembers(conf.get().getPeersList().stream().map(GroupKeeper::id).toList(), group)) {
                    return true;
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, "cannot ask " + member + " about Raft group " + group.id(), e);
            }
        }
        return false;
    }

    private static boolean sameMembers(Collection<String> ids, GroupPlan.Group group) {
        return Set.copyOf(ids).equals(group.members().stream().map(NodeId::value).collect(Collectors.toSet()));
    }

    private static List<String> ids(Collection<RaftPeer> peers) {
        return peers.stream().map(peer -> peer.getId().toString()).toList();
    }

    private static String id(RaftPeerProto peer) {
        return peer.getId().toStringUtf8();
    }

    /** The Ratis group of a planned group: its members at their Raft addresses, the preferred leader first. */
    RaftGroup raftGroup(GroupPlan.Group group) {
        return RaftGroup.valueOf(group.id(), peers(group.members(), group.preferredLeader()));
    }

    private List<RaftPeer> peers(List<NodeId> members, NodeId preferredLeader) {
        List<RaftPeer> peers = new ArrayList<>();
        for (NodeId member : members) {
            InetSocketAddress address = addresses.of(member).join();
            peers.add(RaftPeer.newBuilder()
                    .setId(RaftHost.peerId(member))
                    .setAddress(address.getHostString() + ":" + address.getPort())
                    // The first replica leads when it can: leaders spread over the nodes as first replicas do.
                    .setPriority(member.equals(preferredLeader) ? 1 : 0)
                    .build());
        }
        return peers;
    }

    @Override
    public void close() {
        retries.shutdownNow();
        removals.shutdownNow();
    }
}
