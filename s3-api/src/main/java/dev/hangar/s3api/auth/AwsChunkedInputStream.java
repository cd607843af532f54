package dev.hangar.s3api.auth;

import dev.hangar.s3api.S3Error;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Strips the aws-chunked encoding and verifies its chunk and trailer signatures:
 *
 * <pre>
 * hex-size[;chunk-signature=hex]\r\n  data  \r\n   (repeated)
 * 0[;chunk-signature=hex]\r\n
 * [name:value\r\n ...]                              (trailer modes)
 * [x-amz-trailer-signature:hex\r\n]                 (signed trailer mode)
 * \r\n
 * </pre>
 *
 * <p>Chunk data is passed through as it arrives, never held: the chunk's SHA-256 grows as bytes go by and
 * its signature is checked in the read that hands out the chunk's last byte, before that read returns.
 * So the bytes of a forged chunk have been handed out when the failure is thrown; see {@link VerifiedBody}
 * for why that is safe. Only header lines and the trailer section, both bounded, are buffered.
 */
final class AwsChunkedInputStream extends InputStream {
    /** Far above any real chunk header (a 16-digit size and a 64-digit signature) yet bounded. */
    private static final int MAXIMUM_LINE_LENGTH = 4096;
    private static final int MAXIMUM_TRAILER_LENGTH = 16 * 1024;
    private static final int MAXIMUM_SIZE_DIGITS = 15;
    private static final String CHUNK_SIGNATURE = "chunk-signature";
    private static final String TRAILER_SIGNATURE = "x-amz-trailer-signature";

    private enum State { CHUNK_HEADER, CHUNK_DATA, DONE }

    private final InputStream raw;
    private final PayloadMode mode;
    private final @Nullable ChunkSignatureChain chain;
    private final MessageDigest chunkDigest = Signatures.newSha256();
    private final Map<String, String> trailers = new LinkedHashMap<>();
    private final byte[] single = new byte[1];

    private State state = State.CHUNK_HEADER;
    private long chunkRemaining;
    private @Nullable String chunkSignature;

    AwsChunkedInputStream(InputStream raw, PayloadMode mode, @Nullable ChunkSignatureChain chain) {
        if (!mode.isChunked() || mode.hasChunkSignatures() != (chain != null)) {
            throw new IllegalArgumentException("no aws-chunked decoding for " + mode);
        }
        this.raw = raw instanceof BufferedInputStream ? raw : new BufferedInputStream(raw);
        this.mode = mode;
        this.chain = chain;
    }

    /** The trailing headers by lower-case name, without the trailer signature; complete once at end. */
    Map<String, String> trailers() {
        return Collections.unmodifiableMap(trailers);
    }

    @Override
    public int read() throws IOException {
        int count = read(single, 0, 1);
        return count < 0 ? -1 : single[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        if (state == State.CHUNK_HEADER) {
            readChunkHeader();
        }
        if (state == State.DONE) {
            return -1;
        }
        int count = raw.read(buffer, offset, (int) Math.min(length, chunkRemaining));
        if (count < 0) {
            throw framing("The request body ended inside a chunk.");
        }
        if (chain != null) {
            chunkDigest.update(buffer, offset, count);
        }
        chunkRemaining -= count;
        if (chunkRemaining == 0) {
            endChunk();
        }
        return count;
    }

    @Override
    public void close() throws IOException {
        raw.close();
    }

    private void readChunkHeader() throws IOException {
        String line = readLine(MAXIMUM_LINE_LENGTH);
        if (line == null) {
            throw framing("The request body ended before the final zero-length chunk.");
        }
        String[] parts = line.split(";", -1);
        long size = parseSize(parts[0].strip());
        String signature = null;
        for (int index = 1; index < parts.length; index++) {
            String extension = parts[index].strip();
            int equals = extension.indexOf('=');
            if (equals > 0 && extension.substring(0, equals).strip().equals(CHUNK_SIGNATURE)) {
                signature = extension.substring(equals + 1).strip();
            }
        }
        if (chain != null && signature == null) {
            throw new PayloadVerificationException(S3Error.SIGNATURE_DOES_NOT_MATCH,
                    "A chunk of a signed aws-chunked body carries no chunk-signature.");
        }
        chunkSignature = signature;
        chunkDigest.reset();
        if (size == 0) {
            verifyChunk();
            readTrailers();
            state = State.DONE;
        } else {
            chunkRemaining = size;
            state = State.CHUNK_DATA;
        }
    }

    private void endChunk() throws IOException {
        int carriageReturn = raw.read();
        int lineFeed = raw.read();
        if (carriageReturn != '\r' || lineFeed != '\n') {
            throw framing(carriageReturn < 0 || lineFeed < 0
                    ? "The request body ended inside a chunk."
                    : "A chunk's data is longer than its declared size.");
        }
        verifyChunk();
        state = State.CHUNK_HEADER;
    }

    private void verifyChunk() throws PayloadVerificationException {
        if (chain != null) {
            chain.verifyChunk(Signatures.hex(chunkDigest.digest()), Objects.requireNonNull(chunkSignature));
        }
    }

    private void readTrailers() throws IOException {
        StringBuilder signedText = new StringBuilder();
        String trailerSignature = null;
        int total = 0;
        while (true) {
            String line = readLine(MAXIMUM_LINE_LENGTH);
            if (line == null) {
                throw framing("The request body ended before the end of the trailing headers.");
            }
            if (line.isEmpty()) {
                break;
            }
            total += line.length();
            if (!mode.hasTrailer()) {
                throw framing("The final chunk must be followed by an empty line.");
            }
            if (total > MAXIMUM_TRAILER_LENGTH) {
                throw framing("The trailing headers are too long.");
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw framing("A trailing header is malformed.");
            }
            String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            if (name.equals(TRAILER_SIGNATURE)) {
                trailerSignature = value;
            } else if (trailerSignature != null) {
                throw framing("The trailer signature must be the last trailing header.");
            } else {
                trailers.put(name, value);
                signedText.append(name).append(':').append(value).append('\n');
            }
        }
        if (chain != null && mode.hasTrailer()) {
            if (trailerSignature == null) {
                throw new PayloadVerificationException(S3Error.SIGNATURE_DOES_NOT_MATCH,
                        "The trailing headers carry no x-amz-trailer-signature.");
            }
            chain.verifyTrailer(Signatures.sha256Hex(signedText.toString()), trailerSignature);
        }
    }

    private static long parseSize(String text) throws PayloadVerificationException {
        if (text.isEmpty() || text.length() > MAXIMUM_SIZE_DIGITS
                || !text.chars().allMatch(character -> Character.digit(character, 16) >= 0)) {
            throw framing("A chunk size is not a hexadecimal number: \"" + text + "\".");
        }
        return Long.parseLong(text, 16);
    }

    /** A CRLF-terminated line without its CRLF; null if the body ended before the line began. */
    private @Nullable String readLine(int maximumLength) throws IOException {
        StringBuilder line = new StringBuilder(96);
        while (true) {
            int character = raw.read();
            if (character < 0) {
                if (line.isEmpty()) {
                    return null;
                }
                throw framing("The request body ended inside a chunk header.");
            }
            if (character == '\r') {
                if (raw.read() != '\n') {
                    throw framing("A chunk header line does not end with CRLF.");
                }
                return line.toString();
            }
            if (line.length() >= maximumLength) {
                throw framing("A chunk header line is too long.");
            }
            line.append((char) character);
        }
    }

    private static PayloadVerificationException framing(String detail) {
        return new PayloadVerificationException(S3Error.INCOMPLETE_BODY, "Malformed aws-chunked body: " + detail);
    }

}
