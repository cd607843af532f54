package dev.hangar.cluster.meta;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * This node's locks around the read-modify-writes of the replicated metadata. They order writers
 * that go through this node only: writers on other nodes meet here only through the table's
 * last-writer-wins merge.
 *
 * <ul>
 *   <li>An open lock: every operation holds its read side, {@link #close} its write side, so close
 *       waits for running operations and later ones throw.
 *   <li>A bucket lock, striped: object, upload and configuration mutations hold its read side,
 *       create and delete of the bucket its write side, so that no object is written here into a
 *       bucket this node is checking for emptiness.
 *   <li>A key lock, striped by bucket and key: serialises the read-then-write of one entry.
 *   <li>One access key lock for their (rare) read-modify-writes.
 * </ul>
 *
 * <p>Always taken in that order, at most one of each, so they cannot deadlock.
 */
final class MetaLocks {
    private static final int KEY_STRIPES = 256;
    private static final int BUCKET_STRIPES = 64;

    private final ReentrantReadWriteLock openLock = new ReentrantReadWriteLock();
    private final ReentrantReadWriteLock[] bucketLocks = new ReentrantReadWriteLock[BUCKET_STRIPES];
    private final ReentrantLock[] keyLocks = new ReentrantLock[KEY_STRIPES];
    private final ReentrantLock accessKeyLock = new ReentrantLock();
    // Guarded by openLock.
    private boolean closed;

    MetaLocks() {
        for (int i = 0; i < BUCKET_STRIPES; i++) {
            bucketLocks[i] = new ReentrantReadWriteLock();
        }
        for (int i = 0; i < KEY_STRIPES; i++) {
            keyLocks[i] = new ReentrantLock();
        }
    }

    /** Held locks; closing releases them in reverse order. */
    @FunctionalInterface
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    Held open() {
        Lock open = openLock.readLock();
        open.lock();
        if (closed) {
            open.unlock();
            throw new IllegalStateException("metadata store is closed");
        }
        return open::unlock;
    }

    Held key(String bucket, String key) {
        Held open = open();
        Lock bucketLock = bucketLock(bucket).readLock();
        Lock keyLock = keyLocks[stripe(31 * bucket.hashCode() + key.hashCode(), KEY_STRIPES)];
        bucketLock.lock();
        keyLock.lock();
        return () -> {
            keyLock.unlock();
            bucketLock.unlock();
            open.close();
        };
    }

    Held bucket(String bucket) {
        Held open = open();
        Lock bucketLock = bucketLock(bucket).writeLock();
        bucketLock.lock();
        return () -> {
            bucketLock.unlock();
            open.close();
        };
    }

    Held accessKeys() {
        Held open = open();
        accessKeyLock.lock();
        return () -> {
            accessKeyLock.unlock();
            open.close();
        };
    }

    /** Waits for running operations, runs {@code release} once; later operations throw. */
    void close(Runnable release) {
        Lock close = openLock.writeLock();
        close.lock();
        try {
            if (!closed) {
                closed = true;
                release.run();
            }
        } finally {
            close.unlock();
        }
    }

    private ReentrantReadWriteLock bucketLock(String bucket) {
        return bucketLocks[stripe(bucket.hashCode(), BUCKET_STRIPES)];
    }

    // String hashes of similar names differ in their low bits only after spreading the high ones.
    private static int stripe(int hash, int stripes) {
        return (hash ^ (hash >>> 16)) & (stripes - 1);
    }
}
