/**
 * Who is in the cluster and which layout it runs: node settings and identity, failure detection and
 * peer discovery over RPC, and the staged, versioned partition layout every node converges on.
 *
 * <p><b>Discovery and failure detection.</b> Every node pings every peer it knows once per interval
 * ({@code membership.ping}). Both the ping and its answer carry a {@link
 * dev.hangar.cluster.membership.GossipMessage}: the sender's id, zone, capacity and RPC address, the
 * {@link dev.hangar.cluster.membership.LayoutDigest} of its layout, and every peer it knows. A new
 * node pings its seeds (whose ids it does not know yet) and learns the whole cluster from their
 * answers; the seeds learn the new node from its ping. Only an answer to one's own ping proves a peer
 * reachable: a received ping proves only that the link towards us works, and a one-way cut must not
 * look healthy from the side that cannot send.
 *
 * <p><b>Layout convergence.</b> A node that hears of a layout digest newer than its own fetches the
 * layout ({@code membership.layout}) from the node that announced it and adopts it. "Newer" is a
 * total order, higher version first and then the higher hash, so two layouts applied concurrently
 * with the same version still converge on one of them rather than leaving the cluster split.
 *
 * <p><b>Whom to ask first.</b> {@link dev.hangar.cluster.membership.ReplicaOrder} turns what this
 * node believes of its peers into the order in which chunk and table reads ask a partition's
 * replicas: those seen up before those seen suspect or down, none left out.
 */
@NullMarked
package dev.hangar.cluster.membership;

import org.jspecify.annotations.NullMarked;
