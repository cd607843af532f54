package dev.hangar.distribution;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.cluster.ClusterNode;
import dev.hangar.cluster.ReplicationView;
import dev.hangar.cluster.layout.ClusterLayout;
import dev.hangar.cluster.layout.NodeId;
import dev.hangar.cluster.layout.NodeRole;
import dev.hangar.cluster.layout.Partitioning;
import dev.hangar.cluster.table.Entry;
import dev.hangar.cluster.table.LocalTable;
import dev.hangar.distribution.ServerCluster.Member;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Replication through the S3 API of real servers forming clusters on loopback (replication factor 3,
 * {@code consistent} mode): nodes and a whole zone stopped and brought back, a node cut off by the RPC
 * fault hook, a node added with data moving to it, and concurrent writers of one key on different
 * gateways. Replicas are checked by reading each node's own stores, not through the cluster.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ClusterReplicationIT {
    private static final String ACCESS_KEY = "HANGARCLUSTERITKEY01";
    private static final String SECRET_KEY = "hangar-cluster-it-secret-0123456789abcdef";
    private static final int INLINE = 100;
    /** Three chunks: two full 1 MiB ones and a packed tail. */
    private static final int LARGE = 2 * 1024 * 1024 + 300_000;

    @TempDir
    Path dir;

    private final Map<String, String> written = new ConcurrentHashMap<>();

    @Test
    void everyOperationWorksWithANodeOrAZoneDownAndReturningNodesCatchUp() {
        List<Member> members = List.of(Member.storage("a1", "zone-a"), Member.storage("a2", "zone-a"),
                Member.storage("b1", "zone-b"), Member.storage("c1", "zone-c"), new Member("gw", "zone-c", 0));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members)) {
            // Every partition has one replica per zone: a zone down leaves two of three, a quorum.
            ClusterLayout layout = cluster.layout();
            for (int p = 0; p < layout.partitions(); p++) {
                Set<String> zones = layout.replicas(p).stream()
                        .map(id -> layout.role(id).orElseThrow().zone()).collect(Collectors.toSet());
                assertThat(zones).as("zones of partition %d", p).hasSize(3);
            }
            assertThat(layout.role(new NodeId("gw"))).as("the gateway holds no partition").isEmpty();

            String bucket = "replicated";
            cluster.server("gw").s3().createBucket(b -> b.bucket(bucket));
            exerciseEveryOperation(cluster, bucket, "all-up");

            cluster.stop("a1");
            exerciseEveryOperation(cluster, bucket, "a1-down");
            cluster.restart("a1");
            cluster.awaitAllUp();
            awaitReplicasInSync(cluster, "a1");
            awaitBlocksOnOwners(cluster, bucket);
            assertAllReadable(cluster, bucket);

            cluster.stop("a1");
            cluster.stop("a2");
            exerciseEveryOperation(cluster, bucket, "zone-a-down");
            cluster.restart("a1");
            cluster.restart("a2");
            cluster.awaitAllUp();
            awaitReplicasInSync(cluster, "a1");
            awaitReplicasInSync(cluster, "a2");
            awaitBlocksOnOwners(cluster, bucket);
            assertAllReadable(cluster, bucket);
        }
    }

    @Test
    void anIsolatedNodeRefusesWritesWithServiceUnavailableWhileTheMajorityServes() {
        List<Member> members = List.of(Member.storage("n1", "zone-a"), Member.storage("n2", "zone-b"),
                Member.storage("n3", "zone-c"));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members)) {
            String bucket = "partitioned";
            cluster.server("n1").s3().createBucket(b -> b.bucket(bucket));
            put(cluster.server("n2").s3(), bucket, "before", content(1, INLINE));

            List<NodeId> minority = List.of(new NodeId("n3"));
            List<NodeId> majority = List.of(new NodeId("n1"), new NodeId("n2"));
            for (String id : cluster.runningIds()) {
                cluster.control(id).faults().partition(minority, majority);
            }
            S3Exception refused = catchThrowableOfType(S3Exception.class,
                    () -> put(cluster.server("n3").s3(), bucket, "minority", content(2, INLINE)));
            assertThat(refused).as("a write on the minority side").isNotNull();
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("ServiceUnavailable");
            assertThat(refused.awsErrorDetails().errorMessage()).contains("replicas");
            written.remove(bucket + "/minority");

            // The majority keeps serving, small and chunked objects alike.
            put(cluster.server("n1").s3(), bucket, "majority-small", content(3, INLINE));
            put(cluster.server("n2").s3(), bucket, "majority-large", content(4, LARGE));
            assertReadable(cluster.server("n1").s3(), bucket, "before");
            assertReadable(cluster.server("n2").s3(), bucket, "majority-small");

            for (String id : cluster.runningIds()) {
                cluster.control(id).faults().heal();
            }
            cluster.awaitAllUp();
            awaitReplicasInSync(cluster, "n3");
            assertAllReadable(cluster, bucket);
            assertThat(cluster.server("n3").s3().listObjectsV2(l -> l.bucket(bucket)).contents())
                    .extracting(S3Object::key).doesNotContain("minority");
        }
    }

    @Test
    void degradedModeStillReadsWithAMajorityDownButRefusesWrites() {
        List<Member> members = List.of(Member.storage("n1", "zone-a"), Member.storage("n2", "zone-b"),
                Member.storage("n3", "zone-c"));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members,
                "cluster.consistency=degraded")) {
            String bucket = "degraded";
            cluster.server("n1").s3().createBucket(b -> b.bucket(bucket));
            put(cluster.server("n2").s3(), bucket, "small", content(1, INLINE));
            put(cluster.server("n2").s3(), bucket, "large", content(2, LARGE));
            awaitReplicasInSync(cluster, "n1");
            awaitBlocksOnOwners(cluster, bucket);

            AdminApi.Response ready = cluster.server("n1").admin().get("/actuator/health/readiness");
            assertThat(ready.status()).as("n1's readiness with every node up: %s", ready.body()).isEqualTo(200);

            cluster.stop("n2");
            cluster.stop("n3");
            // Not ready once it sees the majority gone: writes through it cannot reach a quorum.
            ServerCluster.await(() -> cluster.server("n1").admin().get("/actuator/health/readiness").status() == 503,
                    "n1's readiness to turn 503 once it sees n2 and n3 down");
            AdminApi.Response health = cluster.server("n1").admin().get("/actuator/health");
            assertThat(health.body()).as("n1's health").contains("DOWN");
            // Reads ask one replica: n1's own answers, stale or not.
            assertReadable(cluster.server("n1").s3(), bucket, "small");
            assertReadable(cluster.server("n1").s3(), bucket, "large");
            // Writes still need a majority of the three.
            S3Exception refused = catchThrowableOfType(S3Exception.class,
                    () -> put(cluster.server("n1").s3(), bucket, "refused", content(3, INLINE)));
            assertThat(refused).isNotNull();
            assertThat(refused.statusCode()).isEqualTo(503);
        }
    }

    @Test
    void anAddedNodeTakesPartitionsAndEveryObjectWrittenBeforeAndDuringTheChangeReadsBack() throws Exception {
        List<Member> members = List.of(Member.storage("n1", "zone-a"), Member.storage("n2", "zone-b"),
                Member.storage("n3", "zone-c"));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members)) {
            String bucket = "growing";
            cluster.server("n1").s3().createBucket(b -> b.bucket(bucket));
            for (int i = 0; i < 30; i++) {
                put(cluster.server("n" + (1 + i % 3)).s3(), bucket, "before-" + i, content(i, sizeOf(i)));
            }

            cluster.add(Member.storage("n4", "zone-a"));
            cluster.awaitAllUp();
            ExecutorService writer = Executors.newSingleThreadExecutor();
            CountDownLatch started = new CountDownLatch(1);
            Future<?> during = writer.submit(() -> {
                started.countDown();
                for (int i = 0; i < 30; i++) {
                    put(cluster.server("n" + (1 + i % 4)).s3(), bucket, "during-" + i, content(100 + i, sizeOf(i)));
                }
            });
            started.await();
            long version = cluster.control("n2").layout().version();
            cluster.control("n2").stage(new NodeRole(new NodeId("n4"), "zone-a", 100));
            cluster.control("n2").apply(version);
            cluster.awaitLayout(version + 1);
            during.get();
            writer.shutdown();

            // Zone a is now shared by n1 and n4: each holds about half of its partitions; b and c all.
            Map<NodeId, Integer> counts = cluster.layout().partitionCounts();
            assertThat(counts.get(new NodeId("n4"))).isBetween(96, 160);
            assertThat(counts.get(new NodeId("n1")) + counts.get(new NodeId("n4"))).isEqualTo(256);
            assertThat(counts.get(new NodeId("n2"))).isEqualTo(256);

            awaitReplicasInSync(cluster, "n4");
            awaitBlocksOnOwners(cluster, bucket);
            assertAllReadable(cluster, bucket);
            assertThat(written).hasSize(60);
        }
    }

    /**
     * 200 versions of one key written at once through three nodes (four writers each) into a versioned
     * bucket: ListObjectVersions through every node lists all 200, and every version reads back through
     * every node with its own body. Versions are entries of their own that merge: concurrent versioned
     * PUTs through different nodes all survive (each used to rewrite the key's whole stack, and lose
     * the versions of the others).
     */
    @Test
    void twoHundredVersionsOfOneKeyWrittenAtOnceThroughThreeNodesAreAllKept() throws Exception {
        List<Member> members = List.of(Member.storage("n1", "zone-a"), Member.storage("n2", "zone-b"),
                Member.storage("n3", "zone-c"));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members)) {
            String bucket = "versions";
            cluster.server("n1").s3().createBucket(b -> b.bucket(bucket));
            cluster.server("n1").s3().putBucketVersioning(v -> v.bucket(bucket)
                    .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
            // Bucket settings reach the other nodes' caches within about two seconds.
            ServerCluster.await(() -> cluster.servers().stream().allMatch(server -> server.s3()
                    .getBucketVersioning(g -> g.bucket(bucket)).status() == BucketVersioningStatus.ENABLED),
                    "versioning enabled as every node sees it");
            int versions = 200;
            int writers = 12;
            Map<String, String> bodies = new ConcurrentHashMap<>();
            ExecutorService executor = Executors.newFixedThreadPool(writers);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> puts = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    int writer = w;
                    S3Client s3 = cluster.server("n" + (writer % 3 + 1)).s3();
                    puts.add(executor.submit(() -> {
                        go.await();
                        for (int i = writer; i < versions; i += writers) {
                            // Small and chunked alternately: inline versions and versions with blocks.
                            byte[] data = content(1000 + i, i % 2 == 0 ? INLINE : 70_000);
                            String versionId = s3.putObject(p -> p.bucket(bucket).key("hot"), RequestBody.fromBytes(data))
                                    .versionId();
                            bodies.put(versionId, sha256(data));
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> put : puts) {
                    put.get();
                }
            } finally {
                executor.shutdownNow();
            }
            assertThat(bodies).hasSize(versions);
            for (DedicatedServer server : cluster.servers()) {
                // Pages of 57 go on from the version id markers of the page before.
                List<software.amazon.awssdk.services.s3.model.ObjectVersion> listed = server.s3()
                        .listObjectVersionsPaginator(l -> l.bucket(bucket).prefix("hot").maxKeys(57))
                        .versions().stream().toList();
                assertThat(listed).extracting(software.amazon.awssdk.services.s3.model.ObjectVersion::versionId)
                        .as("versions listed through %s", server)
                        .containsExactlyInAnyOrderElementsOf(bodies.keySet());
                assertThat(listed).filteredOn(software.amazon.awssdk.services.s3.model.ObjectVersion::isLatest)
                        .hasSize(1);
                for (software.amazon.awssdk.services.s3.model.ObjectVersion version : listed) {
                    byte[] read = server.s3().getObjectAsBytes(g -> g.bucket(bucket).key("hot")
                            .versionId(version.versionId())).asByteArray();
                    assertThat(sha256(read)).as("version %s through %s", version.versionId(), server)
                            .isEqualTo(bodies.get(version.versionId()));
                }
            }
        }
    }

    @Test
    void concurrentPutsOfOneKeyThroughDifferentGatewaysConvergeOnEveryReplica() throws Exception {
        List<Member> members = List.of(Member.storage("n1", "zone-a"), Member.storage("n2", "zone-b"),
                Member.storage("n3", "zone-c"));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members)) {
            String bucket = "contended";
            cluster.server("n1").s3().createBucket(b -> b.bucket(bucket));
            ExecutorService writers = Executors.newFixedThreadPool(3);
            try {
                for (int round = 0; round < 8; round++) {
                    int r = round;
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<?>> puts = new ArrayList<>();
                    for (int n = 1; n <= 3; n++) {
                        int node = n;
                        puts.add(writers.submit(() -> {
                            go.await();
                            // Small and chunked alternately: both the inline and the block path race.
                            byte[] data = content(r * 10 + node, r % 2 == 0 ? INLINE : LARGE);
                            cluster.server("n" + node).s3().putObject(p -> p.bucket(bucket).key("hot"),
                                    RequestBody.fromBytes(data));
                            return null;
                        }));
                    }
                    go.countDown();
                    for (Future<?> put : puts) {
                        put.get();
                    }
                    Set<String> etags = new java.util.HashSet<>();
                    Set<String> bodies = new java.util.HashSet<>();
                    for (DedicatedServer server : cluster.servers()) {
                        etags.add(server.s3().headObject(h -> h.bucket(bucket).key("hot")).eTag());
                        bodies.add(sha256(server.s3().getObjectAsBytes(g -> g.bucket(bucket).key("hot")).asByteArray()));
                    }
                    assertThat(etags).as("ETags of round %d on every node", round).hasSize(1);
                    assertThat(bodies).as("bodies of round %d on every node", round).hasSize(1);
                }
            } finally {
                writers.shutdownNow();
            }
            for (String id : cluster.runningIds()) {
                awaitReplicasInSync(cluster, id);
            }
        }
    }

    /**
     * The sequential inter-node rounds each S3 request cost, as the node that served it counts them in
     * {@code hangar_cluster_rounds}: a replica of every partition (n1) and a gateway (gw) each serve
     * small and chunked PUTs and GETs, a listing and a HEAD.
     */
    @Test
    void roundTripsPerOperationAreCountedAndSmallObjectsCostOneRound() {
        List<Member> members = List.of(Member.storage("n1", "zone-a"), Member.storage("n2", "zone-b"),
                Member.storage("n3", "zone-c"), new Member("gw", "zone-a", 0));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members)) {
            String bucket = "counted";
            cluster.server("n1").s3().createBucket(b -> b.bucket(bucket));
            Map<String, Map<String, Double>> report = new java.util.TreeMap<>();
            for (String id : List.of("n1", "gw")) {
                DedicatedServer server = cluster.server(id);
                // Warm the node's caches of bucket settings and access keys, as any running node has;
                // the rounds that cost are left out below.
                put(server.s3(), bucket, id + "/warm", content(0, INLINE));
                assertReadable(server.s3(), bucket, id + "/warm");
                server.s3().headObject(h -> h.bucket(bucket).key(id + "/warm"));
                server.s3().listObjectsV2(l -> l.bucket(bucket).prefix(id + "/"));
                Map<String, double[]> warm = new java.util.HashMap<>();
                for (String operation : List.of("PutObject", "GetObject", "HeadObject", "ListObjectsV2")) {
                    for (String kind : List.of("metadata", "blocks")) {
                        String[] labels = {"operation=\"" + operation + "\"", "kind=\"" + kind + "\""};
                        warm.put(operation + kind, new double[] {server.metric("hangar_cluster_rounds_sum", labels),
                                server.metric("hangar_cluster_rounds_count", labels)});
                    }
                }
                int requests = 20;
                for (int i = 0; i < requests; i++) {
                    put(server.s3(), bucket, id + "/small-" + i, content(i, INLINE));
                    assertReadable(server.s3(), bucket, id + "/small-" + i);
                }
                for (int i = 0; i < 3; i++) {
                    put(server.s3(), bucket, id + "/large-" + i, content(i, LARGE));
                    // A PUT returns at the write quorum: until the last copy of each chunk lands, a read could
                    // ask that replica first and take a second round (it did once, 10 rounds for 9 chunks).
                    awaitBlocksOnOwners(cluster, bucket);
                    assertReadable(server.s3(), bucket, id + "/large-" + i);
                    server.s3().headObject(h -> h.bucket(bucket).key(id + "/large-0"));
                    server.s3().listObjectsV2(l -> l.bucket(bucket).prefix(id + "/"));
                }
                for (String operation : List.of("PutObject", "GetObject", "HeadObject", "ListObjectsV2")) {
                    for (String kind : List.of("metadata", "blocks")) {
                        String[] labels = {"operation=\"" + operation + "\"", "kind=\"" + kind + "\""};
                        double sum = server.metric("hangar_cluster_rounds_sum", labels) - warm.get(operation + kind)[0];
                        double count = server.metric("hangar_cluster_rounds_count", labels) - warm.get(operation + kind)[1];
                        report.computeIfAbsent(id + " " + operation, k -> new java.util.TreeMap<>())
                                .put(kind, count == 0 ? -1 : sum / count);
                    }
                }
            }
            System.out.println("rounds per request (mean): " + report);
            for (String id : List.of("n1", "gw")) {
                // One metadata round per read: bucket settings come from the node's cache. A small PUT writes
                // without reading first, then reads its bucket back (a deletion may have raced it): two.
                // A background refresh of the cache is no request's.
                for (String operation : List.of("PutObject", "GetObject", "HeadObject", "ListObjectsV2")) {
                    assertThat(report.get(id + " " + operation).get("metadata"))
                            .as("metadata rounds per %s on %s", operation, id)
                            .isEqualTo(operation.equals("PutObject") ? 2.0 : 1.0);
                }
            }
            // Blocks: a chunked object's 3 chunks are one write round each; reads are local on a replica
            // of every partition, one round per chunk on the gateway.
            // The replication policy counts the same commands by kind: on the gateway every PutVersion is a
            // write to replicas elsewhere, so each costs at least one round.
            DedicatedServer gateway = cluster.server("gw");
            double puts = gateway.metric("hangar_metadata_commands_total", "command=\"PutVersion\"", "mode=\"leaderless\"");
            assertThat(puts).as("PutVersion commands on gw").isGreaterThanOrEqualTo(24);
            assertThat(gateway.metric("hangar_metadata_command_rounds_total", "command=\"PutVersion\"",
                    "mode=\"leaderless\"")).as("their rounds").isGreaterThanOrEqualTo(puts);
            assertThat(report.get("n1 GetObject").get("blocks")).isZero();
            assertThat(report.get("gw GetObject").get("blocks") * 23).isCloseTo(9.0, org.assertj.core.data.Offset.offset(0.01));
            assertThat(report.get("gw PutObject").get("blocks") * 23).isCloseTo(9.0, org.assertj.core.data.Offset.offset(0.01));
        }
    }

    // One of each kind of S3 operation through every running node; what is written is remembered.
    private void exerciseEveryOperation(ServerCluster cluster, String bucket, String round) {
        for (String id : cluster.runningIds()) {
            S3Client s3 = cluster.server(id).s3();
            String prefix = round + "/" + id + "/";
            put(s3, bucket, prefix + "small", content((round + id).hashCode(), INLINE));
            put(s3, bucket, prefix + "large", content((round + id).hashCode() + 1, LARGE));
            assertReadable(s3, bucket, prefix + "small");
            assertReadable(s3, bucket, prefix + "large");
            assertThat(s3.headObject(h -> h.bucket(bucket).key(prefix + "large")).contentLength()).isEqualTo(LARGE);
            assertThat(s3.getObjectAsBytes(g -> g.bucket(bucket).key(prefix + "large").range("bytes=1048570-1048580"))
                    .asByteArray()).hasSize(11);

            s3.copyObject(c -> c.sourceBucket(bucket).sourceKey(prefix + "large")
                    .destinationBucket(bucket).destinationKey(prefix + "copy"));
            written.put(bucket + "/" + prefix + "copy", written.get(bucket + "/" + prefix + "large"));

            byte[] part1 = content((round + id).hashCode() + 2, 5 * 1024 * 1024);
            byte[] part2 = content((round + id).hashCode() + 3, 1000);
            String uploadId = s3.createMultipartUpload(m -> m.bucket(bucket).key(prefix + "multipart")).uploadId();
            String etag1 = s3.uploadPart(u -> u.bucket(bucket).key(prefix + "multipart").uploadId(uploadId).partNumber(1),
                    RequestBody.fromBytes(part1)).eTag();
            String etag2 = s3.uploadPart(u -> u.bucket(bucket).key(prefix + "multipart").uploadId(uploadId).partNumber(2),
                    RequestBody.fromBytes(part2)).eTag();
            assertThat(s3.listParts(l -> l.bucket(bucket).key(prefix + "multipart").uploadId(uploadId)).parts()).hasSize(2);
            s3.completeMultipartUpload(c -> c.bucket(bucket).key(prefix + "multipart").uploadId(uploadId)
                    .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag1).build(),
                            CompletedPart.builder().partNumber(2).eTag(etag2).build())));
            byte[] whole = new byte[part1.length + part2.length];
            System.arraycopy(part1, 0, whole, 0, part1.length);
            System.arraycopy(part2, 0, whole, part1.length, part2.length);
            written.put(bucket + "/" + prefix + "multipart", sha256(whole));
            assertReadable(s3, bucket, prefix + "multipart");

            put(s3, bucket, prefix + "doomed-1", content(7, INLINE));
            put(s3, bucket, prefix + "doomed-2", content(8, LARGE));
            s3.deleteObject(d -> d.bucket(bucket).key(prefix + "doomed-1"));
            s3.deleteObjects(d -> d.bucket(bucket).delete(Delete.builder()
                    .objects(ObjectIdentifier.builder().key(prefix + "doomed-2").build()).build()));
            written.remove(bucket + "/" + prefix + "doomed-1");
            written.remove(bucket + "/" + prefix + "doomed-2");

            List<String> listed = s3.listObjectsV2Paginator(l -> l.bucket(bucket).prefix(prefix)).contents()
                    .stream().map(S3Object::key).toList();
            assertThat(listed).containsExactly(prefix + "copy", prefix + "large", prefix + "multipart", prefix + "small");
            assertThat(s3.listBuckets().buckets()).extracting(b -> b.name()).contains(bucket);
        }
    }

    private void put(S3Client s3, String bucket, String key, byte[] data) {
        s3.putObject(p -> p.bucket(bucket).key(key), RequestBody.fromBytes(data));
        written.put(bucket + "/" + key, sha256(data));
    }

    private void assertReadable(S3Client s3, String bucket, String key) {
        String expected = written.get(bucket + "/" + key);
        assertThat(sha256(s3.getObjectAsBytes(g -> g.bucket(bucket).key(key)).asByteArray()))
                .as("SHA-256 of %s/%s", bucket, key).isEqualTo(expected);
    }

    /** Every acknowledged write, through every running node. */
    private void assertAllReadable(ServerCluster cluster, String bucket) {
        for (DedicatedServer server : cluster.servers()) {
            for (String name : written.keySet()) {
                if (name.startsWith(bucket + "/")) {
                    assertReadable(server.s3(), bucket, name.substring(bucket.length() + 1));
                }
            }
        }
    }

    /**
     * Waits until {@code id}'s own replica of the metadata table holds exactly what another replica of
     * the same partitions holds, partition by partition, read from both nodes' local tables.
     */
    private static void awaitReplicasInSync(ServerCluster cluster, String id) {
        NodeId self = new NodeId(id);
        ServerCluster.await(() -> {
            ClusterLayout layout = cluster.layout();
            LocalTable mine = replication(cluster.node(id)).localTable();
            for (int p = 0; p < layout.partitions(); p++) {
                List<NodeId> replicas = layout.replicas(p);
                if (!replicas.contains(self)) {
                    continue;
                }
                for (NodeId other : replicas) {
                    if (!other.equals(self) && cluster.runningIds().contains(other.value())) {
                        LocalTable theirs = replication(cluster.node(other.value())).localTable();
                        if (!entries(mine, p).equals(entries(theirs, p))) {
                            return false;
                        }
                    }
                }
            }
            return true;
        }, "the local table of " + id + " equal to its fellow replicas'");
    }

    /**
     * Waits until every block of every object has a copy on each node that owns its partition now,
     * read from each owner's own block store: the resync queue restored what a stopped node missed,
     * or a layout change moved.
     */
    private void awaitBlocksOnOwners(ServerCluster cluster, String bucket) {
        ServerCluster.await(() -> {
            ClusterNode any = cluster.node(cluster.runningIds().iterator().next());
            ClusterLayout layout = cluster.layout();
            Partitioning partitioning = Partitioning.of(layout);
            for (String name : written.keySet()) {
                String key = name.substring(bucket.length() + 1);
                ObjectVersion version = any.metadata().getObject(bucket, key).orElseThrow();
                if (!(version.content() instanceof ObjectContent.Blocks blocks)) {
                    continue;
                }
                for (BlockRef ref : blocks.blocks()) {
                    for (NodeId owner : layout.replicas(partitioning.partitionOfBlock(ref.id().value()))) {
                        BlockStore local = replication(cluster.node(owner.value())).localBlocks();
                        try {
                            if (!local.exists(ref.id())) {
                                return false;
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }
            }
            return true;
        }, "every block on each of its owners");
    }

    private static List<Entry> entries(LocalTable table, int partition) {
        List<Entry> entries = new ArrayList<>();
        table.forEachInPartition(partition, entries::add);
        return entries;
    }

    private static ReplicationView replication(ClusterNode node) {
        return node.replicas().orElseThrow();
    }

    private static int sizeOf(int i) {
        return i % 3 == 0 ? LARGE : i % 3 == 1 ? INLINE : 40_000;
    }

    private static byte[] content(long seed, int size) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
