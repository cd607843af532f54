/**
 * A TCP delay proxy for the consensus lab: it sits in front of a node and delays each direction of
 * every connection by the one-way delay between the client's zone and the node's zone, with
 * jitter, so that containers on one machine see the network of a multi-zone cluster. Run it with
 * {@link dev.hangar.bench.proxy.DelayProxy}; embed it with {@link dev.hangar.bench.proxy.ProxyServer}.
 *
 * <p>The model: a connection is two {@code DelayedPipe}s (one per direction), each a reader that
 * never waits for the delay and a writer that releases chunks at their time. A chunk's release is
 * {@code max(previous release, arrival + draw)} ({@code DelaySchedule}), so bytes are never
 * reordered; bytes held per direction are capped, and at the cap the reader stops, which is TCP
 * back-pressure on the sender. FINs and resets travel behind the bytes before them. Zones come
 * from the client's source address ({@link dev.hangar.bench.proxy.ZoneMap}) and from the listener
 * ({@link dev.hangar.bench.proxy.ListenerSpec}); delays from a table of zone pairs ({@link
 * dev.hangar.bench.proxy.DelayTable}).
 */
@NullMarked
package dev.hangar.bench.proxy;

import org.jspecify.annotations.NullMarked;
