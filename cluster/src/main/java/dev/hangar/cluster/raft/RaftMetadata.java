package dev.hangar.cluster.raft;

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
import dev.hangar.metadata.ServiceConfigNames;
import dev.hangar.metadata.StoreStatistics;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.command.MetadataCommand;
import dev.hangar.metadata.query.ReadQuery;
import dev.hangar.metadata.state.Outcome;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.jspecify.annotations.Nullable;

/**
 * The metadata of the Raft mode as a {@link MetadataStore}: mutations are submitted to the group of their bucket,
 * reads are linearizable reads of that group (this node's replica after a barrier), and reads that name no bucket
 * (the bucket list, an upload's parts by upload id) read every group. The node's bookkeeping (garbage queue,
 * statistics, block references) covers this node's own replicas: every member queues the blocks a command made
 * unreachable, and the first reclaimer to free them frees them for all (deleting a block twice is harmless).
 */
final class RaftMetadata implements MetadataStore {
    private static final Logger LOG = Logger.getLogger(RaftMetadata.class.getName());

    private final RaftReplication replication;
    private volatile boolean closed;

    RaftMetadata(RaftReplication replication) {
        this.replication = replication;
    }

    @Override
    public <R> Outcome<R> apply(MetadataCommand<R> command) {
        check();
        return replication.submit(command).outcome();
    }

    @Override
    public Optional<BucketRecord> getBucket(String name) {
        check();
        return replication.read(new ReadQuery.GetBucket(name), name);
    }

    @Override
    public List<BucketRecord> listBuckets() {
        check();
        List<BucketRecord> buckets = new ArrayList<>();
        replication.readAll(new ReadQuery.ListBuckets()).forEach(buckets::addAll);
        buckets.sort(Comparator.comparing(BucketRecord::name));
        return buckets;
    }

    @Override
    public Optional<ObjectVersion> getObject(String bucket, String key) {
        check();
        return replication.read(new ReadQuery.GetObject(bucket, key), bucket);
    }

    @Override
    public Optional<ObjectVersion> getVersion(String bucket, String key, String versionId) {
        check();
        return replication.read(new ReadQuery.GetVersion(bucket, key, versionId), bucket);
    }

    @Override
    public ObjectListing listObjects(String bucket, ListQuery query) {
        check();
        return replication.read(new ReadQuery.ListObjects(bucket, query), bucket);
    }

    @Override
    public VersionListing listVersions(String bucket, VersionQuery query) {
        check();
        return replication.read(new ReadQuery.ListVersions(bucket, query), bucket);
    }

    @Override
    public Optional<MultipartUpload> getUpload(String bucket, String key, String uploadId) {
        check();
        return replication.read(new ReadQuery.GetUpload(bucket, key, uploadId), bucket);
    }

    // Parts are named by upload id alone; upload ids are unique, so at most one group has any.
    @Override
    public Optional<Part> getPart(String uploadId, int partNumber) {
        check();
        return replication.readAll(new ReadQuery.GetPart(uploadId, partNumber)).stream()
                .flatMap(Optional::stream).findFirst();
    }

    @Override
    public PartListing listParts(String uploadId, int afterPartNumber, int maxParts) {
        check();
        List<PartListing> listings =
                replication.readAll(new ReadQuery.ListParts(uploadId, afterPartNumber, maxParts));
        return listings.stream().filter(listing -> !listing.parts().isEmpty()).findFirst()
                .orElse(listings.isEmpty() ? new PartListing(List.of(), false, 0) : listings.getFirst());
    }

    @Override
    public UploadListing listUploads(String bucket, String prefix, @Nullable String delimiter,
            @Nullable String keyMarker, @Nullable String uploadIdMarker, int maxUploads) {
        check();
        return replication.read(
                new ReadQuery.ListUploads(bucket, prefix, delimiter, keyMarker, uploadIdMarker, maxUploads), bucket);
    }

    @Override
    public Optional<byte[]> getBucketConfig(String bucket, String kind) {
        check();
        return replication.read(new ReadQuery.GetBucketConfig(bucket, kind), bucket);
    }

    @Override
    public Optional<AccessKey> getAccessKey(String accessKeyId) {
        check();
        return replication.read(new ReadQuery.GetAccessKey(accessKeyId), GroupPlan.ACCESS_KEYS);
    }

    @Override
    public List<AccessKey> listAccessKeys() {
        check();
        return replication.read(new ReadQuery.ListAccessKeys(), GroupPlan.ACCESS_KEYS);
    }

    /** A settings read of the access keys' group, which holds the service's own records ({@link Routes}). */
    @Override
    public Optional<byte[]> getServiceConfig(String kind, String name) {
        check();
        // Refused here as by every store, rather than in whichever member the read is forwarded to.
        ServiceConfigNames.requireKind(kind);
        ServiceConfigNames.requireName(name);
        return replication.read(new ReadQuery.GetServiceConfig(kind, name), GroupPlan.ACCESS_KEYS);
    }

    /** A linearizable read of that group, as the access keys list. */
    @Override
    public SortedMap<String, byte[]> listServiceConfigs(String kind) {
        check();
        ServiceConfigNames.requireKind(kind);
        return replication.read(new ReadQuery.ListServiceConfigs(kind), GroupPlan.ACCESS_KEYS);
    }

    // The node's bookkeeping, over its own replicas

    @Override
    public List<BlockId> pendingGarbage(int max) {
        check();
        List<BlockId> pending = new ArrayList<>();
        for (MetadataStore store : replication.localStores()) {
            if (pending.size() >= max) {
                break;
            }
            pending.addAll(store.pendingGarbage(max - pending.size()));
        }
        return pending;
    }

    @Override
    public void forgetGarbage(Collection<BlockId> ids) {
        check();
        replication.localStores().forEach(store -> store.forgetGarbage(ids));
    }

    @Override
    public void queueGarbage(Collection<BlockId> ids) {
        check();
        Optional<MetadataStore> own = replication.ownStore();
        if (own.isEmpty()) {
            LOG.warning(() -> "a node without metadata replicas cannot queue " + ids.size()
                    + " unreachable blocks; they stay until a scrub of their nodes finds them");
            return;
        }
        own.get().queueGarbage(ids);
    }

    @Override
    public StoreStatistics statistics() {
        check();
        long objects = 0;
        long bytes = 0;
        long markers = 0;
        long buckets = 0;
        long uploads = 0;
        for (MetadataStore store : replication.localStores()) {
            StoreStatistics own = store.statistics();
            objects += own.objects();
            bytes += own.bytes();
            markers += own.deleteMarkers();
            buckets += own.buckets();
            uploads += own.uploads();
        }
        return new StoreStatistics(objects, bytes, markers, buckets, uploads);
    }

    @Override
    public void forEachBlockReference(Consumer<? super BlockRef> visitor) {
        check();
        replication.localStores().forEach(store -> store.forEachBlockReference(visitor));
    }

    @Override
    public void sync() {
        check();
        replication.localStores().forEach(MetadataStore::sync);
    }

    private void check() {
        if (closed) {
            throw new IllegalStateException("this view of the Raft metadata is closed");
        }
    }

    /** Closes this view only: the stores belong to their groups' divisions, which the replication closes. */
    @Override
    public void close() {
        closed = true;
    }
}
