package dev.hangar.metadata.command;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MetadataStorageException;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Reads what {@link CodecWriter} wrote. The bytes come from a log or another node, so nothing in
 * them is trusted: every inconsistency, including one a record constructor or {@link RecordFormat}
 * finds, is an {@link IllegalArgumentException} naming what was wrong, and no length is believed
 * beyond the bytes that remain (a bogus length must not allocate gigabytes).
 *
 * <p>Public so that the other wire codecs of this module ({@code dev.hangar.metadata.query}) read
 * records exactly as commands do; it is not meant for use outside the module.
 */
public final class CodecReader {
    private final byte[] bytes;
    private final String what;
    private int position;
    private @Nullable CharsetDecoder utf8;

    /** @param what what the bytes are meant to be, for messages ("command", "outcome") */
    public CodecReader(byte[] bytes, String what) {
        this.bytes = bytes;
        this.what = what;
    }

    /**
     * Reads a whole encoding: its format byte, which must be {@code format}, then {@code fields},
     * then nothing more. A record constructor's refusal of the fields read becomes a complaint about
     * the bytes, so that every failure is an {@link IllegalArgumentException} that says {@code what}
     * was invalid.
     *
     * @param what what the bytes are meant to be, for messages ("command", "outcome")
     * @param format the one format this release reads
     */
    public static <T> T read(byte[] bytes, String what, int format, Function<CodecReader, T> fields) {
        CodecReader reader = new CodecReader(bytes, what);
        int found = reader.readByte();
        if (found != format) {
            throw reader.invalid("unknown format " + found + " (this release reads format " + format
                    + "; a later one wrote it?)");
        }
        T value;
        try {
            value = fields.apply(reader);
        } catch (Invalid e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw reader.invalid(e);
        }
        reader.finish();
        return value;
    }

    public int readByte() {
        require(1);
        return bytes[position++] & 0xFF;
    }

    public boolean readBoolean() {
        int value = readByte();
        return switch (value) {
            case 0 -> false;
            case 1 -> true;
            default -> throw invalid("boolean or presence byte " + value + " at offset " + (position - 1));
        };
    }

    public long readVarLong() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int next = readByte();
            // The tenth byte holds the 64th bit only: anything more does not fit a long.
            if (shift == 63 && next > 1) {
                break;
            }
            value |= (long) (next & 0x7F) << shift;
            if ((next & 0x80) == 0) {
                return value;
            }
        }
        throw invalid("varint longer than 64 bits at offset " + position);
    }

    /** A varint that must be an int in {@code [0, Integer.MAX_VALUE]}. */
    public int readVarInt() {
        long value = readVarLong();
        if (value < 0 || value > Integer.MAX_VALUE) {
            throw invalid("number " + Long.toUnsignedString(value) + " out of range at offset " + position);
        }
        return (int) value;
    }

    /** A count or a length: it cannot exceed the bytes left, as each counted item takes one at least. */
    public int readCount() {
        long count = readVarLong();
        if (count < 0 || count > bytes.length - position) {
            throw invalid("length or count " + Long.toUnsignedString(count) + " exceeds the "
                    + (bytes.length - position) + " bytes left at offset " + position);
        }
        return (int) count;
    }

    public byte[] readBytes() {
        int length = readCount();
        byte[] result = new byte[length];
        System.arraycopy(bytes, position, result, 0, length);
        position += length;
        return result;
    }

    public String readString() {
        int length = readCount();
        if (utf8 == null) {
            utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        try {
            String text = utf8.reset().decode(ByteBuffer.wrap(bytes, position, length)).toString();
            position += length;
            return text;
        } catch (CharacterCodingException e) {
            throw invalid("malformed UTF-8 at offset " + position);
        }
    }

    public @Nullable String readNullableString() {
        return readBoolean() ? readString() : null;
    }

    /** What {@link CodecWriter#writeSignedVarLong} wrote. */
    public long readSignedVarLong() {
        long zigzag = readVarLong();
        return (zigzag >>> 1) ^ -(zigzag & 1);
    }

    /** A zigzag varint that must be an {@code int}. */
    public int readSignedInt() {
        long value = readSignedVarLong();
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw invalid("number " + value + " out of range at offset " + position);
        }
        return (int) value;
    }

    public Instant readInstant() {
        long seconds = readSignedVarLong();
        long nanos = readVarLong();
        if (nanos < 0 || nanos > 999_999_999) {
            throw invalid("nanoseconds " + Long.toUnsignedString(nanos) + " out of range at offset " + position);
        }
        try {
            return Instant.ofEpochSecond(seconds, nanos);
        } catch (DateTimeException e) {
            throw invalid("instant out of range at offset " + position);
        }
    }

    public @Nullable Instant readNullableInstant() {
        return readBoolean() ? readInstant() : null;
    }

    /** Names must ascend strictly, as {@link CodecWriter#writeMap} writes them: a duplicate is corrupt. */
    public Map<String, String> readMap() {
        int count = readCount();
        Map<String, String> map = new HashMap<>();
        String previous = null;
        for (int i = 0; i < count; i++) {
            String name = readString();
            if (previous != null && name.compareTo(previous) <= 0) {
                throw invalid("map names out of order at offset " + position);
            }
            map.put(name, readString());
            previous = name;
        }
        return map;
    }

    public BucketRecord readBucketRecord() {
        String name = readString();
        byte[] body = readBytes();
        return record("bucket", () -> RecordFormat.decodeBucket(name, body));
    }

    public ObjectVersion readVersion() {
        String bucket = readString();
        String key = readString();
        byte[] body = readBytes();
        return record("object version", () -> RecordFormat.decodeObject(bucket, key, body));
    }

    public MultipartUpload readUpload() {
        String bucket = readString();
        String key = readString();
        String uploadId = readString();
        byte[] body = readBytes();
        return record("multipart upload", () -> RecordFormat.decodeUpload(bucket, key, uploadId, body));
    }

    public AccessKey readAccessKey() {
        String accessKeyId = readString();
        byte[] body = readBytes();
        return record("access key", () -> RecordFormat.decodeAccessKey(accessKeyId, body));
    }

    /** What {@link CodecWriter#writePart} wrote, for a part of upload {@code uploadId}. */
    public Part readPart(String uploadId) {
        int partNumber = readVarInt();
        byte[] body = readBytes();
        return record("part", () -> RecordFormat.decodePart(uploadId, partNumber, body));
    }

    /** What {@link CodecWriter#writeOptional} wrote. */
    public <T> Optional<T> readOptional(Supplier<T> element) {
        return readBoolean() ? Optional.of(element.get()) : Optional.empty();
    }

    /**
     * What {@link CodecWriter#writeList} wrote, unmodifiable. Every element takes a byte at least,
     * so a count beyond the bytes left is refused before anything is allocated.
     */
    public <T> List<T> readList(Supplier<T> element) {
        int count = readCount();
        List<T> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(element.get());
        }
        return List.copyOf(values);
    }

    /**
     * Decodes a record body with {@link RecordFormat}, whose complaints are storage errors: here
     * the bytes came from the wire, so they are this codec's.
     */
    <T> T record(String kind, Supplier<T> decoder) {
        try {
            return decoder.get();
        } catch (MetadataStorageException e) {
            throw invalid(kind + " record: " + e.getMessage());
        }
    }

    /** Fails unless every byte was read: trailing bytes mean a format this code does not know. */
    private void finish() {
        if (position != bytes.length) {
            throw invalid((bytes.length - position) + " trailing bytes at offset " + position);
        }
    }

    /** A complaint about the bytes, naming what they were meant to be; a caller throws it. */
    public IllegalArgumentException invalid(String detail) {
        return new Invalid("invalid encoded " + what + ": " + detail, null);
    }

    /** {@code cause}, a record constructor's refusal of fields read, as a complaint about the bytes. */
    private Invalid invalid(IllegalArgumentException cause) {
        return new Invalid("invalid encoded " + what + ": " + cause.getMessage() + " (near offset " + position + ")",
                cause);
    }

    /**
     * What this reader throws: an {@link IllegalArgumentException} that already says what was
     * wrong, told apart from a record constructor's, which {@link #read} wraps with {@link
     * #invalid(IllegalArgumentException)}.
     */
    private static final class Invalid extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        private Invalid(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }

    private void require(int length) {
        if (length > bytes.length - position) {
            throw invalid("truncated at offset " + position);
        }
    }
}
