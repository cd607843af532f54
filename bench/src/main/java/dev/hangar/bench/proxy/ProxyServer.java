package dev.hangar.bench.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.random.RandomGenerator;

/**
 * The running delay proxy: one accept loop per listener, a virtual thread per connection setup and
 * two per direction (a reader and a writer). Every socket operation blocks a virtual thread and
 * none runs on an event loop. Closing it resets every open connection.
 */
public final class ProxyServer implements AutoCloseable {

    private final ProxyConfig config;
    private final ProxyLog log;
    private final List<ServerSocket> serverSockets = new ArrayList<>();
    private final List<Thread> acceptors = new ArrayList<>();
    private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();
    private final Semaphore connectionSlots;
    private final SplittableRandom seeds;
    private final ThreadFactory threads = Thread.ofVirtual().name("delay-proxy-", 0).factory();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Connections context = new Connections();

    private ProxyServer(ProxyConfig config, ProxyLog log) {
        this.config = config;
        this.log = log;
        this.connectionSlots = new Semaphore(config.maxConnections());
        this.seeds = new SplittableRandom(config.seed());
    }

    /** Binds every listener (failing if a port is taken) and starts accepting. */
    public static ProxyServer start(ProxyConfig config, ProxyLog log) throws IOException {
        ProxyServer server = new ProxyServer(config, log);
        try {
            for (ListenerSpec listener : config.listeners()) {
                ServerSocket serverSocket = new ServerSocket();
                server.serverSockets.add(serverSocket);
                serverSocket.setReuseAddress(true);
                serverSocket.bind(new InetSocketAddress(config.bindAddress(), listener.port()), 128);
            }
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        for (int i = 0; i < config.listeners().size(); i++) {
            ServerSocket serverSocket = server.serverSockets.get(i);
            ListenerSpec listener = config.listeners().get(i);
            Thread acceptor = server.threads.newThread(() -> server.accept(serverSocket, listener));
            server.acceptors.add(acceptor);
            acceptor.start();
        }
        return server;
    }

    public ProxyConfig config() {
        return config;
    }

    /** The ports listened on, in the order of the listeners (useful when a listener asked for port 0). */
    public List<Integer> ports() {
        return serverSockets.stream().map(ServerSocket::getLocalPort).toList();
    }

    public int openConnections() {
        return connections.size();
    }

    /** Bytes read from one side and not yet written to the other, over every connection and direction. */
    public long bytesInFlight() {
        long total = 0;
        for (ProxiedConnection connection : connections) {
            total += connection.bytesInFlight();
        }
        return total;
    }

    /** Blocks until {@link #close()}. */
    public void awaitClose() throws InterruptedException {
        closed.await();
    }

    /** Stops listening (the ports are free when it returns) and resets every open connection. */
    @Override
    public void close() {
        closed.countDown();
        for (ServerSocket serverSocket : serverSockets) {
            try {
                serverSocket.close();
            } catch (IOException e) {
                // Closing is all we want; an error leaves nothing to undo.
            }
        }
        // A socket closed while a thread is blocked in accept() releases its port only once that thread
        // has woken up; on a busy machine that takes a while, and a restarted proxy must find its ports free.
        for (Thread acceptor : acceptors) {
            try {
                if (!acceptor.join(Duration.ofSeconds(10))) {
                    log.problem("a listener did not stop within 10 s; its port may still be taken");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (ProxiedConnection connection : connections) {
            connection.abort();
        }
    }

    /** What connections see of their server. */
    private final class Connections implements ProxiedConnection.Context {

        @Override
        public ProxyConfig config() {
            return config;
        }

        @Override
        public RandomGenerator newRandom() {
            // split() is not thread-safe, and connections open concurrently.
            synchronized (seeds) {
                return seeds.split();
            }
        }

        @Override
        public ThreadFactory threads() {
            return threads;
        }

        @Override
        public void closed(ProxiedConnection connection) {
            if (connections.remove(connection)) {
                connectionSlots.release();
            }
        }

        @Override
        public ProxyLog log() {
            return log;
        }
    }

    private void accept(ServerSocket serverSocket, ListenerSpec listener) {
        while (!serverSocket.isClosed()) {
            Socket client;
            try {
                client = serverSocket.accept();
            } catch (IOException e) {
                if (!serverSocket.isClosed()) {
                    log.problem("accept failed on :" + serverSocket.getLocalPort() + ": " + e);
                    // Out of file descriptors, say: retrying at once would only spin and flood the log.
                    pauseAfterFailedAccept();
                }
                continue;
            }
            try {
                // Without it, Nagle's algorithm would hold small writes back on top of the delay.
                client.setTcpNoDelay(true);
            } catch (IOException e) {
                log.problem("no TCP_NODELAY for " + client.getRemoteSocketAddress() + ": " + e);
            }
            if (!connectionSlots.tryAcquire()) {
                log.problem("refused " + client.getRemoteSocketAddress() + ": " + config.maxConnections() + " connections open");
                ProxiedConnection refused = new ProxiedConnection(client, listener, context);
                refused.abort();
                continue;
            }
            ProxiedConnection connection = new ProxiedConnection(client, listener, context);
            connections.add(connection);
            if (closed.getCount() == 0) {
                // close() may have walked the set before this one joined it.
                connection.abort();
                continue;
            }
            threads.newThread(connection::open).start();
        }
    }

    private static void pauseAfterFailedAccept() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
