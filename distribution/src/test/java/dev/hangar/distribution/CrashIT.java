package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.PackagedServer;
import dev.hangar.distribution.support.RandomContent;
import dev.hangar.distribution.support.S3Clients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Issue 2: a crash at any instant never leaves a visible object whose chunks are missing or partial,
 * and with the default {@code hangar.storage.sync=always} every acknowledged write survives it.
 *
 * <p>Three rounds on the same data folder. In each, the packaged jar runs as a child process while
 * six writers PUT new keys (inline, packed and unpacked sizes), overwrite and delete earlier ones; a random
 * 0.5 to 2.5 s after the first acknowledged write the server is killed with SIGKILL mid-traffic. It
 * is restarted on the same folder and every key is checked: a listed key must read back whole
 * (length and SHA-256 of the content its key and generation determine), every acknowledged write
 * must be there and every acknowledged delete must have stuck. A write in flight at the crash may
 * or may not have landed, but if it landed it must be whole. The folder is checked again after each
 * graceful restart, so damage done by the reclamation pass that runs at start-up is caught too.
 *
 * <p>The writers use {@link S3Clients#sync}: the SDK's default integrity checksums, and no retries,
 * so that a server error before the kill surfaces instead of hiding behind a second attempt.
 *
 * <p>{@code -Dhangar.crash.seed=...} replays a seed (the kill delays and the writers' choices; the
 * interleaving itself is up to the scheduler).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CrashIT {

    private static final int ROUNDS = 3;
    private static final int WRITERS = 6;
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    /**
     * Inline (up to the 3 KiB threshold), packed (one chunk under 1 MiB, appended to a segment file)
     * and unpacked (full 1 MiB chunks get a file each, their short last chunk is packed) sizes.
     */
    private static final long[] SIZES = {100, 3 * KIB, 3 * KIB + 1, 16 * KIB, 300 * KIB, MIB + 1, 5 * MIB / 2};
    private static final String BUCKET = "crash";
    private static final String ACCESS_KEY = "HANGARCRASHTESTKEY01";
    private static final String SECRET_KEY = "hangar-crash-secret-0123456789abcdefghijk";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    /** What the test knows about one key. Only its writer changes it while writers run. */
    private static final class KeyModel {
        final String key;
        final int writer;
        final int index;
        /** The next generation a PUT of this key uses; generations are never reused. */
        int nextGeneration = 1;
        /** The generation the last acknowledged operation left, or 0 for none (never put, or deleted). */
        int acknowledged;
        /** Whether an operation was sent and not acknowledged: the crash decides its fate. */
        boolean inFlight;
        /** The generation the in-flight PUT carries, or 0 for an in-flight DELETE. */
        int inFlightGeneration;

        KeyModel(String key, int writer, int index) {
            this.key = key;
            this.writer = writer;
            this.index = index;
        }
    }

    private final Map<String, KeyModel> keys = new ConcurrentHashMap<>();
    private final List<List<KeyModel>> keysByWriter = new ArrayList<>();
    private final Map<String, String> expectedDigests = new ConcurrentHashMap<>();
    private final List<Server> started = Collections.synchronizedList(new ArrayList<>());

    @Test
    void acknowledgedWritesSurviveSigkillAndNoVisibleObjectIsPartial() throws Exception {
        long seed = Long.getLong("hangar.crash.seed", System.nanoTime());
        System.out.println("CrashIT seed " + seed + " (replay with -Dhangar.crash.seed=" + seed + ")");
        Random random = new Random(seed);

        Path work = Files.createDirectories(Path.of("target", "crash-it").toAbsolutePath());
        Path dataDir = Files.createTempDirectory(work, "data-");
        for (int writer = 0; writer < WRITERS; writer++) {
            keysByWriter.add(new ArrayList<>());
        }
        // If the test JVM itself is stopped (failsafe timeout, Ctrl-C), no server outlives it.
        Thread reaper = new Thread(() -> {
            synchronized (started) {
                started.forEach(server -> server.packaged.close());
            }
        }, "crash-it-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        boolean passed = false;
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                runRound(round, random.nextLong(), 500 + random.nextInt(2001), dataDir);
            }
            // One more graceful start: the state the last crash recovery left must hold as it is.
            try (Server server = start(dataDir, "final")) {
                Verification check = verify(server, "after a graceful restart, before the end");
                check.assertClean(server, null);
                System.out.printf("CrashIT final: listed keys %d, verified bytes %d%n", check.listed, check.verifiedBytes);
                server.stop();
            }
            passed = true;
        } finally {
            synchronized (started) {
                for (Server server : started) {
                    server.close();
                }
            }
            Runtime.getRuntime().removeShutdownHook(reaper);
            if (passed) {
                PackagedServer.deleteRecursively(dataDir);
            } else {
                System.out.println("CrashIT kept the data folder for inspection: " + dataDir);
            }
        }
    }

    /** Start, write until SIGKILL, restart, verify, stop. */
    private void runRound(int round, long roundSeed, int killDelayMillis, Path dataDir) throws Exception {
        Instant roundStart = Instant.now();
        Server writing = start(dataDir, "round" + round + "-writes");
        if (round == 1) {
            writing.s3.createBucket(request -> request.bucket(BUCKET));
        } else {
            // The previous round ended with a graceful stop; what it verified must still be there.
            Verification again = verify(writing, "round " + round + " start, after a graceful restart");
            again.assertClean(writing, null);
        }

        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean killed = new AtomicBoolean();
        AtomicInteger puts = new AtomicInteger();
        AtomicInteger deletes = new AtomicInteger();
        AtomicLong putBytes = new AtomicLong();
        List<String> failuresBeforeKill = Collections.synchronizedList(new ArrayList<>());
        ExecutorService executor = Executors.newFixedThreadPool(WRITERS, runnable -> {
            Thread thread = new Thread(runnable, "crash-writer");
            thread.setDaemon(true);
            return thread;
        });
        List<Future<?>> writers = new ArrayList<>();
        try {
            for (int writer = 0; writer < WRITERS; writer++) {
                int id = writer;
                Random choices = new Random(roundSeed + writer);
                writers.add(executor.submit(() -> write(round, id, choices, writing.s3, stop, killed,
                    puts, deletes, putBytes, failuresBeforeKill)));
            }

            // The delay runs from the first acknowledged write, so that a slow start never leaves a
            // round without traffic to interrupt.
            Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
            while (puts.get() + deletes.get() == 0 && failuresBeforeKill.isEmpty() && Instant.now().isBefore(deadline)) {
                Thread.sleep(10);
            }
            Thread.sleep(killDelayMillis);
            killed.set(true);
            writing.kill();
            stop.set(true);
            for (Future<?> writer : writers) {
                try {
                    writer.get(60, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("a writer did not stop within 60 s of the kill", e);
                } catch (ExecutionException e) {
                    throw new AssertionError("a writer failed outside a request", e.getCause());
                }
            }
        } finally {
            executor.shutdownNow();
            stop.set(true);
        }
        writing.closeClient();
        int inFlight = (int) keys.values().stream().filter(model -> model.inFlight).count();

        Server recovered = start(dataDir, "round" + round + "-recovery");
        Verification check = verify(recovered, "round " + round + ", after SIGKILL");
        if (!failuresBeforeKill.isEmpty()) {
            check.violations.addAll(0, failuresBeforeKill.stream().map(failure -> "request failed before the kill: " + failure).toList());
        }
        check.assertClean(recovered, writing);
        recovered.stop();

        System.out.printf("CrashIT round %d: killed %d ms after the first acknowledged write; acknowledged puts %d (%d bytes), deletes %d; "
                + "in flight at the kill %d (landed: %d puts, %d deletes); listed keys %d; verified bytes %d; %d s%n",
            round, killDelayMillis, puts.get(), putBytes.get(), deletes.get(), inFlight, check.inFlightPutsLanded,
            check.inFlightDeletesLanded, check.listed, check.verifiedBytes,
            Duration.between(roundStart, Instant.now()).toSeconds());
        assertThat(puts.get()).as("acknowledged puts in round " + round).isPositive();
    }

    /** One writer: new keys, overwrites and deletes of its own earlier keys, one request at a time. */
    private void write(int round, int writer, Random choices, S3Client s3, AtomicBoolean stop, AtomicBoolean killed,
                       AtomicInteger puts, AtomicInteger deletes, AtomicLong putBytes, List<String> failuresBeforeKill) {
        List<KeyModel> mine = keysByWriter.get(writer);
        int created = 0;
        while (!stop.get()) {
            int dice = choices.nextInt(100);
            KeyModel model;
            boolean delete = false;
            if (dice < 20 && !mine.isEmpty()) {
                model = mine.get(choices.nextInt(mine.size()));
                delete = dice < 7;
            } else {
                int index = created++;
                model = new KeyModel("r" + round + "/w" + writer + "/" + index, writer, index);
                keys.put(model.key, model);
                mine.add(model);
            }
            KeyModel target = model;
            String operation;
            try {
                if (delete) {
                    operation = "DELETE " + target.key;
                    target.inFlight = true;
                    target.inFlightGeneration = 0;
                    s3.deleteObject(request -> request.bucket(BUCKET).key(target.key));
                    target.acknowledged = 0;
                    target.inFlight = false;
                    deletes.incrementAndGet();
                } else {
                    int generation = target.nextGeneration++;
                    RandomContent content = content(target, generation);
                    operation = "PUT " + target.key + " generation " + generation + " (" + content.size() + " bytes)";
                    target.inFlight = true;
                    target.inFlightGeneration = generation;
                    s3.putObject(request -> request.bucket(BUCKET).key(target.key), content.requestBody());
                    target.acknowledged = generation;
                    target.inFlight = false;
                    puts.incrementAndGet();
                    putBytes.addAndGet(content.size());
                }
            } catch (RuntimeException e) {
                // After the kill every request fails; before it, none should. Either way the outcome of
                // this one is unknown, so the key stays in flight and the writer stops.
                if (!killed.get()) {
                    failuresBeforeKill.add((delete ? "DELETE " : "PUT ") + target.key + ": " + e);
                }
                return;
            }
        }
    }

    /** The bytes of a key's generation: derived from the key and the generation alone. */
    private static RandomContent content(KeyModel model, int generation) {
        long size = SIZES[Math.floorMod(model.index + model.writer + generation - 1, SIZES.length)];
        long seed = mix(model.key.hashCode() * 0x9E3779B97F4A7C15L + generation);
        return RandomContent.of(seed, size);
    }

    private String expectedDigest(KeyModel model, int generation) {
        return expectedDigests.computeIfAbsent(model.key + "#" + generation, ignored -> content(model, generation).sha256Hex());
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static final class Verification {
        final String when;
        final List<String> violations = new ArrayList<>();
        int listed;
        long verifiedBytes;
        int inFlightPutsLanded;
        int inFlightDeletesLanded;

        Verification(String when) {
            this.when = when;
        }

        void assertClean(Server server, Server crashed) {
            if (violations.isEmpty()) {
                return;
            }
            StringBuilder message = new StringBuilder(violations.size() + " violation(s) " + when + ":\n");
            violations.stream().limit(100).forEach(violation -> message.append("  ").append(violation).append('\n'));
            if (crashed != null) {
                message.append(crashed.outputTail(120)).append('\n');
            }
            message.append(server.outputTail(120));
            throw new AssertionError(message.toString());
        }
    }

    /**
     * Checks the server against the model, then settles the model: an in-flight operation becomes
     * whatever the server shows, when that is one of the two allowed outcomes.
     */
    private Verification verify(Server server, String when) {
        Verification check = new Verification(when);
        S3Client s3 = server.s3;
        Map<String, S3Object> listing = new TreeMap<>();
        s3.listObjectsV2Paginator(request -> request.bucket(BUCKET)).contents()
            .forEach(object -> listing.put(object.key(), object));
        check.listed = listing.size();

        Map<KeyModel, Integer> settled = new LinkedHashMap<>();
        for (S3Object object : listing.values()) {
            KeyModel model = keys.get(object.key());
            if (model == null) {
                check.violations.add("listed key " + object.key() + " (" + object.size() + " bytes) was never written");
                continue;
            }
            List<Integer> allowed = new ArrayList<>();
            if (model.acknowledged > 0) {
                allowed.add(model.acknowledged);
            }
            if (model.inFlight && model.inFlightGeneration > 0) {
                allowed.add(model.inFlightGeneration);
            }
            String expectation = describe(model);
            if (allowed.isEmpty()) {
                check.violations.add("listed key " + object.key() + " (" + object.size() + " bytes) should be absent: " + expectation);
                continue;
            }
            Long headSize;
            try {
                headSize = s3.headObject(request -> request.bucket(BUCKET).key(model.key)).contentLength();
            } catch (RuntimeException e) {
                check.violations.add("listed key " + model.key + " (" + object.size() + " bytes): HEAD failed: " + e + "; " + expectation);
                continue;
            }
            Digests.Summary read;
            try (ResponseInputStream<GetObjectResponse> stream = s3.getObject(request -> request.bucket(BUCKET).key(model.key))) {
                read = Digests.summarize(stream);
            } catch (RuntimeException | IOException e) {
                check.violations.add("listed key " + model.key + " (" + object.size() + " bytes, HEAD " + headSize
                    + "): GET failed: " + e + "; " + expectation);
                continue;
            }
            Integer match = null;
            for (int generation : allowed) {
                RandomContent content = content(model, generation);
                if (read.length() == content.size() && read.sha256Hex().equals(expectedDigest(model, generation))) {
                    match = generation;
                }
            }
            if (match == null) {
                check.violations.add("listed key " + model.key + ": read " + read.length() + " bytes sha256 " + read.sha256Hex()
                    + " (listed " + object.size() + ", HEAD " + headSize + "), matching no allowed content: " + expectation);
                continue;
            }
            long size = content(model, match).size();
            if (object.size() != size || headSize != size) {
                check.violations.add("listed key " + model.key + ": content is generation " + match + " (" + size
                    + " bytes) but the listing says " + object.size() + " and HEAD " + headSize);
                continue;
            }
            check.verifiedBytes += read.length();
            settled.put(model, match);
        }

        for (KeyModel model : keys.values()) {
            if (listing.containsKey(model.key)) {
                continue;
            }
            boolean mayBeAbsent = model.acknowledged == 0 || (model.inFlight && model.inFlightGeneration == 0);
            if (!mayBeAbsent) {
                check.violations.add("acknowledged write lost: " + model.key + " is not listed; " + describe(model));
                continue;
            }
            // Not listed: it must not be readable either.
            try {
                long size = s3.headObject(request -> request.bucket(BUCKET).key(model.key)).contentLength();
                check.violations.add("key " + model.key + " is not listed but HEAD finds " + size + " bytes; " + describe(model));
                continue;
            } catch (NoSuchKeyException expected) {
                // absent, as listed
            } catch (S3Exception e) {
                if (e.statusCode() != 404) {
                    check.violations.add("key " + model.key + " is not listed and HEAD fails: " + e + "; " + describe(model));
                    continue;
                }
            }
            settled.put(model, 0);
        }

        if (check.violations.isEmpty()) {
            settled.forEach((model, generation) -> {
                if (model.inFlight) {
                    if (model.inFlightGeneration > 0 && generation == model.inFlightGeneration) {
                        check.inFlightPutsLanded++;
                    } else if (model.inFlightGeneration == 0 && generation == 0 && model.acknowledged > 0) {
                        check.inFlightDeletesLanded++;
                    }
                }
                model.acknowledged = generation;
                model.inFlight = false;
                model.inFlightGeneration = 0;
            });
        }
        return check;
    }

    private String describe(KeyModel model) {
        StringBuilder text = new StringBuilder("expected ");
        if (model.acknowledged > 0) {
            text.append("acknowledged generation ").append(model.acknowledged)
                .append(" (").append(content(model, model.acknowledged).size()).append(" bytes, sha256 ")
                .append(expectedDigest(model, model.acknowledged)).append(')');
        } else {
            text.append("absent (never acknowledged, or deleted)");
        }
        if (model.inFlight) {
            if (model.inFlightGeneration > 0) {
                text.append(", or in-flight generation ").append(model.inFlightGeneration)
                    .append(" (").append(content(model, model.inFlightGeneration).size()).append(" bytes, sha256 ")
                    .append(expectedDigest(model, model.inFlightGeneration)).append(')');
            } else {
                text.append(", or absent (in-flight delete)");
            }
        }
        return text.toString();
    }

    private Server start(Path dataDir, String name) throws IOException, InterruptedException {
        PackagedServer packaged = PackagedServer.start(dataDir, "256m",
            Map.of("HANGAR_ROOT_ACCESS_KEY", ACCESS_KEY, "HANGAR_ROOT_SECRET_KEY", SECRET_KEY), name);
        Server server = new Server(packaged);
        started.add(server);
        server.s3 = S3Clients.sync(packaged.endpoint(), ACCESS_KEY, SECRET_KEY);
        return server;
    }

    /** One run of the packaged jar, and the client pointed at it. */
    private static final class Server implements AutoCloseable {
        final PackagedServer packaged;
        S3Client s3;

        Server(PackagedServer packaged) {
            this.packaged = packaged;
        }

        /** SIGKILL on Linux: no shutdown hook, no flush, no close. */
        void kill() throws InterruptedException {
            packaged.kill();
        }

        void closeClient() {
            if (s3 != null) {
                S3Client client = s3;
                s3 = null;
                client.close();
            }
        }

        /** SIGTERM, as an operator stops it; SIGKILL if it does not exit within 30 s. */
        void stop() throws InterruptedException {
            closeClient();
            packaged.stop();
        }

        @Override
        public void close() {
            try {
                closeClient();
            } finally {
                packaged.close();
            }
        }

        String outputTail(int count) {
            return packaged.logTail(count);
        }
    }
}
