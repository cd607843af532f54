package dev.hangar.bench.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.SplittableRandom;

/** One side of a two-way transfer: sends one random stream and verifies the other, at once. */
final class StreamCheck {

    /** What a side received: how many bytes, and the offset of the first wrong byte or -1. */
    record Received(long bytes, long firstMismatch) {
    }

    private StreamCheck() {
    }

    /** Writes {@code bytes} of the stream of {@code seed} in writes of random sizes up to 64 KiB, then shuts output (FIN). */
    static void send(Socket socket, long seed, long bytes) throws IOException {
        RandomStream stream = new RandomStream(seed);
        SplittableRandom sizes = new SplittableRandom(seed ^ 0x5eed);
        OutputStream out = socket.getOutputStream();
        byte[] buffer = new byte[64 * 1024];
        long sent = 0;
        while (sent < bytes) {
            int n = (int) Math.min(bytes - sent, sizes.nextInt(1, buffer.length + 1));
            stream.next(buffer, 0, n);
            out.write(buffer, 0, n);
            sent += n;
        }
        socket.shutdownOutput();
    }

    /** Reads to end of stream, checking every byte against the stream of {@code seed}; keeps counting after a mismatch. */
    static Received receive(Socket socket, long seed) throws IOException {
        RandomStream expected = new RandomStream(seed);
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[64 * 1024];
        long received = 0;
        long firstMismatch = -1;
        int n;
        while ((n = in.read(buffer)) >= 0) {
            if (firstMismatch < 0) {
                firstMismatch = expected.firstMismatch(buffer, n);
            }
            received += n;
        }
        return new Received(received, firstMismatch);
    }
}
