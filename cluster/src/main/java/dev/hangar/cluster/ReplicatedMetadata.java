package dev.hangar.cluster;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.WriteLogStatistics;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.state.Outcome;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The metadata of a {@link StoreReplication} as a {@link MetadataStore}: mutations are submitted as
 * commands, reads go to the store, and both are counted with their rounds. The node's own
 * bookkeeping (garbage queue, statistics, block references, syncs) passes through uncounted: it is
 * not a request's work.
 */
final class ReplicatedMetadata implements MetadataStore {
    private final StoreReplication replication;
    private final MetadataStore store;

    ReplicatedMetadata(StoreReplication replication, MetadataStore store) {
        this.replication = replication;
        this.store = store;
    }

    @Override
    public <R> Outcome<R> apply(MetadataCommand<R> command) {
        return replication.submit(command).outcome();
    }

    @Override
    public Optional<BucketRecord> getBucket(String name) {
        return replication.read("getBucket", () -> store.getBucket(name));
    }

    @Override
    public List<BucketRecord> listBuckets() {
        return replication.read("listBuckets", store::listBuckets);
    }

    @Override
    public Optional<ObjectVersion> getObject(String bucket, String key) {
        return replication.read("getObject", () -> store.getObject(bucket, key));
    }

    @Override
    public Optional<ObjectVersion> getVersion(String bucket, String key, String versionId) {
        return replication.read("getVersion", () -> store.getVersion(bucket, key, versionId));
    }

    @Override
    public ObjectListing listObjects(String bucket, ListQuery query) {
        return replication.read("listObjects", () -> store.listObjects(bucket, query));
    }

    @Override
    public VersionListing listVersions(String bucket, VersionQuery query) {
        return replication.read("listVersions", () -> store.listVersions(bucket, query));
    }

    @Override
    public Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId) {
        return replication.read("getUpload", () -> store.getUpload(bucket, key, uploadId));
    }

    @Override
    public Optional<Part> getPart(String uploadId, int partNumber) {
        return replication.read("getPart", () -> store.getPart(uploadId, partNumber));
    }

    @Override
    public PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        return replication.read("listParts", () -> store.listParts(uploadId, afterPartNumber, maxParts));
    }

    @Override
    public UploadListing listUploads(String bucket, String prefix, @Nullable String delimiter,
            @Nullable String keyMarker, @Nullable String uploadIdMarker, int maxUploads) {
        return replication.read("listUploads",
                () -> store.listUploads(bucket, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads));
    }

    @Override
    public Optional<byte[]> getBucketConfig(String bucket, String kind) {
        return replication.read("getBucketConfig", () -> store.getBucketConfig(bucket, kind));
    }

    @Override
    public Optional<AccessKey> getAccessKey(String accessKeyId) {
        return replication.read("getAccessKey", () -> store.getAccessKey(accessKeyId));
    }

    @Override
    public List<AccessKey> listAccessKeys() {
        return replication.read("listAccessKeys", store::listAccessKeys);
    }

    @Override
    public Optional<byte[]> getServiceConfig(String kind, String name) {
        return replication.read("getServiceConfig", () -> store.getServiceConfig(kind, name));
    }

    @Override
    public SortedMap<String, byte[]> listServiceConfigs(String kind) {
        return replication.read("listServiceConfigs", () -> store.listServiceConfigs(kind));
    }

    // The node's bookkeeping

    @Override
    public List<BlockId> pendingGarbage(int max) {
        return store.pendingGarbage(max);
    }

    @Override
    public void forgetGarbage(Collection<BlockId> ids) {
        store.forgetGarbage(ids);
    }

    @Override
    public void queueGarbage(Collection<BlockId> ids) {
        store.queueGarbage(ids);
    }

    @Override
    public StoreStatistics statistics() {
        return store.statistics();
    }

    @Override
    public void forEachBlockReference(Consumer<? super BlockRef> visitor) {
        store.forEachBlockReference(visitor);
    }

    @Override
    public void sync() {
        store.sync();
    }

    @Override
    public WriteLogStatistics writeLog() {
        return store.writeLog();
    }

    /** Closes the store; closing it twice does nothing, so the node that owns it may close it too. */
    @Override
    public void close() {
        store.close();
    }
}
