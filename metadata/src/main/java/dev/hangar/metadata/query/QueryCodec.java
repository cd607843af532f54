package dev.hangar.metadata.query;

import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.command.CodecReader;
import dev.hangar.metadata.command.CodecWriter;
import dev.hangar.metadata.command.CommandCodec;
import dev.hangar.metadata.query.ReadQuery.GetAccessKey;
import dev.hangar.metadata.query.ReadQuery.GetBucket;
import dev.hangar.metadata.query.ReadQuery.GetBucketConfig;
import dev.hangar.metadata.query.ReadQuery.GetObject;
import dev.hangar.metadata.query.ReadQuery.GetPart;
import dev.hangar.metadata.query.ReadQuery.GetServiceConfig;
import dev.hangar.metadata.query.ReadQuery.GetUpload;
import dev.hangar.metadata.query.ReadQuery.GetVersion;
import dev.hangar.metadata.query.ReadQuery.ListAccessKeys;
import dev.hangar.metadata.query.ReadQuery.ListBuckets;
import dev.hangar.metadata.query.ReadQuery.ListObjects;
import dev.hangar.metadata.query.ReadQuery.ListParts;
import dev.hangar.metadata.query.ReadQuery.ListServiceConfigs;
import dev.hangar.metadata.query.ReadQuery.ListUploads;
import dev.hangar.metadata.query.ReadQuery.ListVersions;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The binary encoding of a {@link ReadQuery} and of its result: what a node sends to a member of
 * the metadata's Raft group to read there, and the answer it gets back. {@code decode(encode(q))}
 * equals {@code q} and {@code decodeResult(q, encodeResult(q, r))} equals {@code r}; decoding bytes
 * that no encoder wrote throws {@link IllegalArgumentException}, and nothing else.
 *
 * <h2>Format 1</h2>
 *
 * In the conventions of {@link CommandCodec} (varints, length-prefixed UTF-8 strings and byte
 * arrays, a presence boolean before a nullable field, records as the fields their RocksDB key
 * holds and then their {@code RecordFormat} body), plus: an {@code int} is a zigzag varint, so that
 * every argument the store takes travels as given; a list is a varint count and its elements; an
 * {@code Optional} is a presence boolean and the value if present.
 *
 * <p>A query is a format byte ({@code 1}), a tag byte naming its kind, then its arguments in order,
 * and nothing after them. Tags (0 is never a query, so that zeroed bytes are refused):
 *
 * <ol>
 *   <li>{@code GetBucket}: name
 *   <li>{@code ListBuckets}: nothing
 *   <li>{@code GetObject}: bucket, key
 *   <li>{@code GetVersion}: bucket, key, versionId
 *   <li>{@code ListObjects}: bucket, prefix, nullable delimiter, nullable after, maxKeys
 *   <li>{@code ListVersions}: bucket, prefix, nullable delimiter, nullable keyMarker, nullable
 *       versionIdMarker, maxKeys
 *   <li>{@code GetUpload}: bucket, key, uploadId
 *   <li>{@code GetPart}: uploadId, partNumber
 *   <li>{@code ListParts}: uploadId, afterPartNumber, maxParts
 *   <li>{@code ListUploads}: bucket, prefix, nullable delimiter, nullable keyMarker, nullable
 *       uploadIdMarker, maxUploads
 *   <li>{@code GetBucketConfig}: bucket, kind
 *   <li>{@code GetAccessKey}: accessKeyId
 *   <li>{@code ListAccessKeys}: nothing
 *   <li>{@code GetServiceConfig}: kind, name
 *   <li>{@code ListServiceConfigs}: kind
 * </ol>
 *
 * A result is a format byte ({@code 1}), the tag of the query it answers (so that an answer to
 * another query is refused, not misread), then the value, which the query's kind names:
 *
 * <ul>
 *   <li>optional bucket record, version, upload, access key: as in commands; optional part: its
 *       number (unsigned varint) and body, its uploadId being the query's; optional configuration
 *       document: bytes
 *   <li>{@code List} of bucket records or access keys: a list
 *   <li>{@code SortedMap} of service configuration documents: a varint count, then each name (string) and
 *       document (bytes), in the map's order (names by UTF-8 bytes)
 *   <li>{@code ObjectListing}: list of versions, list of common prefixes (strings), truncated,
 *       nullable nextMarker
 *   <li>{@code VersionListing}: list of (version, latest boolean), list of common prefixes,
 *       truncated, nullable nextKeyMarker, nullable nextVersionIdMarker
 *   <li>{@code PartListing}: list of parts as above, truncated, nextPartNumberMarker
 *   <li>{@code UploadListing}: list of uploads, list of common prefixes, truncated, nullable
 *       nextKeyMarker, nullable nextUploadIdMarker
 * </ul>
 *
 * <p>It evolves by {@link CommandCodec}'s rule: tags are never reused, a new query takes the next
 * free tag (an older member refuses it as unknown), and a change to the fields of a tag takes a
 * new format. Reads are not logged, so only members of different releases during an upgrade need
 * to agree. {@code QueryCodecGoldenTest} keeps the bytes of format 1.
 */
public final class QueryCodec {
    /** The format this release writes, and the only one it reads. */
    static final int FORMAT_1 = 1;

    private QueryCodec() {}

    /**
     * The bytes of {@code query}.
     *
     * @throws IllegalArgumentException if a string has an unpaired surrogate (UTF-8 cannot hold it)
     */
    public static byte[] encode(ReadQuery<?> query) {
        CodecWriter writer = new CodecWriter();
        writer.writeByte(FORMAT_1);
        writer.writeByte(Kind.of(query).tag);
        switch (query) {
            case GetBucket get -> writer.writeString(get.name());
            case ListBuckets list -> {}
            case GetObject get -> strings(writer, get.bucket(), get.key());
            case GetVersion get -> strings(writer, get.bucket(), get.key(), get.versionId());
            case ListObjects list -> {
                ListQuery listQuery = list.query();
                strings(writer, list.bucket(), listQuery.prefix());
                nullableStrings(writer, listQuery.delimiter(), listQuery.after());
                writer.writeSignedVarLong(listQuery.maxKeys());
            }
            case ListVersions list -> {
                VersionQuery versions = list.query();
                strings(writer, list.bucket(), versions.prefix());
                nullableStrings(writer, versions.delimiter(), versions.keyMarker(), versions.versionIdMarker());
                writer.writeSignedVarLong(versions.maxKeys());
            }
            case GetUpload get -> strings(writer, get.bucket(), get.key(), get.uploadId());
            case GetPart get -> {
                writer.writeString(get.uploadId());
                writer.writeSignedVarLong(get.partNumber());
            }
            case ListParts list -> {
                writer.writeString(list.uploadId());
                writer.writeSignedVarLong(list.afterPartNumber());
                writer.writeSignedVarLong(list.maxParts());
            }
            case ListUploads list -> {
                strings(writer, list.bucket(), list.prefix());
                nullableStrings(writer, list.delimiter(), list.keyMarker(), list.uploadIdMarker());
                writer.writeSignedVarLong(list.maxUploads());
            }
            case GetBucketConfig get -> strings(writer, get.bucket(), get.kind());
            case GetAccessKey get -> writer.writeString(get.accessKeyId());
            case ListAccessKeys list -> {}
            case GetServiceConfig get -> strings(writer, get.kind(), get.name());
            case ListServiceConfigs list -> writer.writeString(list.kind());
        }
        return writer.toByteArray();
    }

    /**
     * The query {@code bytes} encode.
     *
     * @throws IllegalArgumentException if they are not a query this release can read: an unknown
     *     format or tag, truncated, trailing bytes, a field out of range
     */
    public static ReadQuery<?> decode(byte[] bytes) {
        return CodecReader.read(bytes, "query", FORMAT_1, QueryCodec::readQuery);
    }

    /**
     * The bytes of {@code result}, a result of {@code query}.
     *
     * @throws IllegalArgumentException if {@code result} is not of the type the query declares
     *     (possible through raw or unchecked types only), or holds a part of another upload than the
     *     query's
     */
    public static <T> byte[] encodeResult(ReadQuery<T> query, T result) {
        Objects.requireNonNull(result, "result");
        CodecWriter writer = new CodecWriter();
        writer.writeByte(FORMAT_1);
        writer.writeByte(Kind.of(query).tag);
        try {
            ResultFormat.of(query).write(writer, result);
        } catch (ClassCastException e) {
            throw new IllegalArgumentException("not a result of a " + query.getClass().getSimpleName() + ": "
                    + e.getMessage(), e);
        }
        return writer.toByteArray();
    }

    /**
     * The result of {@code query} that {@code bytes} encode.
     *
     * @throws IllegalArgumentException if they are not a result of such a query that this release
     *     can read
     */
    public static <T> T decodeResult(ReadQuery<T> query, byte[] bytes) {
        Kind expected = Kind.of(query);
        return CodecReader.read(bytes, "query result", FORMAT_1, reader -> {
            Kind kind = Kind.withTag(reader.readByte(), reader);
            if (kind != expected) {
                throw reader.invalid("the result of a " + kind + " query, not of a " + expected + " query");
            }
            return ResultFormat.of(query).read(reader);
        });
    }

    /**
     * Answers an encoded query from {@code store}: what a member runs for a node that sent it one.
     * The store's own failures propagate.
     *
     * @throws IllegalArgumentException if {@code query} is not a query this release can read
     */
    public static byte[] answer(byte[] query, MetadataStore store) {
        return run(decode(query), store);
    }

    private static <T> byte[] run(ReadQuery<T> query, MetadataStore store) {
        return encodeResult(query, query.runOn(store));
    }

    private static ReadQuery<?> readQuery(CodecReader reader) {
        return switch (Kind.withTag(reader.readByte(), reader)) {
            case GET_BUCKET -> new GetBucket(reader.readString());
            case LIST_BUCKETS -> new ListBuckets();
            case GET_OBJECT -> new GetObject(reader.readString(), reader.readString());
            case GET_VERSION -> new GetVersion(reader.readString(), reader.readString(), reader.readString());
            case LIST_OBJECTS -> new ListObjects(reader.readString(), new ListQuery(reader.readString(),
                    reader.readNullableString(), reader.readNullableString(), reader.readSignedInt()));
            case LIST_VERSIONS -> new ListVersions(reader.readString(), new VersionQuery(reader.readString(),
                    reader.readNullableString(), reader.readNullableString(), reader.readNullableString(),
                    reader.readSignedInt()));
            case GET_UPLOAD -> new GetUpload(reader.readString(), reader.readString(), reader.readString());
            case GET_PART -> new GetPart(reader.readString(), reader.readSignedInt());
            case LIST_PARTS -> new ListParts(reader.readString(), reader.readSignedInt(), reader.readSignedInt());
            case LIST_UPLOADS -> new ListUploads(reader.readString(), reader.readString(), reader.readNullableString(),
                    reader.readNullableString(), reader.readNullableString(), reader.readSignedInt());
            case GET_BUCKET_CONFIG -> new GetBucketConfig(reader.readString(), reader.readString());
            case GET_ACCESS_KEY -> new GetAccessKey(reader.readString());
            case LIST_ACCESS_KEYS -> new ListAccessKeys();
            case GET_SERVICE_CONFIG -> new GetServiceConfig(reader.readString(), reader.readString());
            case LIST_SERVICE_CONFIGS -> new ListServiceConfigs(reader.readString());
        };
    }

    /** The kinds of query, by the tag that names each on the wire: never reused, never renumbered. */
    private enum Kind {
        GET_BUCKET(1),
        LIST_BUCKETS(2),
        GET_OBJECT(3),
        GET_VERSION(4),
        LIST_OBJECTS(5),
        LIST_VERSIONS(6),
        GET_UPLOAD(7),
        GET_PART(8),
        LIST_PARTS(9),
        LIST_UPLOADS(10),
        GET_BUCKET_CONFIG(11),
        GET_ACCESS_KEY(12),
        LIST_ACCESS_KEYS(13),
        GET_SERVICE_CONFIG(14),
        LIST_SERVICE_CONFIGS(15);

        final int tag;

        Kind(int tag) {
            this.tag = tag;
        }

        static Kind of(ReadQuery<?> query) {
            return switch (query) {
                case GetBucket q -> GET_BUCKET;
                case ListBuckets q -> LIST_BUCKETS;
                case GetObject q -> GET_OBJECT;
                case GetVersion q -> GET_VERSION;
                case ListObjects q -> LIST_OBJECTS;
                case ListVersions q -> LIST_VERSIONS;
                case GetUpload q -> GET_UPLOAD;
                case GetPart q -> GET_PART;
                case ListParts q -> LIST_PARTS;
                case ListUploads q -> LIST_UPLOADS;
                case GetBucketConfig q -> GET_BUCKET_CONFIG;
                case GetAccessKey q -> GET_ACCESS_KEY;
                case ListAccessKeys q -> LIST_ACCESS_KEYS;
                case GetServiceConfig q -> GET_SERVICE_CONFIG;
                case ListServiceConfigs q -> LIST_SERVICE_CONFIGS;
            };
        }

        static Kind withTag(int tag, CodecReader reader) {
            for (Kind kind : values()) {
                if (kind.tag == tag) {
                    return kind;
                }
            }
            throw reader.invalid("unknown query tag " + tag + " (a later release wrote it?)");
        }
    }

    private static void strings(CodecWriter writer, String... values) {
        for (String value : values) {
            writer.writeString(value);
        }
    }

    private static void nullableStrings(CodecWriter writer, @Nullable String... values) {
        for (String value : values) {
            writer.writeNullableString(value);
        }
    }
}
