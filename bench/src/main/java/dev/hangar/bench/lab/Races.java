package dev.hangar.bench.lab;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What each policy buys, next to what it costs: races through different nodes at once, one request per
 * node, released together by a barrier.
 *
 * <ul>
 *   <li><b>Conditional writes</b>: every node PUTs a new key with {@code If-None-Match: *}. Exactly one may
 *       win; the others must answer 412. Counted: winners per race.
 *   <li><b>Versioned writes</b>: in a versioning-enabled bucket, every node PUTs the same key. Each
 *       acknowledged PUT made a version; counted: acknowledged versions missing from ListObjectVersions.
 * </ul>
 */
final class Races {
    /** The figures of {@code races} races through {@code nodes} nodes each. */
    record Result(int races, int nodes, int conditionalWinners, int racesWithSeveralWinners, int conditionalErrors,
            int versionsAcknowledged, int versionsLost, int versionErrors) {}

    private Races() {
    }

    static Result run(LabCluster cluster, String bucket, String versionedBucket, int races) throws InterruptedException {
        List<String> nodes = cluster.ids();
        List<S3Client> clients = nodes.stream().map(cluster::s3).toList();
        clients.getFirst().putBucketVersioning(request -> request.bucket(versionedBucket)
                .versioningConfiguration(configuration -> configuration.status(BucketVersioningStatus.ENABLED)));
        int winners = 0;
        int several = 0;
        int conditionalErrors = 0;
        int acknowledged = 0;
        int lost = 0;
        int versionErrors = 0;
        for (int race = 0; race < races; race++) {
            String key = "race/" + race;
            Outcomes conditional = race(clients, s3 -> s3.putObject(request -> request.bucket(bucket).key(key)
                    .ifNoneMatch("*"), RequestBody.fromString("conditional")).eTag());
            winners += conditional.ok.size();
            several += conditional.ok.size() > 1 ? 1 : 0;
            conditionalErrors += conditional.errors.get();
            Outcomes versioned = race(clients, s3 -> s3.putObject(request -> request.bucket(versionedBucket).key(key),
                    RequestBody.fromString("versioned")).versionId());
            acknowledged += versioned.ok.size();
            versionErrors += versioned.errors.get();
            Set<String> listed = new HashSet<>();
            clients.getFirst().listObjectVersionsPaginator(request -> request.bucket(versionedBucket).prefix(key))
                    .versions().stream().filter(version -> version.key().equals(key)).map(ObjectVersion::versionId)
                    .forEach(listed::add);
            for (String versionId : versioned.ok) {
                lost += listed.contains(versionId) ? 0 : 1;
            }
        }
        return new Result(races, nodes.size(), winners, several, conditionalErrors, acknowledged, lost, versionErrors);
    }

    /**
     * What the requests of one race answered: what each that succeeded returned (a version id, or "" where
     * none matters), and the failures (412 is neither).
     */
    private record Outcomes(List<String> ok, AtomicInteger errors) {}

    private static Outcomes race(List<S3Client> clients, Function<S3Client, String> request) throws InterruptedException {
        CyclicBarrier start = new CyclicBarrier(clients.size());
        Outcomes outcomes = new Outcomes(new ArrayList<>(), new AtomicInteger());
        List<Thread> threads = new ArrayList<>();
        for (S3Client s3 : clients) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await(1, TimeUnit.MINUTES);
                    String value = request.apply(s3);
                    synchronized (outcomes) {
                        outcomes.ok.add(value == null ? "" : value);
                    }
                } catch (S3Exception e) {
                    if (e.statusCode() != 412) {
                        outcomes.errors.incrementAndGet();
                    }
                } catch (RuntimeException | BrokenBarrierException | TimeoutException e) {
                    outcomes.errors.incrementAndGet();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return outcomes;
    }
}
