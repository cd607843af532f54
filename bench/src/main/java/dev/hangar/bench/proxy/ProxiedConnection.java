package dev.hangar.bench.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * One client connection and its connection to the target, joined by two {@link DelayedPipe}s.
 * Ending follows TCP across a delayed link: a FIN is forwarded after the bytes before it, and the
 * sockets are closed once both directions have ended that way. A reset, or an error on either
 * side, travels the same way as a FIN (behind the queued bytes, after the delay of the direction
 * that carries it) and then resets both sides (linger 0), dropping whatever is still queued.
 */
final class ProxiedConnection implements DelayedPipe.Owner {

    /** Zones, delays and limits that a connection needs from its server. */
    interface Context {

        ProxyConfig config();

        RandomGenerator newRandom();

        ThreadFactory threads();

        void closed(ProxiedConnection connection);

        ProxyLog log();
    }

    private final Socket client;
    private final ListenerSpec listener;
    private final Context context;
    private final Socket target = new Socket();
    private final AtomicInteger finishedPipes = new AtomicInteger();
    private boolean closed;
    private volatile String name;
    private @Nullable DelayedPipe upstream;
    private @Nullable DelayedPipe downstream;

    ProxiedConnection(Socket client, ListenerSpec listener, Context context) {
        this.client = client;
        this.listener = listener;
        this.context = context;
        this.name = String.valueOf(client.getRemoteSocketAddress());
    }

    /** Looks the client's zone up, connects to the target and starts both pipes; blocking, so run it on its own thread. */
    void open() {
        ProxyConfig config = context.config();
        String clientZone = config.zones().zoneOf(client.getInetAddress());
        String targetZone = listener.targetZone();
        name = client.getRemoteSocketAddress() + " (" + clientZone + ") -> :" + client.getLocalPort() + " -> "
            + listener.targetHost() + ":" + listener.targetPort() + " (" + targetZone + ")";
        OneWayDelay up = config.delays().between(clientZone, targetZone);
        OneWayDelay down = config.delays().between(targetZone, clientZone);
        try {
            target.setTcpNoDelay(true);
            // Resolved for every connection: a restarted container may come back with a new address.
            target.connect(new InetSocketAddress(listener.targetHost(), listener.targetPort()), (int) config.connectTimeout().toMillis());
        } catch (IOException | RuntimeException e) {
            context.log().problem("refused " + name + ": target unreachable: " + e);
            refuseAfter(down);
            return;
        }
        DelayedPipe upPipe = new DelayedPipe("up", client, target, new DelaySchedule(up, context.newRandom()),
            config.chunkBytes(), config.maxInFlightBytes(), this);
        DelayedPipe downPipe = new DelayedPipe("down", target, client, new DelaySchedule(down, context.newRandom()),
            config.chunkBytes(), config.maxInFlightBytes(), this);
        synchronized (this) {
            if (closed) {
                // The server closed while this one was connecting.
                closeQuietly(target);
                return;
            }
            upstream = upPipe;
            downstream = downPipe;
        }
        context.log().connection("open " + name + ": up " + up + ", down " + down);
        upPipe.start(context.threads());
        downPipe.start(context.threads());
    }

    int bytesInFlight() {
        DelayedPipe up;
        DelayedPipe down;
        synchronized (this) {
            up = upstream;
            down = downstream;
        }
        return (up == null ? 0 : up.bytesInFlight()) + (down == null ? 0 : down.bytesInFlight());
    }

    @Override
    public void pipeFinished(DelayedPipe pipe) {
        if (finishedPipes.incrementAndGet() == 2 && markClosed()) {
            closeQuietly(client);
            closeQuietly(target);
            upstream.stop();
            downstream.stop();
            context.log().connection("closed " + name + ": up " + upstream.forwardedBytes() + " B, down " + downstream.forwardedBytes() + " B");
            context.closed(this);
        }
    }

    @Override
    public void resetArrived(DelayedPipe pipe, String cause) {
        if (markClosed()) {
            context.log().connection("reset " + name + ": " + cause);
            resetBoth();
        }
    }

    @Override
    public void sinkFailed(DelayedPipe pipe, Exception cause) {
        // The sink of one direction is the source of the other: that one carries the reset back, delayed.
        (pipe == upstream ? downstream : upstream).forwardReset(pipe.direction() + " write: " + cause);
    }

    /** Resets both sides now; does nothing if the connection has already closed. */
    void abort() {
        if (markClosed()) {
            resetBoth();
        }
    }

    /** The target refused or did not answer: the client learns it as a reset, one delay later, as over a real link. */
    private void refuseAfter(OneWayDelay down) {
        try {
            TimeUnit.NANOSECONDS.sleep(down.sampleNanos(context.newRandom()));
        } catch (InterruptedException e) {
            // The server is closing: reset now.
        }
        abort();
    }

    private synchronized boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    private void resetBoth() {
        reset(client);
        reset(target);
        DelayedPipe up;
        DelayedPipe down;
        synchronized (this) {
            up = upstream;
            down = downstream;
        }
        if (up != null) {
            up.stop();
            down.stop();
        }
        context.closed(this);
    }

    private static void reset(Socket socket) {
        try {
            // Linger 0 makes close send RST: the peer learns the connection broke, not that it ended.
            // Also while a connect is under way: the target may already have accepted it.
            if (!socket.isClosed()) {
                socket.setSoLinger(true, 0);
            }
        } catch (IOException e) {
            // Closing below is all that matters.
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing to do: the socket is gone either way.
        }
    }
}
