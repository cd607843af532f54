package dev.hangar.metadata.query;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.ServiceConfigNames;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.command.CodecReader;
import dev.hangar.metadata.command.CodecWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How a result of type {@code T} is written and read: the value layouts listed in {@link
 * QueryCodec}'s comment, built from the record writers and readers that commands use.
 */
record ResultFormat<T>(BiConsumer<CodecWriter, T> writer, Function<CodecReader, T> reader) {
    private static final ResultFormat<BucketRecord> BUCKET =
            new ResultFormat<>(CodecWriter::writeBucketRecord, CodecReader::readBucketRecord);
    private static final ResultFormat<ObjectVersion> VERSION =
            new ResultFormat<>(CodecWriter::writeVersion, CodecReader::readVersion);
    private static final ResultFormat<MultipartUpload> UPLOAD =
            new ResultFormat<>(CodecWriter::writeUpload, CodecReader::readUpload);
    private static final ResultFormat<AccessKey> ACCESS_KEY =
            new ResultFormat<>(CodecWriter::writeAccessKey, CodecReader::readAccessKey);
    private static final ResultFormat<byte[]> DOCUMENT =
            new ResultFormat<>(CodecWriter::writeBytes, CodecReader::readBytes);
    private static final ResultFormat<SortedMap<String, byte[]>> DOCUMENTS_BY_NAME = documentsByName();
    private static final ResultFormat<List<String>> STRINGS =
            list(new ResultFormat<>(CodecWriter::writeString, CodecReader::readString));
    private static final ResultFormat<ListedVersion> LISTED_VERSION = new ResultFormat<>(
            (out, listed) -> {
                out.writeVersion(listed.version());
                out.writeBoolean(listed.latest());
            },
            in -> new ListedVersion(in.readVersion(), in.readBoolean()));

    private static final ResultFormat<ObjectListing> OBJECT_LISTING = objectListing();
    private static final ResultFormat<VersionListing> VERSION_LISTING = markedPage(LISTED_VERSION,
            listing -> new MarkedPage<>(listing.versions(), listing.commonPrefixes(), listing.truncated(),
                    listing.nextKeyMarker(), listing.nextVersionIdMarker()),
            page -> new VersionListing(page.entries(), page.commonPrefixes(), page.truncated(),
                    page.nextKeyMarker(), page.nextIdMarker()));
    private static final ResultFormat<UploadListing> UPLOAD_LISTING = markedPage(UPLOAD,
            listing -> new MarkedPage<>(listing.uploads(), listing.commonPrefixes(), listing.truncated(),
                    listing.nextKeyMarker(), listing.nextUploadIdMarker()),
            page -> new UploadListing(page.entries(), page.commonPrefixes(), page.truncated(),
                    page.nextKeyMarker(), page.nextIdMarker()));

    /** The format of the results of {@code query}, whose record names their type. */
    @SuppressWarnings("unchecked") // Each case gives the format of the T that the matched record declares.
    static <T> ResultFormat<T> of(ReadQuery<T> query) {
        ResultFormat<?> format = switch (query) {
            case ReadQuery.GetBucket q -> optional(BUCKET);
            case ReadQuery.ListBuckets q -> list(BUCKET);
            case ReadQuery.GetObject q -> optional(VERSION);
            case ReadQuery.GetVersion q -> optional(VERSION);
            case ReadQuery.ListObjects q -> OBJECT_LISTING;
            case ReadQuery.ListVersions q -> VERSION_LISTING;
            case ReadQuery.GetUpload q -> optional(UPLOAD);
            case ReadQuery.GetPart q -> optional(part(q.uploadId()));
            case ReadQuery.ListParts q -> partListing(q.uploadId());
            case ReadQuery.ListUploads q -> UPLOAD_LISTING;
            case ReadQuery.GetBucketConfig q -> optional(DOCUMENT);
            case ReadQuery.GetAccessKey q -> optional(ACCESS_KEY);
            case ReadQuery.ListAccessKeys q -> list(ACCESS_KEY);
            case ReadQuery.GetServiceConfig q -> optional(DOCUMENT);
            case ReadQuery.ListServiceConfigs q -> DOCUMENTS_BY_NAME;
        };
        return (ResultFormat<T>) format;
    }

    void write(CodecWriter out, T value) {
        writer.accept(out, value);
    }

    T read(CodecReader in) {
        return reader.apply(in);
    }

    private static <E> ResultFormat<Optional<E>> optional(ResultFormat<E> element) {
        return new ResultFormat<>((out, value) -> out.writeOptional(value, each -> element.write(out, each)),
                in -> in.readOptional(() -> element.read(in)));
    }

    private static <E> ResultFormat<List<E>> list(ResultFormat<E> element) {
        return new ResultFormat<>((out, values) -> out.writeList(values, each -> element.write(out, each)),
                in -> in.readList(() -> element.read(in)));
    }

    /**
     * Names and documents in the map's order; read back into a map of the store's order ({@link
     * ServiceConfigNames#newListing}), whatever order the bytes hold them in.
     */
    private static ResultFormat<SortedMap<String, byte[]>> documentsByName() {
        return new ResultFormat<>(
                (out, documents) -> {
                    out.writeVarLong(documents.size());
                    for (Map.Entry<String, byte[]> each : documents.entrySet()) {
                        out.writeString(each.getKey());
                        out.writeBytes(each.getValue());
                    }
                },
                in -> {
                    SortedMap<String, byte[]> documents = ServiceConfigNames.newListing();
                    int count = in.readCount();
                    for (int i = 0; i < count; i++) {
                        String name = in.readString();
                        // No encoder writes a name twice: such bytes are refused, not merged.
                        if (documents.put(name, in.readBytes()) != null) {
                            throw in.invalid("service configuration " + name + " listed twice");
                        }
                    }
                    return documents;
                });
    }

    /**
     * A part of upload {@code uploadId}, without that id: the query holds it. A part of another
     * upload has no business in the result, and would come back with the wrong id: refused.
     */
    private static ResultFormat<Part> part(String uploadId) {
        return new ResultFormat<>(
                (out, part) -> {
                    if (!part.uploadId().equals(uploadId)) {
                        throw new IllegalArgumentException("part of upload " + part.uploadId()
                                + " in the result of a query of upload " + uploadId);
                    }
                    out.writePart(part);
                },
                in -> in.readPart(uploadId));
    }

    private static ResultFormat<ObjectListing> objectListing() {
        ResultFormat<List<ObjectVersion>> versions = list(VERSION);
        return new ResultFormat<>(
                (out, listing) -> {
                    versions.write(out, listing.entries());
                    STRINGS.write(out, listing.commonPrefixes());
                    out.writeBoolean(listing.truncated());
                    out.writeNullableString(listing.nextMarker());
                },
                in -> new ObjectListing(versions.read(in), STRINGS.read(in), in.readBoolean(),
                        in.readNullableString()));
    }

    /**
     * The shape that version and upload listings share: entries, common prefixes, truncated, and the
     * key and id markers to resume at.
     */
    private record MarkedPage<E>(
            List<E> entries,
            List<String> commonPrefixes,
            boolean truncated,
            @Nullable String nextKeyMarker,
            @Nullable String nextIdMarker) {}

    /** The format of a listing {@code P}, which {@code toPage} and {@code fromPage} turn to and from its page. */
    private static <E, P> ResultFormat<P> markedPage(
            ResultFormat<E> entry, Function<P, MarkedPage<E>> toPage, Function<MarkedPage<E>, P> fromPage) {
        ResultFormat<List<E>> entries = list(entry);
        return new ResultFormat<>(
                (out, listing) -> {
                    MarkedPage<E> page = toPage.apply(listing);
                    entries.write(out, page.entries());
                    STRINGS.write(out, page.commonPrefixes());
                    out.writeBoolean(page.truncated());
                    out.writeNullableString(page.nextKeyMarker());
                    out.writeNullableString(page.nextIdMarker());
                },
                in -> fromPage.apply(new MarkedPage<>(entries.read(in), STRINGS.read(in), in.readBoolean(),
                        in.readNullableString(), in.readNullableString())));
    }

    private static ResultFormat<PartListing> partListing(String uploadId) {
        ResultFormat<List<Part>> parts = list(part(uploadId));
        return new ResultFormat<>(
                (out, listing) -> {
                    parts.write(out, listing.parts());
                    out.writeBoolean(listing.truncated());
                    out.writeSignedVarLong(listing.nextPartNumberMarker());
                },
                in -> new PartListing(parts.read(in), in.readBoolean(), in.readSignedInt()));
    }
}
