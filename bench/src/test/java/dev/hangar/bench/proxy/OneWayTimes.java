package dev.hangar.bench.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;

/**
 * Sends small messages one at a time through a proxy to a {@link TimestampingEchoServer} and keeps
 * each direction's one-way time, in milliseconds, sorted.
 */
record OneWayTimes(double[] upMillis, double[] downMillis) {

    static final int MESSAGE_BYTES = 16;

    static OneWayTimes measure(Socket socket, TimestampingEchoServer server, int warmups, int rounds) throws IOException, InterruptedException {
        OutputStream out = socket.getOutputStream();
        InputStream in = socket.getInputStream();
        byte[] message = new byte[MESSAGE_BYTES];
        double[] up = new double[rounds];
        double[] down = new double[rounds];
        for (int i = -warmups; i < rounds; i++) {
            Arrays.fill(message, (byte) i);
            long sent = System.nanoTime();
            out.write(message);
            long arrived = server.nextArrival();
            byte[] echo = in.readNBytes(MESSAGE_BYTES);
            long back = System.nanoTime();
            if (!Arrays.equals(echo, message)) {
                throw new AssertionError("echo " + Arrays.toString(echo) + " is not " + Arrays.toString(message));
            }
            if (i >= 0) {
                up[i] = (arrived - sent) / 1e6;
                down[i] = (back - arrived) / 1e6;
            }
        }
        Arrays.sort(up);
        Arrays.sort(down);
        return new OneWayTimes(up, down);
    }

    static double median(double[] sorted) {
        return percentile(sorted, 50);
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)];
    }

    String describe() {
        return "up " + describe(upMillis) + ", down " + describe(downMillis);
    }

    private static String describe(double[] sorted) {
        return String.format("median %.2f ms [min %.2f, p25 %.2f, p90 %.2f, max %.2f]", median(sorted), sorted[0],
            percentile(sorted, 25), percentile(sorted, 90), sorted[sorted.length - 1]);
    }
}
