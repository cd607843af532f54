package dev.hangar.metadata.listing;

/** Makes the listed item of one record of {@code key}. */
@FunctionalInterface
public interface RecordDecoder<T> {
    T decode(String key, byte[] recordKey, byte[] value);
}
