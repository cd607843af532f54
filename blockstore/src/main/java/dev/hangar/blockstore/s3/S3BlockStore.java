package dev.hangar.blockstore.s3;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.BlockStore;
import dev.hangar.blockstore.BlockStores;
import dev.hangar.blockstore.NoSuchBlockException;
import java.io.IOException;
import java.util.function.Consumer;
import dev.hangar.blockstore.StoredBlock;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Keeps each block as an object {@code <prefix><ab>/<id>} in a bucket of another S3 service, where
 * {@code ab} is the id's first two hex digits, through the AWS SDK v2 async client on Netty.
 *
 * <p><b>Writes buffer the block in memory.</b> A PUT needs its length up front, and a block's length
 * is known only once its stream ends, so {@link #write} reads the whole block into a heap buffer
 * (computing its CRC32C on the way) and then sends one PutObject with that content length. This is
 * acceptable because blocks are bounded by the chunk size ({@code hangar.storage.chunk-size}, 1 MiB
 * by default): each concurrent write holds at most one chunk. A block longer than {@link
 * #MAX_BLOCK_SIZE} is refused rather than buffered. The CRC32C travels with the PUT ({@code
 * x-amz-checksum-crc32c}), so a service that checks it refuses a block damaged on the way. S3 makes
 * an object visible only once its PUT has completed, so a block is whole or absent; a failed PUT is
 * followed by a best-effort delete, in case the service stored it before the failure reached us.
 *
 * <p>Reads are ranged GetObjects streamed through {@link
 * AsyncResponseTransformer#toBlockingInputStream()}: the returned stream hands out bytes as they
 * arrive, and closing it early aborts the transfer. The block's size comes from the response's
 * {@code Content-Range}, so a range is checked without a separate HEAD; an empty range is answered
 * with a HeadObject. {@link #exists} is a HeadObject and {@link #delete} a DeleteObject (a missing
 * object is not an error). Failures of the service or the network surface as {@link IOException}s.
 *
 * <p>Build it through {@link BlockStores#s3}; it is public only so that the factory, in another
 * package, can reach it.
 */
public final class S3BlockStore implements BlockStore {
    /**
     * The largest block a write accepts, since it is buffered whole: 64 MiB, well above the default
     * chunk size. A node must not be configured with a larger chunk size for this backend.
     */
    public static final int MAX_BLOCK_SIZE = 64 * 1024 * 1024;

    private static final int FIRST_BUFFER_SIZE = 64 * 1024;
    /**
     * The longest wait for one request (for a GetObject: until its body starts), retries included: a
     * safety net, should the client ever fail to complete a request, far above its own timeouts.
     */
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);
    private static final int NOT_FOUND = 404;
    private static final int RANGE_NOT_SATISFIABLE = 416;

    private final S3BlockStoreConfig config;
    private final S3AsyncClient client;
    private final SdkEventLoopGroup eventLoops;
    private volatile boolean closed;

    private S3BlockStore(S3BlockStoreConfig config, S3AsyncClient client, SdkEventLoopGroup eventLoops) {
        this.config = config;
        this.client = client;
        this.eventLoops = eventLoops;
    }

    /**
     * Builds the client. Nothing is sent yet: a wrong endpoint, bucket or key shows up on the first
     * operation.
     */
    public static S3BlockStore open(S3BlockStoreConfig config) {
        Objects.requireNonNull(config, "S3 block store configuration");
        // Owned here rather than by the client, which would wait out a two-second quiet period on close.
        SdkEventLoopGroup eventLoops = SdkEventLoopGroup.builder().build();
        S3AsyncClientBuilder builder = S3AsyncClient.builder()
                .region(Region.of(config.region()))
                .forcePathStyle(config.pathStyle())
                // The CRC32C is sent explicitly on PUT; ranged GETs have no whole-object checksum.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                        .eventLoopGroup(eventLoops)
                        .maxConcurrency(64)
                        .connectionAcquisitionTimeout(Duration.ofSeconds(60)));
        URI endpoint = config.endpoint();
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        String accessKey = config.accessKey();
        String secretKey = config.secretKey();
        if (accessKey != null && secretKey != null) {
            builder.credentialsProvider(
                    StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)));
        }
        try {
            return new S3BlockStore(config, builder.build(), eventLoops);
        } catch (RuntimeException | Error failure) {
            eventLoops.eventLoopGroup().shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw failure;
        }
    }

    /** The object key of a block: {@code <prefix><first two hex digits>/<id>}. */
    static String keyOf(String prefix, BlockId id) {
        return prefix + id.value().substring(0, 2) + "/" + id.value();
    }

    @Override
    public BlockRef write(BlockId id, InputStream content) throws IOException {
        ensureOpen();
        CRC32C checksum = new CRC32C();
        byte[] buffer = new byte[FIRST_BUFFER_SIZE];
        int size = 0;
        while (true) {
            if (size == buffer.length) {
                if (size == MAX_BLOCK_SIZE) {
                    if (content.read() == -1) {
                        break;
                    }
                    throw new IOException("block " + id + " is longer than the S3 backend's limit of "
                            + MAX_BLOCK_SIZE + " bytes");
                }
                buffer = Arrays.copyOf(buffer, Math.min(2 * buffer.length, MAX_BLOCK_SIZE));
            }
            int count = content.read(buffer, size, buffer.length - size);
            if (count == -1) {
                break;
            }
            checksum.update(buffer, size, count);
            size += count;
        }
        int crc32c = (int) checksum.getValue();
        PutObjectRequest request = PutObjectRequest.builder()
                .bucket(config.bucket())
                .key(keyOf(id))
                .contentLength((long) size)
                .contentType("application/octet-stream")
                .checksumCRC32C(base64(crc32c))
                .build();
        try {
            await(client.putObject(
                    request, AsyncRequestBody.fromRemainingByteBufferUnsafe(ByteBuffer.wrap(buffer, 0, size))));
        } catch (Throwable failure) {
            IOException reported = failure("PutObject", id, failure);
            deleteQuietly(id, reported);
            throw reported;
        }
        return new BlockRef(id, size, crc32c);
    }

    @Override
    public InputStream read(BlockId id, long offset, long length) throws IOException {
        ensureOpen();
        Objects.checkFromIndexSize(offset, length, Long.MAX_VALUE);
        if (length == 0) {
            HeadObjectResponse head = head(id);
            if (head == null) {
                throw new NoSuchBlockException(id);
            }
            Objects.checkFromIndexSize(offset, length, head.contentLength());
            return InputStream.nullInputStream();
        }
        GetObjectRequest request = GetObjectRequest.builder()
                .bucket(config.bucket())
                .key(keyOf(id))
                .range("bytes=" + offset + "-" + (offset + length - 1))
                .build();
        ResponseInputStream<GetObjectResponse> response;
        try {
            response = await(client.getObject(request, AsyncResponseTransformer.toBlockingInputStream()));
        } catch (Throwable failure) {
            if (statusOf(failure) == RANGE_NOT_SATISFIABLE) {
                throw new IndexOutOfBoundsException(
                        "range [" + offset + ", " + (offset + length) + ") is outside block " + id);
            }
            throw failure("GetObject", id, failure);
        }
        try {
            GetObjectResponse headers = response.response();
            String contentRange = headers.contentRange();
            if (contentRange == null) {
                // The service ignored the Range header and sends the whole block.
                Objects.checkFromIndexSize(offset, length, headers.contentLength());
                response.skipNBytes(offset);
            } else {
                long size = sizeOf(contentRange);
                if (size >= 0) {
                    Objects.checkFromIndexSize(offset, length, size);
                }
            }
            return new RemoteRangeInputStream(response, length);
        } catch (Throwable failure) {
            response.abort();
            try {
                response.close();
            } catch (IOException | RuntimeException closeFailure) {
                failure.addSuppressed(closeFailure);
            }
            throw failure;
        }
    }

    @Override
    public boolean exists(BlockId id) throws IOException {
        ensureOpen();
        return head(id) != null;
    }

    @Override
    public void delete(BlockId id) throws IOException {
        ensureOpen();
        try {
            await(client.deleteObject(request -> request.bucket(config.bucket()).key(keyOf(id))));
        } catch (Throwable failure) {
            if (statusOf(failure) != NOT_FOUND) {
                throw failure("DeleteObject", id, failure);
            }
        }
    }

    /** Lists the bucket under the prefix, a page at a time; keys that are not blocks are skipped. */
    @Override
    public void forEachBlock(Consumer<StoredBlock> visitor) throws IOException {
        ensureOpen();
        String prefix = config.prefix();
        String token = null;
        do {
            String continuation = token;
            ListObjectsV2Response page;
            try {
                page = await(client.listObjectsV2(request -> request.bucket(config.bucket())
                        .prefix(prefix)
                        .continuationToken(continuation)));
            } catch (Throwable failure) {
                throw new IOException("ListObjectsV2 of " + this + " failed", failure);
            }
            for (S3Object object : page.contents()) {
                BlockId id = blockIdOf(object.key().substring(prefix.length()));
                if (id != null) {
                    visitor.accept(new StoredBlock(id, object.size(), object.lastModified()));
                }
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
    }

    /** The id in a key's part after the prefix, {@code ab/<id>}, or null if it is not a block's. */
    private static @Nullable BlockId blockIdOf(String rest) {
        if (rest.length() != 35 || rest.charAt(2) != '/' || !rest.startsWith(rest.substring(3, 5))) {
            return null;
        }
        try {
            return new BlockId(rest.substring(3));
        } catch (IllegalArgumentException notABlock) {
            return null;
        }
    }

    /**
     * Closes the client and its connections; streams returned by {@link #read} and not yet read to
     * their end fail from then on.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            client.close();
        } finally {
            // A short quiet period lets the closing connections finish their last tasks.
            eventLoops.eventLoopGroup()
                    .shutdownGracefully(100, 10_000, TimeUnit.MILLISECONDS)
                    .awaitUninterruptibly(10_000);
        }
    }

    @Override
    public String toString() {
        return "S3BlockStore[" + (config.endpoint() == null ? "AWS " + config.region() : config.endpoint())
                + ", bucket=" + config.bucket() + ", prefix=" + config.prefix() + "]";
    }

    private @Nullable HeadObjectResponse head(BlockId id) throws IOException {
        try {
            return await(client.headObject(request -> request.bucket(config.bucket()).key(keyOf(id))));
        } catch (Throwable failure) {
            if (statusOf(failure) == NOT_FOUND) {
                return null;
            }
            throw failure("HeadObject", id, failure);
        }
    }

    private String keyOf(BlockId id) {
        return keyOf(config.prefix(), id);
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("block store is closed: " + this);
        }
    }

    private void deleteQuietly(BlockId id, IOException failure) {
        if (closed) {
            return;
        }
        try {
            delete(id);
        } catch (IOException | RuntimeException cleanupFailure) {
            failure.addSuppressed(cleanupFailure);
        }
    }

    /** Waits for a request; an interrupt or {@link #REQUEST_TIMEOUT} cancels it. Failures come out unwrapped. */
    private static <T> T await(CompletableFuture<T> future) throws Throwable {
        try {
            return future.get(REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException timedOut) {
            future.cancel(true);
            throw new IOException("S3 request did not complete within " + REQUEST_TIMEOUT, timedOut);
        } catch (InterruptedException interrupted) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            InterruptedIOException failure = new InterruptedIOException("interrupted while waiting for S3");
            failure.initCause(interrupted);
            throw failure;
        } catch (ExecutionException failed) {
            throw failed.getCause() == null ? failed : failed.getCause();
        }
    }

    /** The HTTP status of an S3 error answer, or -1 for any other failure. */
    private static int statusOf(Throwable failure) {
        return failure instanceof S3Exception error ? error.statusCode() : -1;
    }

    /**
     * What a failed request reports: a missing block as {@link NoSuchBlockException}, I/O errors as
     * they are, the SDK's exceptions wrapped in an {@link IOException}; errors are rethrown.
     */
    private static IOException failure(String operation, BlockId id, Throwable failure) {
        if (failure instanceof Error error) {
            throw error;
        }
        if (statusOf(failure) == NOT_FOUND) {
            return new NoSuchBlockException(id);
        }
        if (failure instanceof IOException io) {
            return io;
        }
        String message = failure instanceof SdkException ? failure.getMessage() : failure.toString();
        return new IOException("remote S3 " + operation + " of block " + id + " failed: " + message, failure);
    }

    /** The complete length in {@code bytes first-last/complete}, or -1 if it is {@code *}. */
    private static long sizeOf(String contentRange) throws IOException {
        int slash = contentRange.lastIndexOf('/');
        String size = slash < 0 ? "" : contentRange.substring(slash + 1).trim();
        if (size.equals("*")) {
            return -1;
        }
        try {
            return Long.parseLong(size);
        } catch (NumberFormatException malformed) {
            throw new IOException("malformed Content-Range from S3: " + contentRange, malformed);
        }
    }

    private static String base64(int crc32c) {
        byte[] bytes = {(byte) (crc32c >>> 24), (byte) (crc32c >>> 16), (byte) (crc32c >>> 8), (byte) crc32c};
        return Base64.getEncoder().encodeToString(bytes);
    }
}
