package dev.hangar.metadata;

import dev.hangar.metadata.command.MetadataCommand;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The locks that make a metadata store's read-modify-write mutations atomic against each other,
 * for the stores of this process: RocksDB makes each batch atomic, but not the read that decided
 * what to put in it; a replicated store orders the writers that go through its node with them.
 *
 * <ul>
 *   <li>A key lock, striped by hash of bucket and key, serialises everything that reads then
 *       writes the versions or the uploads of one key (put, delete, update, putPart, complete,
 *       abort). Bucket configuration mutations take the key lock of their kind's name: they only
 *       need it against each other, and sharing a stripe with an object key costs nothing else.
 *   <li>A bucket lock, striped by hash of the bucket name: object and upload mutations hold its
 *       read side, create and delete of the bucket its write side, so no object can be committed
 *       into a bucket while it is being checked for emptiness and deleted. Striping bounds the
 *       memory that names of buckets (existing or not) could otherwise take.
 *   <li>An open lock: every operation holds its read side, {@link #close} its write side, so that
 *       no operation touches RocksDB handles while or after they are freed (that would crash the
 *       JVM rather than throw).
 *   <li>An access key lock, one for all keys (their mutations are rare), serialises the
 *       read-modify-write of access keys; taken with the open lock only.
 *   <li>A service configuration lock, one for all of them (operators change them, rarely), does the
 *       same for service configuration documents.
 * </ul>
 *
 * <p>Locks are always taken in that order (open, bucket, key), at most one of each, so they cannot
 * deadlock. The version sequence's monitor may be taken last, under any of them.
 */
public final class StoreLocks {
    private static final int KEY_STRIPES = 256;
    private static final int BUCKET_STRIPES = 64;

    private final ReentrantReadWriteLock openLock = new ReentrantReadWriteLock();
    private final ReentrantReadWriteLock[] bucketLocks = new ReentrantReadWriteLock[BUCKET_STRIPES];
    private final ReentrantLock[] keyLocks = new ReentrantLock[KEY_STRIPES];
    private final ReentrantLock accessKeyLock = new ReentrantLock();
    private final ReentrantLock serviceConfigLock = new ReentrantLock();
    // Guarded by openLock.
    private boolean closed;

    public StoreLocks() {
        for (int i = 0; i < BUCKET_STRIPES; i++) {
            bucketLocks[i] = new ReentrantReadWriteLock();
        }
        for (int i = 0; i < KEY_STRIPES; i++) {
            keyLocks[i] = new ReentrantLock();
        }
    }

    /** Held locks, released by {@link #close} in the reverse order of acquisition. */
    @FunctionalInterface
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** For reads and for writes that read nothing first. */
    public Held open() {
        Lock open = openLock.readLock();
        open.lock();
        if (closed) {
            open.unlock();
            throw new IllegalStateException("metadata store is closed");
        }
        return open::unlock;
    }

    /** For a read-modify-write of one key of a bucket: its object or its uploads and their parts. */
    public Held key(String bucket, String key) {
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

    /** For creating or deleting a bucket: excludes every mutation inside it. */
    public Held bucket(String bucket) {
        Held open = open();
        Lock bucketLock = bucketLock(bucket).writeLock();
        bucketLock.lock();
        return () -> {
            bucketLock.unlock();
            open.close();
        };
    }

    /** For a read-modify-write of access keys. */
    public Held accessKeys() {
        Held open = open();
        accessKeyLock.lock();
        return () -> {
            accessKeyLock.unlock();
            open.close();
        };
    }

    /** For a read-modify-write of service configuration documents. */
    public Held serviceConfigs() {
        Held open = open();
        serviceConfigLock.lock();
        return () -> {
            serviceConfigLock.unlock();
            open.close();
        };
    }

    /**
     * The locks a command's read-modify-write needs: the bucket's write side to create or delete a
     * bucket, the key's for versions and uploads, the kind's for configurations, the access keys'.
     */
    public Held forCommand(MetadataCommand<?> command) {
        return switch (command) {
            case MetadataCommand.CreateBucket create -> bucket(create.bucket());
            case MetadataCommand.DeleteBucket delete -> bucket(delete.bucket());
            case MetadataCommand.PutBucketConfig put -> key(put.bucket(), put.kind());
            case MetadataCommand.DeleteBucketConfig delete -> key(delete.bucket(), delete.kind());
            case MetadataCommand.PutVersion put -> key(put.bucket(), put.version().key());
            case MetadataCommand.DeleteVersion delete -> key(delete.bucket(), delete.key());
            case MetadataCommand.ChangeVersion change -> key(change.bucket(), change.key());
            case MetadataCommand.CreateUpload create -> key(create.bucket(), create.upload().key());
            case MetadataCommand.PutPart put -> key(put.bucket(), put.upload().key());
            case MetadataCommand.CompleteUpload complete -> key(complete.bucket(), complete.upload().key());
            case MetadataCommand.AbortUpload abort -> key(abort.bucket(), abort.upload().key());
            case MetadataCommand.PutAccessKey put -> accessKeys();
            case MetadataCommand.DeleteAccessKey delete -> accessKeys();
            case MetadataCommand.ChangeAccessKey change -> accessKeys();
            case MetadataCommand.PutServiceConfig put -> serviceConfigs();
            case MetadataCommand.DeleteServiceConfig delete -> serviceConfigs();
        };
    }

    /**
     * Waits for running operations, runs {@code release} once, and makes every later operation
     * throw {@link IllegalStateException}. Closing twice does nothing.
     */
    public void close(Runnable release) {
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

    /** Spreads the high bits into the low ones (string hashes of similar keys differ at the end). */
    private static int stripe(int hash, int stripes) {
        return (hash ^ (hash >>> 16)) & (stripes - 1);
    }
}
