package dev.hangar.bench.proxy;

/** What one direction of a connection queues between its reader and its writer, each with its release time. */
sealed interface Segment {

    long releaseNanos();

    /** Bytes, in the order they were read. */
    record Data(byte[] bytes, long releaseNanos) implements Segment {
    }

    /** The sender shut its side (FIN): forward the shutdown once every earlier byte is out. */
    record End(long releaseNanos) implements Segment {
    }

    /** The connection broke (a reset, or an error on either side): once earlier bytes are out, reset both sides. */
    record Reset(String cause, long releaseNanos) implements Segment {
    }
}
