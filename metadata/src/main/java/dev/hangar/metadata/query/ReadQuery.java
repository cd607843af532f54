package dev.hangar.metadata.query;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;

/**
 * One read of a {@link MetadataStore}, as a value: the closed set of reads a request makes. A node
 * that does not hold the metadata sends a read to one that does (as a Raft query), which runs it
 * with {@link #runOn} and sends the result back; {@link QueryCodec} encodes both.
 *
 * <p>Each record holds the arguments of one method, exactly as given (a null stays null, an empty
 * string stays empty, a negative number stays negative): what they mean is the store's business,
 * so a read runs the same wherever it is sent. Components are not null unless marked. {@code T} is
 * the method's result type.
 */
public sealed interface ReadQuery<T> {

    /**
     * Calls the method of {@code store} that this query names, with its arguments. One switch rather
     * than a method in each record, so that the reads stand as one table; the price is a cast the
     * compiler cannot check, which {@code ReadQueryOnStoreTest} does by running every kind.
     */
    @SuppressWarnings("unchecked") // Each case returns what the matched record declares as its T.
    default T runOn(MetadataStore store) {
        Object result = switch (this) {
            case GetBucket q -> store.getBucket(q.name());
            case ListBuckets q -> store.listBuckets();
            case GetObject q -> store.getObject(q.bucket(), q.key());
            case GetVersion q -> store.getVersion(q.bucket(), q.key(), q.versionId());
            case ListObjects q -> store.listObjects(q.bucket(), q.query());
            case ListVersions q -> store.listVersions(q.bucket(), q.query());
            case GetUpload q -> store.getUpload(q.bucket(), q.key(), q.uploadId());
            case GetPart q -> store.getPart(q.uploadId(), q.partNumber());
            case ListParts q -> store.listParts(q.uploadId(), q.afterPartNumber(), q.maxParts());
            case ListUploads q -> store.listUploads(q.bucket(), q.prefix(), q.delimiter(), q.keyMarker(),
                    q.uploadIdMarker(), q.maxUploads());
            case GetBucketConfig q -> store.getBucketConfig(q.bucket(), q.kind());
            case GetAccessKey q -> store.getAccessKey(q.accessKeyId());
            case ListAccessKeys q -> store.listAccessKeys();
            case GetServiceConfig q -> store.getServiceConfig(q.kind(), q.name());
            case ListServiceConfigs q -> store.listServiceConfigs(q.kind());
        };
        return (T) result;
    }

    /** {@link MetadataStore#getBucket}. */
    record GetBucket(String name) implements ReadQuery<Optional<BucketRecord>> {}

    /** {@link MetadataStore#listBuckets}. */
    record ListBuckets() implements ReadQuery<List<BucketRecord>> {}

    /** {@link MetadataStore#getObject}: the current version, a delete marker included. */
    record GetObject(String bucket, String key) implements ReadQuery<Optional<ObjectVersion>> {}

    /** {@link MetadataStore#getVersion}. */
    record GetVersion(String bucket, String key, String versionId) implements ReadQuery<Optional<ObjectVersion>> {}

    /** {@link MetadataStore#listObjects}. */
    record ListObjects(String bucket, ListQuery query) implements ReadQuery<ObjectListing> {}

    /** {@link MetadataStore#listVersions}. */
    record ListVersions(String bucket, VersionQuery query) implements ReadQuery<VersionListing> {}

    /** {@link MetadataStore#getUpload}. */
    record GetUpload(String bucket, String key, String uploadId) implements ReadQuery<Optional<MultipartUpload>> {}

    /** {@link MetadataStore#getPart}: any number, as the store takes any (only 1 to 10,000 can exist). */
    record GetPart(String uploadId, int partNumber) implements ReadQuery<Optional<Part>> {}

    /** {@link MetadataStore#listParts}. */
    record ListParts(String uploadId, int afterPartNumber, int maxParts) implements ReadQuery<PartListing> {}

    /** {@link MetadataStore#listUploads}. */
    record ListUploads(
            String bucket,
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String uploadIdMarker,
            int maxUploads)
            implements ReadQuery<UploadListing> {}

    /** {@link MetadataStore#getBucketConfig}: the document is opaque bytes. */
    record GetBucketConfig(String bucket, String kind) implements ReadQuery<Optional<byte[]>> {}

    /** {@link MetadataStore#getAccessKey}: the key with its secret as stored (sealed or not). */
    record GetAccessKey(String accessKeyId) implements ReadQuery<Optional<AccessKey>> {}

    /** {@link MetadataStore#listAccessKeys}. */
    record ListAccessKeys() implements ReadQuery<List<AccessKey>> {}

    /** {@link MetadataStore#getServiceConfig}: the document is opaque bytes. */
    record GetServiceConfig(String kind, String name) implements ReadQuery<Optional<byte[]>> {}

    /** {@link MetadataStore#listServiceConfigs}. */
    record ListServiceConfigs(String kind) implements ReadQuery<SortedMap<String, byte[]>> {}
}
