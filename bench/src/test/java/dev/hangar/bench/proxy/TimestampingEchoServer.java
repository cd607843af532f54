package dev.hangar.bench.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Echoes fixed-size messages and records, for each, the {@link System#nanoTime()} at which it was
 * complete. Tests run in the same JVM, so a client's send time and this arrival time are on one
 * clock, and each direction's delay is measured on its own.
 */
final class TimestampingEchoServer implements AutoCloseable {

    private final ServerSocket serverSocket;
    private final int messageBytes;
    private final BlockingQueue<Long> arrivals = new LinkedBlockingQueue<>();

    TimestampingEchoServer(int messageBytes) throws IOException {
        this.messageBytes = messageBytes;
        serverSocket = new ServerSocket();
        serverSocket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread.ofVirtual().start(this::acceptLoop);
    }

    int port() {
        return serverSocket.getLocalPort();
    }

    /** The arrival time of the next message, in the order they arrived. */
    long nextArrival() throws InterruptedException {
        Long arrival = arrivals.poll(30, java.util.concurrent.TimeUnit.SECONDS);
        if (arrival == null) {
            throw new AssertionError("no message reached the echo server within 30 s");
        }
        return arrival;
    }

    private void acceptLoop() {
        while (!serverSocket.isClosed()) {
            try {
                Socket socket = serverSocket.accept();
                socket.setTcpNoDelay(true);
                Thread.ofVirtual().start(() -> echo(socket));
            } catch (IOException e) {
                // Closed: the test is over.
            }
        }
    }

    private void echo(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                byte[] message = in.readNBytes(messageBytes);
                if (message.length < messageBytes) {
                    return;
                }
                arrivals.add(System.nanoTime());
                out.write(message);
            }
        } catch (IOException e) {
            // The client went away.
        }
    }

    @Override
    public void close() throws IOException {
        serverSocket.close();
    }
}
