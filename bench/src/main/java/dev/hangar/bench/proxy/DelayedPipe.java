package dev.hangar.bench.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One direction of a proxied connection: a reader thread that reads {@code source} as fast as it
 * delivers and stamps every chunk with its release time, and a writer thread that writes each
 * chunk to {@code sink} when that time comes. Reading never waits for the delay, so the delay adds
 * latency without throttling; only the cap on bytes in flight stops the reader, which is TCP
 * back-pressure on the sender rather than buffering without bound.
 *
 * <p>Everything the source does reaches the sink in order and delayed: bytes, then its FIN, or a
 * reset (a failed read) in place of the FIN.
 */
final class DelayedPipe {

    /** What the connection hears from its two pipes. */
    interface Owner {

        /** The source's FIN has been forwarded to the sink after every byte before it. */
        void pipeFinished(DelayedPipe pipe);

        /** A reset's release time has come: reset both sides now. */
        void resetArrived(DelayedPipe pipe, String cause);

        /** Writing to the sink failed, so the sink is gone; the other direction must carry the news to the source. */
        void sinkFailed(DelayedPipe pipe, Exception cause);
    }

    private final String direction;
    private final Socket source;
    private final Socket sink;
    private final DelaySchedule schedule;
    private final int chunkBytes;
    private final int maxInFlightBytes;
    private final Semaphore freeBytes;
    private final BlockingQueue<Segment> queue = new LinkedBlockingQueue<>();
    private final AtomicLong forwardedBytes = new AtomicLong();
    private final Owner owner;
    private volatile @Nullable Thread reader;
    private volatile @Nullable Thread writer;

    DelayedPipe(String direction, Socket source, Socket sink, DelaySchedule schedule, int chunkBytes, int maxInFlightBytes, Owner owner) {
        this.direction = direction;
        this.source = source;
        this.sink = sink;
        this.schedule = schedule;
        this.chunkBytes = chunkBytes;
        this.maxInFlightBytes = maxInFlightBytes;
        this.freeBytes = new Semaphore(maxInFlightBytes);
        this.owner = owner;
    }

    void start(ThreadFactory threads) {
        writer = threads.newThread(this::write);
        reader = threads.newThread(this::read);
        writer.start();
        reader.start();
    }

    /** Queues a reset to the sink behind what is queued, with this direction's delay: news of the source side breaking. */
    void forwardReset(String cause) {
        queue.add(new Segment.Reset(cause, schedule.releaseAt(System.nanoTime())));
    }

    /** Ends both threads once the connection is closed (closing the sockets wakes socket I/O; this wakes the waits). */
    void stop() {
        Thread reader = this.reader;
        Thread writer = this.writer;
        if (reader != null) {
            reader.interrupt();
        }
        if (writer != null) {
            writer.interrupt();
        }
    }

    /** Bytes read and not yet written. */
    int bytesInFlight() {
        return maxInFlightBytes - freeBytes.availablePermits();
    }

    long forwardedBytes() {
        return forwardedBytes.get();
    }

    OneWayDelay delay() {
        return schedule.delay();
    }

    /** {@code up} (client to target) or {@code down}. */
    String direction() {
        return direction;
    }

    private void read() {
        try {
            InputStream in = source.getInputStream();
            byte[] buffer = new byte[chunkBytes];
            while (true) {
                int read = in.read(buffer);
                long arrival = System.nanoTime();
                if (read < 0) {
                    queue.add(new Segment.End(schedule.releaseAt(arrival)));
                    return;
                }
                // At the cap, wait here without reading: the kernel's buffers fill and TCP stops the sender.
                freeBytes.acquire(read);
                queue.add(new Segment.Data(Arrays.copyOf(buffer, read), schedule.releaseAt(arrival)));
            }
        } catch (IOException | RuntimeException e) {
            // A reset from the source (or the connection closing under us, when nobody reads the queue any more).
            queue.add(new Segment.Reset(direction + " read: " + e, schedule.releaseAt(System.nanoTime())));
        } catch (InterruptedException e) {
            // The connection is closed: nothing left to do.
        }
    }

    private void write() {
        // Once the sink has failed, bytes have nowhere to go; the writer stays to release their room (the reader
        // goes on draining the source, like bytes sent to a dead host) and to carry out the reset that ends it all.
        boolean sinkBroken = false;
        try {
            OutputStream out = sink.getOutputStream();
            while (true) {
                Segment segment = queue.take();
                sleepUntil(segment.releaseNanos());
                switch (segment) {
                    case Segment.Data data -> {
                        if (!sinkBroken) {
                            sinkBroken = !forward(out, data.bytes());
                        }
                        freeBytes.release(data.bytes().length);
                    }
                    case Segment.End end -> {
                        if (!sinkBroken) {
                            sinkBroken = !shutDownSink();
                        }
                        // Stay even so: the other direction may still forward a reset through this queue.
                    }
                    case Segment.Reset reset -> {
                        owner.resetArrived(this, reset.cause());
                        return;
                    }
                }
            }
        } catch (IOException | InterruptedException e) {
            // The connection is closed (the sink's stream is gone, or the pipe was stopped): nothing left to do.
        }
    }

    /** Writes to the sink; false (and the owner told) if it failed. */
    private boolean forward(OutputStream out, byte[] bytes) {
        try {
            out.write(bytes);
            forwardedBytes.addAndGet(bytes.length);
            return true;
        } catch (IOException | RuntimeException e) {
            owner.sinkFailed(this, e);
            return false;
        }
    }

    /** Forwards the FIN; false (and the owner told) if it failed. */
    private boolean shutDownSink() {
        try {
            sink.shutdownOutput();
            owner.pipeFinished(this);
            return true;
        } catch (IOException | RuntimeException e) {
            owner.sinkFailed(this, e);
            return false;
        }
    }

    private static void sleepUntil(long releaseNanos) throws InterruptedException {
        long remaining;
        while ((remaining = releaseNanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(remaining);
        }
    }
}
