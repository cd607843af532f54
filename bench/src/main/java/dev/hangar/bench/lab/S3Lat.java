package dev.hangar.bench.lab;

import dev.hangar.bench.load.OperationStats;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Garage's s3lat workload: one small request at a time, each round a ListBuckets, a ListObjectsV2 of the
 * lab's bucket, a PutObject of a new small key, a GetObject of it and a DeleteObject of it, through one
 * coordinator. The first rounds warm up and are not counted. Beside each operation's latencies, the
 * metadata rounds the coordinator itself counted for the measured requests ({@code hangar_cluster_rounds}).
 */
final class S3Lat {
    /** The operations in the order a round makes them, named as the nodes' metrics name them. */
    static final List<String> OPERATIONS = List.of("ListBuckets", "ListObjectsV2", "PutObject", "GetObject", "DeleteObject");
    private static final int OBJECT_BYTES = 64;

    /** One operation's figures in a run. */
    record Result(String operation, OperationStats latency, double roundsPerRequest) {}

    private S3Lat() {
    }

    static List<Result> run(S3Client s3, AdminClient coordinator, String bucket, int warmup, int rounds)
            throws IOException {
        Map<String, OperationStats> stats = new LinkedHashMap<>();
        OPERATIONS.forEach(operation -> stats.put(operation, new OperationStats(operation)));
        byte[] body = new byte[OBJECT_BYTES];
        for (int round = 0; round < warmup; round++) {
            round(s3, bucket, "s3lat/warmup-" + round, body, null);
        }
        Map<String, double[]> before = coordinator.metadataRounds();
        for (int round = 0; round < rounds; round++) {
            round(s3, bucket, "s3lat/" + round, body, stats);
        }
        Map<String, double[]> after = coordinator.metadataRounds();
        return OPERATIONS.stream().map(operation -> new Result(operation, stats.get(operation),
                perRequest(before.get(operation), after.get(operation)))).toList();
    }

    private static void round(S3Client s3, String bucket, String key, byte[] body, @Nullable Map<String, OperationStats> stats) {
        time(stats, "ListBuckets", () -> s3.listBuckets());
        time(stats, "ListObjectsV2", () -> s3.listObjectsV2(request -> request.bucket(bucket).maxKeys(100)));
        time(stats, "PutObject", () -> s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromBytes(body)));
        time(stats, "GetObject", () -> s3.getObjectAsBytes(request -> request.bucket(bucket).key(key)));
        time(stats, "DeleteObject", () -> s3.deleteObject(request -> request.bucket(bucket).key(key)));
    }

    private static void time(@Nullable Map<String, OperationStats> stats, String operation, Runnable request) {
        long started = System.nanoTime();
        try {
            request.run();
            if (stats != null) {
                stats.get(operation).successAfter(System.nanoTime() - started, 0);
            }
        } catch (RuntimeException e) {
            if (stats != null) {
                stats.get(operation).failure(e);
            }
        }
    }

    /** Rounds per request between two readings of {sum, count}; NaN if the node counted none. */
    static double perRequest(double @Nullable [] before, double @Nullable [] after) {
        if (after == null) {
            return Double.NaN;
        }
        double sum = after[0] - (before == null ? 0 : before[0]);
        double count = after[1] - (before == null ? 0 : before[1]);
        return count <= 0 ? Double.NaN : sum / count;
    }
}
