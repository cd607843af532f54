package dev.hangar.bench.load;

import java.io.PrintWriter;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * Streaming throughput of encrypted objects against plain ones in one run: PUTs then GETs of large
 * objects stored plain, with SSE-C (a random key per run) and with SSE-S3. The modes take turns in
 * rounds, one batch of {@code --concurrency} objects each, the first mode moving on by one every
 * round, so a drift of the machine's speed falls on every mode alike.
 */
@Command(name = "encryption", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"PUT and GET MiB/s of large objects plain, with SSE-C and with SSE-S3, and each mode's ratio to plain.",
        "The modes take turns in batches of --concurrency objects; GETs check every byte (length and CRC32C).",
        "A mode the endpoint answers with 501 is reported as not supported and does not stop the others."})
public final class EncryptionCommand extends LoadCommand {

    @Option(names = "--size", defaultValue = "64MiB", converter = ByteSize.class, description = "Object size (default: ${DEFAULT-VALUE}).")
    int size = 64 * 1024 * 1024;

    @Option(names = "--objects", defaultValue = "12", description = "Objects per mode, each written once and read once (default: ${DEFAULT-VALUE}).")
    int objects = 12;

    @Option(names = "--concurrency", defaultValue = "4", description = "Requests in flight at most, all of one mode (default: ${DEFAULT-VALUE}).")
    int concurrency = 4;

    @Option(names = "--modes", defaultValue = "plain,sse-c,sse-s3", converter = EncryptionMode.ListConverter.class,
        description = "Modes, comma-separated: plain, sse-c, sse-s3 (default: ${DEFAULT-VALUE}). Ratios need plain.")
    List<EncryptionMode> modes = List.of(EncryptionMode.PLAIN, EncryptionMode.SSE_C, EncryptionMode.SSE_S3);

    @Option(names = "--warmup", defaultValue = "1",
        description = "Objects per mode written and read first, untimed, so that no mode pays for a cold JIT (default: ${DEFAULT-VALUE}).")
    int warmup = 1;

    @Option(names = "--duration", defaultValue = "PT10M",
        description = "Time limit of the PUTs and, again, of the GETs: no batch starts after it, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration duration = Duration.ofMinutes(10);

    @Option(names = "--keep", description = "Keep the objects (default: delete them at the end, untimed).")
    boolean keep;

    @Override
    int concurrency() {
        return concurrency;
    }

    @Override
    void validate() {
        requirePositive("--objects", objects);
        requirePositive("--concurrency", concurrency);
        if (warmup < 0) {
            throw new picocli.CommandLine.ParameterException(spec().commandLine(), "--warmup cannot be negative, got " + warmup);
        }
    }

    @Override
    int run(S3AsyncClient client, PrintWriter out) throws Exception {
        header(out, String.format(Locale.ROOT, "size=%s objects=%d warmup=%d concurrency=%d modes=%s duration=%s", ByteSize.format(size),
            objects, warmup, concurrency, String.join(",", modes.stream().map(EncryptionMode::label).toList()), duration));
        out.printf(Locale.ROOT, "# client: makes and checks payloads at %.0f MiB/s on one thread (random bytes, CRC32C)%n",
            generatorMibPerSecond());
        out.flush();
        CustomerKey key = CustomerKey.random(new SecureRandom());
        List<ModeRun> warmups = new ArrayList<>();
        List<ModeRun> runs = new ArrayList<>();
        for (EncryptionMode mode : modes) {
            // Payload numbers differ between all objects of the run, so no two hold the same bytes.
            warmups.add(new ModeRun(mode, key, "warmup/", warmup, (long) objects * modes.size() + (long) warmups.size() * warmup));
            runs.add(new ModeRun(mode, key, "", objects, (long) objects * runs.size()));
        }
        List<OperationStats> counted = new ArrayList<>();
        try (ExecutorService bodies = Executors.newVirtualThreadPerTaskExecutor()) {
            if (warmup > 0) {
                inRounds(warmups, warmup, (run, from, to) -> run.putBatch(client, bodies, from, to));
                inRounds(warmups, warmup, (run, from, to) -> run.getBatch(client, from, to));
                for (int i = 0; i < warmups.size(); i++) {
                    ModeRun run = warmups.get(i);
                    counted.addAll(List.of(run.put, run.get, run.deleteAll(client)));
                    // A mode refused in the warm-up is not tried again.
                    runs.get(i).unsupported.set(run.unsupported.get());
                }
            }
            inRounds(runs, objects, (run, from, to) -> run.putBatch(client, bodies, from, to));
            inRounds(runs, objects, (run, from, to) -> run.getBatch(client, from, to));
        }
        for (ModeRun run : runs) {
            counted.addAll(List.of(run.put, run.get));
            if (!keep) {
                counted.add(run.deleteAll(client));
            }
        }

        List<EncryptionResult> results = runs.stream().map(ModeRun::result).toList();
        EncryptionReport report = new EncryptionReport(results);
        out.println();
        report.table().print(out);
        report.printUnsupported(out);
        writeCsv(report.csv(), out);
        out.flush();
        return exitCode(counted);
    }

    private static List<Double> boxed(double[] values) {
        return Arrays.stream(values).boxed().toList();
    }

    /** One batch of one mode: objects {@code [from, to)}. */
    @FunctionalInterface
    private interface Batch {
        void run(ModeRun run, int from, int to) throws InterruptedException;
    }

    /**
     * Round r runs one batch of each mode, starting with mode r (mod the count), until every
     * object is done or the time is up; a mode the endpoint refused is left out from then on.
     */
    private void inRounds(List<ModeRun> runs, int count, Batch batch) throws InterruptedException {
        Deadline deadline = Deadline.after(duration);
        int rounds = (count + concurrency - 1) / concurrency;
        for (int round = 0; round < rounds && !deadline.expired(); round++) {
            int from = round * concurrency;
            int to = Math.min(count, from + concurrency);
            for (int turn = 0; turn < runs.size() && !deadline.expired(); turn++) {
                ModeRun run = runs.get((round + turn) % runs.size());
                if (run.unsupported.get() == null) {
                    batch.run(run, from, to);
                }
            }
        }
    }

    /** How fast this client alone makes one object's payload and its CRC32C: what each request costs the client. */
    private double generatorMibPerSecond() {
        double best = 0;
        byte[] buffer = new byte[64 * 1024];
        for (int attempt = 0; attempt < 3; attempt++) {
            long start = System.nanoTime();
            RandomPayloadStream stream = new RandomPayloadStream(seed, -1 - attempt, size);
            while (stream.read(buffer, 0, buffer.length) >= 0) {
                // Reading is making; the CRC32C is computed on the way.
            }
            best = Math.max(best, EncryptionResult.mibPerSecond(size, System.nanoTime() - start));
        }
        return best;
    }

    /** The objects of one mode, what their requests did, and the CRC32C of each object written. */
    private final class ModeRun {

        private static final long NOT_WRITTEN = -1;

        final EncryptionMode mode;
        final OperationStats put;
        final OperationStats get;
        final AtomicReference<@Nullable String> unsupported = new AtomicReference<>();
        private final CustomerKey key;
        private final String folder;
        private final int count;
        private final long firstPayload;
        private final AtomicLongArray written;
        private long putNanos;
        private long getNanos;
        /** MiB/s of each round's batch, by round; NaN where the mode had no batch. */
        private final double[] putRounds;
        private final double[] getRounds;

        ModeRun(EncryptionMode mode, CustomerKey key, String folder, int count, long firstPayload) {
            this.mode = mode;
            this.key = key;
            this.folder = folder;
            this.count = count;
            this.firstPayload = firstPayload;
            this.put = new OperationStats(folder + mode.label() + " PUT");
            this.get = new OperationStats(folder + mode.label() + " GET");
            this.written = new AtomicLongArray(count);
            this.putRounds = new double[(count + concurrency - 1) / concurrency];
            this.getRounds = new double[putRounds.length];
            Arrays.fill(putRounds, Double.NaN);
            Arrays.fill(getRounds, Double.NaN);
            for (int i = 0; i < count; i++) {
                written.set(i, NOT_WRITTEN);
            }
        }

        String key(int index) {
            return keyPrefix() + folder + mode.label() + String.format(Locale.ROOT, "/obj-%06d", index);
        }

        void putBatch(S3AsyncClient client, ExecutorService bodies, int from, int to) throws InterruptedException {
            long bytesBefore = put.bytes();
            long start = System.nanoTime();
            BoundedLoad.run(to - from, concurrency, Deadline.after(Duration.ofDays(1)), i -> {
                int index = from + i;
                RandomBody body = new RandomBody(seed, firstPayload + index, size, bodies);
                PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(s3.bucket).key(key(index)).contentLength((long) size);
                switch (mode) {
                    case PLAIN -> {
                    }
                    case SSE_C -> request.sseCustomerAlgorithm(CustomerKey.ALGORITHM).sseCustomerKey(key.base64())
                        .sseCustomerKeyMD5(key.md5());
                    case SSE_S3 -> request.serverSideEncryption(ServerSideEncryption.AES256);
                }
                long requestStart = System.nanoTime();
                return client.putObject(request.build(), body).whenComplete((response, error) -> {
                    if (error != null) {
                        fail(put, error);
                        return;
                    }
                    String wrong = unconfirmed(response);
                    Optional<Long> crc = body.sentCrc32c();
                    if (wrong != null) {
                        put.failure(new IllegalStateException(wrong));
                    } else if (crc.isEmpty()) {
                        put.failure(new IllegalStateException("PUT succeeded before its body was read to the end"));
                    } else {
                        written.set(index, crc.get());
                        put.success(requestStart, size);
                    }
                });
            });
            long nanos = System.nanoTime() - start;
            putNanos += nanos;
            putRounds[from / concurrency] = EncryptionResult.mibPerSecond(put.bytes() - bytesBefore, nanos);
        }

        /** Why the PUT's answer does not show the mode asked for, or null if it does. */
        private @Nullable String unconfirmed(PutObjectResponse response) {
            return switch (mode) {
                case PLAIN -> null;
                case SSE_C -> CustomerKey.ALGORITHM.equals(response.sseCustomerAlgorithm()) && key.md5().equals(response.sseCustomerKeyMD5())
                    ? null : "the endpoint did not confirm SSE-C (x-amz-server-side-encryption-customer-algorithm: "
                    + response.sseCustomerAlgorithm() + ")";
                case SSE_S3 -> response.serverSideEncryption() == ServerSideEncryption.AES256 ? null
                    : "the endpoint did not confirm SSE-S3 (x-amz-server-side-encryption: " + response.serverSideEncryptionAsString() + ")";
            };
        }

        void getBatch(S3AsyncClient client, int from, int to) throws InterruptedException {
            long bytesBefore = get.bytes();
            long start = System.nanoTime();
            BoundedLoad.run(to - from, concurrency, Deadline.after(Duration.ofDays(1)), i -> {
                int index = from + i;
                long expected = written.get(index);
                if (expected == NOT_WRITTEN) {
                    return CompletableFuture.completedFuture(null);
                }
                GetObjectRequest.Builder request = GetObjectRequest.builder().bucket(s3.bucket).key(key(index));
                if (mode == EncryptionMode.SSE_C) {
                    request.sseCustomerAlgorithm(CustomerKey.ALGORITHM).sseCustomerKey(key.base64()).sseCustomerKeyMD5(key.md5());
                }
                long requestStart = System.nanoTime();
                return client.getObject(request.build(), new CheckedGet()).whenComplete((result, error) -> {
                    if (error != null) {
                        fail(get, error);
                    } else if (result.bytes() != size) {
                        get.failure(new IllegalStateException("GET of " + key(index) + " returned " + result.bytes() + " bytes, expected " + size));
                    } else if (result.crc32c() != expected) {
                        get.failure(new IllegalStateException("GET of " + key(index) + " returned other bytes than were put (CRC32C)"));
                    } else {
                        get.success(requestStart, size);
                    }
                });
            });
            long nanos = System.nanoTime() - start;
            getNanos += nanos;
            getRounds[from / concurrency] = EncryptionResult.mibPerSecond(get.bytes() - bytesBefore, nanos);
        }

        /** A 501 marks the mode as not supported by the endpoint; any other failure is a failed request. */
        private void fail(OperationStats stats, Throwable error) {
            if (OperationStats.unwrap(error) instanceof S3Exception s3Error && s3Error.statusCode() == 501) {
                String code = s3Error.awsErrorDetails() == null ? "" : s3Error.awsErrorDetails().errorCode();
                unsupported.compareAndSet(null, "HTTP 501 " + code);
            } else {
                stats.failure(error);
            }
        }

        OperationStats deleteAll(S3AsyncClient client) throws InterruptedException {
            OperationStats delete = new OperationStats(folder + mode.label() + " DELETE");
            BoundedLoad.run(count, concurrency, Deadline.after(duration), index -> {
                if (written.get(index) == NOT_WRITTEN) {
                    return CompletableFuture.completedFuture(null);
                }
                long start = System.nanoTime();
                return client.deleteObject(request -> request.bucket(s3.bucket).key(key(index))).whenComplete((response, error) -> {
                    if (error == null) {
                        delete.success(start, 0);
                    } else {
                        delete.failure(error);
                    }
                });
            });
            return delete;
        }

        EncryptionResult result() {
            return new EncryptionResult(mode, put.count(), get.count(), put.errors() + get.errors(), put.bytes(), putNanos, get.bytes(),
                getNanos, put.percentileMillis(50), get.percentileMillis(50), boxed(putRounds), boxed(getRounds), unsupported.get());
        }
    }
}
