package dev.hangar.metadata.command;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.codec.FieldWriter;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Appends the fields of a command or an outcome, in the conventions of the record format (unsigned
 * LEB128 varints for counts and lengths, zigzag varint seconds + varint nanoseconds for instants,
 * a presence byte before a nullable field), so that both formats read alike. Records go in as
 * their {@link RecordFormat} body, preceded by the fields that body leaves to the RocksDB key.
 *
 * <p>Public so that the other wire codecs of this module ({@code dev.hangar.metadata.query}) write
 * records exactly as commands do; it is not meant for use outside the module.
 */
public final class CodecWriter {
    private final FieldWriter out = new FieldWriter();

    public CodecWriter() {}

    public void writeByte(int value) {
        out.writeByte(value);
    }

    public void writeBoolean(boolean value) {
        out.writeBoolean(value);
    }

    public void writeVarLong(long value) {
        out.writeVarLong(value);
    }

    /** Zigzag, so that a negative number stays short and every {@code int} round-trips. */
    public void writeSignedVarLong(long value) {
        out.writeSignedVarLong(value);
    }

    public void writeBytes(byte[] bytes) {
        out.writeBytes(bytes);
    }

    /**
     * Refuses a string with an unpaired surrogate: UTF-8 cannot hold one, and {@code getBytes}
     * would silently write {@code ?} instead, so the command read back would not be the one sent.
     */
    public void writeString(String text) {
        requireWellFormed(text);
        out.writeString(text);
    }

    public void writeNullableString(@Nullable String text) {
        writeBoolean(text != null);
        if (text != null) {
            writeString(text);
        }
    }

    public void writeInstant(Instant instant) {
        out.writeInstant(instant);
    }

    public void writeNullableInstant(@Nullable Instant instant) {
        writeBoolean(instant != null);
        if (instant != null) {
            writeInstant(instant);
        }
    }

    /** Count, then pairs in ascending name order: equal maps encode to equal bytes. */
    public void writeMap(Map<String, String> map) {
        writeVarLong(map.size());
        for (Map.Entry<String, String> entry : new TreeMap<>(map).entrySet()) {
            writeString(entry.getKey());
            writeString(entry.getValue());
        }
    }

    public void writeBucketRecord(BucketRecord bucket) {
        writeString(bucket.name());
        writeBytes(RecordFormat.encodeBucket(bucket));
    }

    public void writeVersion(ObjectVersion version) {
        writeString(version.bucket());
        writeString(version.key());
        writeBytes(RecordFormat.encodeObject(version));
    }

    public void writeUpload(MultipartUpload upload) {
        writeString(upload.bucket());
        writeString(upload.key());
        writeString(upload.uploadId());
        writeBytes(RecordFormat.encodeUpload(upload));
    }

    public void writeAccessKey(AccessKey key) {
        writeString(key.accessKeyId());
        writeBytes(RecordFormat.encodeAccessKey(key));
    }

    /** Part number and body: the upload id is left to the context, which always holds it. */
    public void writePart(Part part) {
        writeVarLong(part.partNumber());
        writeBytes(RecordFormat.encodePart(part));
    }

    /** A presence boolean, then the value if there is one. */
    public <T> void writeOptional(Optional<T> value, Consumer<? super T> element) {
        writeBoolean(value.isPresent());
        value.ifPresent(element);
    }

    /** A count, then the elements in order. */
    public <T> void writeList(List<T> values, Consumer<? super T> element) {
        writeVarLong(values.size());
        values.forEach(element);
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }

    private static void requireWellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("string has an unpaired surrogate at index " + i
                        + " and cannot be encoded as UTF-8");
            }
        }
    }
}
