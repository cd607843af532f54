package dev.hangar.s3api.semantics;

import dev.hangar.metadata.ObjectVersion;
import dev.hangar.s3api.encryption.ContentKey;
import dev.hangar.s3api.encryption.SealedFormat;
import dev.hangar.s3api.encryption.SegmentRun;
import dev.hangar.s3api.encryption.UnsealingStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Reads a range of a sealed version's plaintext. The version is one sealed stream, or one per part of a multipart
 * object, each part's plaintext size in {@link ObjectVersion#partSizes()} and its stored length following from it
 * ({@link SealedFormat#storedLength}); so a plaintext range maps to stored ranges by arithmetic. Of each part the
 * range touches, its salt and the touched segments are read, and each part is opened only when the read reaches it.
 */
final class SealedReader {
    private final ContentStore content;
    private final ObjectVersion version;
    private final ContentKey key;

    SealedReader(ContentStore content, ObjectVersion version, ContentKey key) {
        this.content = content;
        this.version = version;
        this.key = key;
    }

    /**
     * A range of one part's sealed stream.
     *
     * @param storedStart where the part's stream starts in the version's stored content
     * @param length the plaintext bytes wanted from the run
     */
    private record Piece(long storedStart, SegmentRun run, long length) {}

    InputStream open(long offset, long length) {
        List<Long> parts = version.partSizes().isEmpty() ? List.of(version.size()) : version.partSizes();
        Deque<Piece> pieces = new ArrayDeque<>();
        long plainStart = 0;
        long storedStart = 0;
        for (long partSize : parts) {
            long from = Math.max(offset, plainStart);
            long to = Math.min(offset + length, plainStart + partSize);
            if (from < to) {
                pieces.add(new Piece(storedStart, SegmentRun.of(partSize, from - plainStart, to - from), to - from));
            }
            plainStart += partSize;
            storedStart += SealedFormat.storedLength(partSize);
        }
        return new Pieces(pieces);
    }

    private InputStream unseal(Piece piece) throws IOException {
        byte[] salt;
        try (InputStream head = content.open(version, piece.storedStart(), SealedFormat.SALT)) {
            salt = head.readNBytes(SealedFormat.SALT);
        }
        if (salt.length < SealedFormat.SALT) {
            throw new IOException("the sealed content of " + version.key() + " is cut short in a salt");
        }
        SegmentRun run = piece.run();
        InputStream segments = content.open(version, piece.storedStart() + run.storedOffset(), run.storedLength());
        UnsealingStream plain = new UnsealingStream(segments, key, salt, run);
        if (plain.skip(run.skip()) != run.skip()) {
            plain.close();
            throw new IOException("the sealed content of " + version.key() + " is cut short");
        }
        return plain;
    }

    /** The pieces' plaintext one after the other, each opened when the previous one is done, exactly as long as asked. */
    private final class Pieces extends InputStream {
        private final Deque<Piece> pending;
        private InputStream current = InputStream.nullInputStream();
        private long left;

        Pieces(Deque<Piece> pending) {
            this.pending = pending;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int count) throws IOException {
            if (count == 0) {
                return 0;
            }
            while (left == 0) {
                Piece next = pending.poll();
                if (next == null) {
                    return -1;
                }
                current.close();
                current = unseal(next);
                left = next.length();
            }
            int n = current.read(buffer, offset, (int) Math.min(count, left));
            if (n < 0) {
                throw new IOException("the sealed content of " + version.key() + " ended " + left + " bytes early");
            }
            left -= n;
            return n;
        }

        @Override
        public void close() throws IOException {
            current.close();
        }
    }
}
