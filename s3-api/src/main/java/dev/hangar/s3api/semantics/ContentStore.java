package dev.hangar.s3api.semantics;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.ChunkedStreams;
import dev.hangar.blockstore.NoSuchBlockException;
import dev.hangar.cluster.ReaderLeases;
import dev.hangar.cluster.RoundTrips;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;

/** Writes and reads object bytes: inline up to the threshold, in blocks above it. */
final class ContentStore {
    private final BlockStore blocks;
    private final MetadataStore metadata;
    private final ReaderLeases leases;
    private final S3Settings settings;

    ContentStore(BlockStore blocks, MetadataStore metadata, ReaderLeases leases, S3Settings settings) {
        this.blocks = blocks;
        this.metadata = metadata;
        this.leases = leases;
        this.settings = settings;
    }

    /**
     * Starts a read of object content: call it before looking up the version to read, then {@link
     * #hold} what the lookup found (or close the reading if there is nothing to read).
     */
    ReaderLeases.Reading beginRead() {
        return leases.begin();
    }

    /**
     * Leases the blocks of {@code version} that the range touches, ending {@code reading}: they stay
     * stored until the lease is closed, even if the version is overwritten or deleted meanwhile.
     */
    ReaderLeases.Lease hold(ReaderLeases.Reading reading, ObjectVersion version, long offset, long length) {
        List<BlockId> touched = new ArrayList<>();
        if (version.content() instanceof ObjectContent.Blocks stored && length > 0) {
            long start = 0;
            for (BlockRef block : stored.blocks()) {
                long end = start + block.size();
                if (end > offset && start < offset + length) {
                    touched.add(block.id());
                }
                start = end;
            }
        }
        return reading.hold(touched);
    }

    /**
     * Leases what a read of {@code length} plaintext bytes from {@code offset} needs: for sealed content, every
     * block of the version, as a part's salt and segments lie elsewhere than its plaintext.
     */
    ReaderLeases.Lease hold(ReaderLeases.Reading reading, ObjectVersion version, Optional<Sealing> sealing,
            long offset, long length) {
        return sealing.isEmpty() ? hold(reading, version, offset, length) : hold(reading, version, 0, Long.MAX_VALUE);
    }

    /**
     * Consumes {@code in} to its end. Objects within the inline threshold stay in memory (they will live in
     * their metadata record); anything else streams into blocks. Of a body of unknown length (-1) no more
     * than the threshold and one byte is held before it is known to be larger: then that much goes first
     * into the blocks, and the rest streams after it.
     */
    ObjectContent write(InputStream in, long length) throws IOException {
        if (length >= 0 && length <= settings.inlineThreshold()) {
            byte[] data = in.readNBytes((int) length);
            if (in.read() != -1) {
                throw new S3Exception(S3Error.INVALID_REQUEST, "The request body is longer than its declared length.");
            }
            return new ObjectContent.Inline(data);
        }
        if (length < 0) {
            byte[] head = in.readNBytes(settings.inlineThreshold() + 1);
            if (head.length <= settings.inlineThreshold()) {
                return new ObjectContent.Inline(head);
            }
            return new ObjectContent.Blocks(writeBlocks(new SequenceInputStream(new ByteArrayInputStream(head), in)));
        }
        return new ObjectContent.Blocks(writeBlocks(in));
    }

    /** Consumes {@code in} to its end into blocks, whatever its size (multipart parts). */
    List<BlockRef> writeBlocks(InputStream in) throws IOException {
        return ChunkedStreams.writeChunks(blocks, in, settings.chunkSize(), blocks.writeBehind(),
                requestThreads("hangar-write-behind"));
    }

    /** Streams {@code length} bytes of a version's content from {@code offset}. */
    InputStream open(ObjectVersion version, long offset, long length) throws IOException {
        return switch (version.content()) {
            case ObjectContent.Inline inline -> new ByteArrayInputStream(inline.data(), (int) offset, (int) length);
            case ObjectContent.Blocks stored ->
                    ChunkedStreams.openRange(blocks, stored.blocks(), offset, length, blocks.readAhead(),
                            requestThreads("hangar-read-ahead"));
            case ObjectContent.DeleteMarker marker -> throw new S3Exception(S3Error.NO_SUCH_KEY);
        };
    }

    /**
     * Streams {@code length} plaintext bytes of a version's content from {@code offset}: as stored, or unsealed
     * with {@code key} ({@link SealedReader}).
     */
    InputStream open(ObjectVersion version, Optional<Sealing> sealing, long offset, long length) throws IOException {
        if (sealing.isEmpty()) {
            return open(version, offset, length);
        }
        return new SealedReader(this, version, sealing.get().key()).open(offset, length);
    }

    /** What a copy stored, and the entity tag it gets. */
    record Copied<T>(T stored, String etag) {}

    /** Where a copy's bytes go: new content of a known stored length, or a part's blocks. */
    interface Sink<T> {
        T store(InputStream in, long storedLength) throws IOException;
    }

    /**
     * Streams {@code count} plaintext bytes of {@code source} from {@code from} (unsealed as it is stored) into new
     * content sealed as {@code target}, the source's blocks leased meanwhile: CopyObject and UploadPartCopy.
     *
     * @throws NoSuchBlockException when a block of the source is gone (the caller knows what that means)
     */
    <T> Copied<T> copy(ReaderLeases.Reading reading, ObjectVersion source, Optional<Sealing> sourceSealing, long from,
            long count, Optional<Sealing> target, Sink<T> sink) throws IOException {
        MessageDigest md5 = Etags.md5();
        try (ReaderLeases.Lease lease = hold(reading, source, sourceSealing, from, count);
                InputStream in = new DigestInputStream(open(source, sourceSealing, from, count), md5)) {
            ContentWrite write = new ContentWrite(in, target);
            T stored = sink.store(write.stream(), write.storedLength(count));
            return new Copied<>(stored, write.etag(md5.digest()));
        }
    }

    /**
     * Virtual threads for the blocks a stream reads ahead or writes behind, which count their
     * inter-node rounds as the request's, like the blocks the request's own thread reads and writes.
     */
    private static Executor requestThreads(String name) {
        RoundTrips.Tally tally = RoundTrips.current();
        return task -> Thread.ofVirtual().name(name).start(() -> {
            try (RoundTrips.Binding counted = RoundTrips.bind(tally)) {
                task.run();
            }
        });
    }

    /** Queues the blocks of content that never became visible. */
    void discard(ObjectContent content) {
        if (content instanceof ObjectContent.Blocks stored) {
            discard(stored.blocks());
        }
    }

    void discard(List<BlockRef> written) {
        if (!written.isEmpty()) {
            List<BlockId> ids = written.stream().map(BlockRef::id).toList();
            metadata.queueGarbage(ids);
        }
    }
}
