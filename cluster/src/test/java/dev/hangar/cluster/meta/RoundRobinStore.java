package dev.hangar.cluster.meta;

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
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.state.Outcome;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One {@link MetadataStore} over the stores of several nodes, sending each call to the next node in
 * turn: every operation of a test goes through a different coordinator than the one before it.
 *
 * <p>Two kinds of calls are not one node's to answer. The queue of blocks to free is each node's
 * own: {@link #pendingGarbage} gathers every node's, {@link #forgetGarbage} tells every node. The
 * whole-store views ({@link #statistics}, {@link #forEachBlockReference}) read the replica of the
 * node they go to: before one, {@code catchUp} brings that replica up to date with the others (the
 * anti-entropy every node runs), since a write through another node reaches it only after its
 * quorum acknowledged.
 */
public final class RoundRobinStore implements MetadataStore {
    private final List<? extends MetadataStore> stores;
    private final IntConsumer catchUp;
    private final AtomicInteger next = new AtomicInteger();

    /**
     * @param catchUp brings the replica of the node of this index up to date with the others'
     */
    public RoundRobinStore(List<? extends MetadataStore> stores, IntConsumer catchUp) {
        this.stores = List.copyOf(stores);
        this.catchUp = catchUp;
    }

    private int nextIndex() {
        return Math.floorMod(next.getAndIncrement(), stores.size());
    }

    private MetadataStore next() {
        return stores.get(nextIndex());
    }

    @Override
    public <R> Outcome<R> apply(MetadataCommand<R> command) {
        return next().apply(command);
    }

    @Override
    public Optional<BucketRecord> getBucket(String name) {
        return next().getBucket(name);
    }

    @Override
    public List<BucketRecord> listBuckets() {
        return next().listBuckets();
    }

    @Override
    public Optional<ObjectVersion> getObject(String bucket, String key) {
        return next().getObject(bucket, key);
    }

    @Override
    public Optional<ObjectVersion> getVersion(String bucket, String key, String versionId) {
        return next().getVersion(bucket, key, versionId);
    }

    @Override
    public ObjectListing listObjects(String bucket, ListQuery query) {
        return next().listObjects(bucket, query);
    }

    @Override
    public VersionListing listVersions(String bucket, VersionQuery query) {
        return next().listVersions(bucket, query);
    }

    @Override
    public Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId) {
        return next().getUpload(bucket, key, uploadId);
    }

    @Override
    public Optional<Part> getPart(String uploadId, int partNumber) {
        return next().getPart(uploadId, partNumber);
    }

    @Override
    public PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        return next().listParts(uploadId, afterPartNumber, maxParts);
    }

    @Override
    public UploadListing listUploads(String bucket, String prefix, @Nullable String delimiter,
            @Nullable String keyMarker, @Nullable String uploadIdMarker, int maxUploads) {
        return next().listUploads(bucket, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads);
    }

    @Override
    public List<BlockId> pendingGarbage(int max) {
        Set<BlockId> pending = new LinkedHashSet<>();
        for (MetadataStore store : stores) {
            pending.addAll(store.pendingGarbage(max));
        }
        return new ArrayList<>(pending).subList(0, Math.min(max, pending.size()));
    }

    @Override
    public void forgetGarbage(Collection<BlockId> ids) {
        stores.forEach(store -> store.forgetGarbage(ids));
    }

    @Override
    public void queueGarbage(Collection<BlockId> ids) {
        next().queueGarbage(ids);
    }

    @Override
    public StoreStatistics statistics() {
        int index = nextIndex();
        catchUp.accept(index);
        return stores.get(index).statistics();
    }

    @Override
    public void forEachBlockReference(Consumer<? super BlockRef> visitor) {
        int index = nextIndex();
        catchUp.accept(index);
        stores.get(index).forEachBlockReference(visitor);
    }

    @Override
    public Optional<byte[]> getBucketConfig(String bucket, String kind) {
        return next().getBucketConfig(bucket, kind);
    }

    @Override
    public Optional<AccessKey> getAccessKey(String accessKeyId) {
        return next().getAccessKey(accessKeyId);
    }

    @Override
    public List<AccessKey> listAccessKeys() {
        return next().listAccessKeys();
    }

    @Override
    public Optional<byte[]> getServiceConfig(String kind, String name) {
        return next().getServiceConfig(kind, name);
    }

    @Override
    public SortedMap<String, byte[]> listServiceConfigs(String kind) {
        return next().listServiceConfigs(kind);
    }

    @Override
    public void close() {
        stores.forEach(MetadataStore::close);
    }
}
