package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.distribution.ServerCluster.Member;
import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
import software.amazon.awssdk.services.s3.presigner.model.PresignedGetObjectRequest;

/**
 * Reads through one node keep what they read against another node's reclamation (issue 12): on a
 * three-node cluster with no garbage grace, readers GET a multi-chunk object through n1 (presigned URLs, read
 * slowly on sockets with small buffers: a GET takes about three seconds), while the key is overwritten and now and then deleted through n2, which frees the chunks
 * of every version it replaces right away unless a node's reads hold them. Every GET must be a whole version
 * that was written, or 404 after a delete: never a short body, never an error. Once the race ends and the key
 * is deleted, n2 frees every chunk it queued, on every replica: what the readers held was deferred, not kept.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClusterReaderLeaseIT {
    private static final String ACCESS_KEY = "HANGARCLUSTERLEASE01";
    private static final String SECRET_KEY = "hangar-cluster-lease-secret-0123456789ab";
    private static final int MIB = 1024 * 1024;
    /** Five full chunks and a packed tail. */
    private static final int SIZE = 5 * MIB + 300_000;
    private static final int READERS = 4;
    private static final Duration RACE = Duration.ofSeconds(20);
    /** A reader takes this much of the body, then pauses: about three seconds per GET. */
    private static final int READ_STEP = 64 * 1024;
    private static final long PAUSE_MILLIS = 40;
    /** The readers' socket receive buffer. */
    private static final int SOCKET_BUFFER = 16 * 1024;

    @TempDir
    Path dir;

    private final Set<String> written = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();

    @Test
    void slowGetsThroughOneNodeAreWholeWhileAnotherNodeOverwritesAndDeletes() throws Exception {
        List<Member> members = List.of(Member.storage("n1", "zone-a"), Member.storage("n2", "zone-b"),
                Member.storage("n3", "zone-c"));
        try (ServerCluster cluster = ServerCluster.start(dir, ACCESS_KEY, SECRET_KEY, members,
                "cluster.garbage-grace=0s", "storage.reclaim-interval=1s")) {
            DedicatedServer readerNode = cluster.server("n1");
            S3Client writerNode = cluster.server("n2").s3();
            String bucket = "leased";
            String key = "raced";
            writerNode.createBucket(request -> request.bucket(bucket));
            AtomicLong seeds = new AtomicLong(7_000);
            put(writerNode, bucket, key, RandomContent.of(seeds.incrementAndGet(), SIZE));

            AtomicBoolean racing = new AtomicBoolean(true);
            AtomicLong gets = new AtomicLong();
            List<Thread> readers = new ArrayList<>();
            S3Presigner presigner = S3Clients.presigner(URI.create("http://localhost:" + readerNode.port()),
                    ACCESS_KEY, SECRET_KEY);
            for (int r = 0; r < READERS; r++) {
                readers.add(Thread.ofPlatform().name("reader-" + r).start(() -> {
                    while (racing.get()) {
                        readSlowly(presigner, readerNode.port(), bucket, key);
                        gets.incrementAndGet();
                    }
                }));
            }
            long started = System.nanoTime();
            int writes = 0;
            try {
                while (System.nanoTime() - started < RACE.toNanos()) {
                    if (++writes % 4 == 0) {
                        writerNode.deleteObject(request -> request.bucket(bucket).key(key));
                    } else {
                        put(writerNode, bucket, key, RandomContent.of(seeds.incrementAndGet(), SIZE));
                    }
                }
            } finally {
                racing.set(false);
                for (Thread reader : readers) {
                    reader.join(Duration.ofSeconds(60));
                }
                presigner.close();
            }

            System.out.printf("ClusterReaderLeaseIT: %d writes through n2, %d GETs through n1, outcomes %s%n", writes,
                    gets.get(), new TreeMap<>(outcomes));
            assertThat(failures).as("GETs through n1 that were neither a whole version nor a 404").isEmpty();
            assertThat(outcomes.get("whole version")).as("whole versions read").isNotNull();
            assertThat(writes).isGreaterThan(READERS);

            // What the readers held was deferred, not kept: n2's queue empties, and every chunk it freed is gone
            // from every replica. (A chunk may be left on one node alone: with no grace, a version can be freed
            // before the last of its copies, sent after the write quorum answered, has landed; that one copy is an
            // orphan, as ReplicatedBlockStore says.)
            writerNode.deleteObject(request -> request.bucket(bucket).key(key));
            ServerCluster.await(() -> cluster.node("n2").metadata().pendingGarbage(1000).isEmpty(),
                    "n2's queue of chunks to free empty once nothing reads them");
            Map<BlockId, List<String>> copies = new HashMap<>();
            for (String id : cluster.runningIds()) {
                storedBlocks(cluster, id).forEach(block -> copies.computeIfAbsent(block, any -> new ArrayList<>()).add(id));
            }
            System.out.printf("ClusterReaderLeaseIT: chunks left after the delete: %s%n", copies);
            assertThat(copies.values()).as("chunks still stored on more than one node").allMatch(nodes -> nodes.size() <= 1);
        }
    }

    private void put(S3Client s3, String bucket, String key, RandomContent content) {
        // Known before the PUT starts: a reader may see the version as soon as it commits.
        written.add(content.sha256Hex());
        s3.putObject(request -> request.bucket(bucket).key(key), content.requestBody());
    }

    /**
     * One GET through a presigned URL, on a socket with a small receive buffer, taking {@link #READ_STEP} bytes
     * at a time with a pause after each: the server can run only a little ahead of the client, so its GET
     * really lasts as long as the client takes (an SDK client's socket buffers would take most of the body at
     * once and leave the server with nothing to read late).
     */
    private void readSlowly(S3Presigner presigner, int port, String bucket, String key) {
        PresignedGetObjectRequest presigned = presigner.presignGetObject(request -> request
                .signatureDuration(Duration.ofMinutes(10))
                .getObjectRequest(get -> get.bucket(bucket).key(key)));
        StringBuilder head = new StringBuilder("GET " + presigned.url().getFile() + " HTTP/1.1\r\n");
        presigned.signedHeaders().forEach((name, values) ->
                head.append(name).append(": ").append(String.join(",", values)).append("\r\n"));
        head.append("Connection: close\r\n\r\n");
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(SOCKET_BUFFER);
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            int status = readHead(in, headers);
            if (status == 404) {
                String error = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                if (error.contains("<Code>NoSuchKey</Code>")) {
                    count("404 after a delete");
                } else {
                    failures.add("404 " + error);
                }
                return;
            }
            if (status != 200) {
                failures.add(status + " " + new String(in.readAllBytes(), StandardCharsets.UTF_8));
                return;
            }
            long declared = Long.parseLong(headers.get("Content-Length"));
            MessageDigest sha256 = Digests.sha256();
            long length = read(in, sha256);
            String digest = Digests.hex(sha256.digest());
            if (length != declared) {
                failures.add(length + " bytes of a declared " + declared);
            } else if (!written.contains(digest)) {
                failures.add(declared + " bytes that are no version written");
            } else {
                count("whole version");
            }
        } catch (RuntimeException | IOException e) {
            failures.add(String.valueOf(e));
        }
    }

    /** Reads the status line and headers; returns the status. */
    private static int readHead(InputStream in, Map<String, String> headers) throws IOException {
        StringBuilder line = new StringBuilder();
        List<String> lines = new ArrayList<>();
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n') {
                String text = line.toString().strip();
                if (text.isEmpty()) {
                    break;
                }
                lines.add(text);
                line.setLength(0);
            } else {
                line.append((char) b);
            }
        }
        if (lines.isEmpty()) {
            throw new IOException("no answer");
        }
        for (String header : lines.subList(1, lines.size())) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).strip(), header.substring(colon + 1).strip());
        }
        return Integer.parseInt(lines.getFirst().split(" ")[1]);
    }

    /** Reads the body to its end a step at a time, pausing after each: a client on a slow link. */
    private static long read(InputStream in, MessageDigest digest) throws IOException {
        byte[] buffer = new byte[READ_STEP];
        long total = 0;
        while (true) {
            int got = in.readNBytes(buffer, 0, buffer.length);
            if (got == 0) {
                return total;
            }
            digest.update(buffer, 0, got);
            total += got;
            try {
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, any -> new AtomicLong()).incrementAndGet();
    }

    private static List<BlockId> storedBlocks(ServerCluster cluster, String id) {
        BlockStore local = cluster.node(id).replicas().orElseThrow().localBlocks();
        List<BlockId> stored = new ArrayList<>();
        try {
            local.forEachBlock(block -> stored.add(block.id()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return stored;
    }
}
