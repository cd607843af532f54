package dev.hangar.metadata.query;

import java.util.function.Function;

/**
 * One side of {@link QueryCodec}, values to bytes and back, named as its refusals name it ({@code
 * "query"}, {@code "query result"}). Values are of any type: the tests only check what comes back.
 */
record Side(String what, Function<Object, byte[]> encoder, Function<byte[], Object> decoder) {
    static final Side QUERIES =
            new Side("query", value -> QueryCodec.encode((ReadQuery<?>) value), QueryCodec::decode);

    /** Results of {@code query}. */
    static Side results(ReadQuery<?> query) {
        return results(query, query);
    }

    /**
     * Results as they travel: encoded by a member for {@code answered}, the query it decoded, and
     * decoded by the sender for {@code asked}, the query it holds.
     */
    static <T> Side results(ReadQuery<?> answered, ReadQuery<T> asked) {
        return new Side("query result", value -> encodeResult(answered, value),
                bytes -> QueryCodec.decodeResult(asked, bytes));
    }

    byte[] encode(Object value) {
        return encoder.apply(value);
    }

    Object decode(byte[] bytes) {
        return decoder.apply(bytes);
    }

    @SuppressWarnings("unchecked") // Only results made or decoded for an equal query go in.
    private static <T> byte[] encodeResult(ReadQuery<T> query, Object result) {
        return QueryCodec.encodeResult(query, (T) result);
    }
}
