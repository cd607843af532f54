package dev.hangar.bench.load;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Where the load goes and how to connect: the options every command shares. */
public final class S3Options {

    @Spec(Spec.Target.MIXEE)
    @Nullable CommandSpec spec;

    @Option(names = "--endpoint", description = "S3 endpoint URL, e.g. http://localhost:9000 (default: AWS for the region).")
    @Nullable URI endpoint;

    @Option(names = "--region", defaultValue = "us-east-1", description = "Signing region (default: ${DEFAULT-VALUE}).")
    String region = "us-east-1";

    @Option(names = "--access-key", defaultValue = "${env:AWS_ACCESS_KEY_ID}",
        description = "Access key id (default: environment variable AWS_ACCESS_KEY_ID).")
    @Nullable String accessKey;

    @Option(names = "--secret-key", defaultValue = "${env:AWS_SECRET_ACCESS_KEY}",
        description = "Secret access key (default: environment variable AWS_SECRET_ACCESS_KEY).")
    @Nullable String secretKey;

    @Option(names = "--bucket", defaultValue = "hangar-bench", description = "Bucket, created if missing (default: ${DEFAULT-VALUE}).")
    String bucket = "hangar-bench";

    @Option(names = "--path-style", description = "Path-style addressing (http://host/bucket/key) instead of virtual hosts.")
    boolean pathStyle;

    @Option(names = "--checksums", defaultValue = "when-supported",
        description = "Integrity checksums the client sends and checks: when-supported (the SDK's default) or when-required "
            + "(for endpoints that do not know the newer checksum headers). Default: ${DEFAULT-VALUE}.")
    String checksums = "when-supported";

    @Option(names = "--timeout", defaultValue = "PT2M", description = "Time limit of one request, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration timeout = Duration.ofMinutes(2);

    @Option(names = "--retries", defaultValue = "0",
        description = "Retries of a failed request (default: ${DEFAULT-VALUE}: every failure is counted, none is hidden).")
    int retries;

    /** A client with room for {@code concurrency} requests in flight. */
    S3AsyncClient open(int concurrency) {
        if (accessKey == null || accessKey.isBlank() || secretKey == null || secretKey.isBlank()) {
            throw new ParameterException(commandLine(), "credentials missing: give --access-key and --secret-key "
                + "or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
        }
        boolean whenRequired = switch (checksums.toLowerCase(Locale.ROOT)) {
            case "when-supported" -> false;
            case "when-required" -> true;
            default -> throw new ParameterException(commandLine(), "--checksums is when-supported or when-required, not " + checksums);
        };
        S3AsyncClientBuilder builder = S3AsyncClient.builder()
            .region(Region.of(region))
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
            .forcePathStyle(pathStyle)
            .requestChecksumCalculation(whenRequired ? RequestChecksumCalculation.WHEN_REQUIRED : RequestChecksumCalculation.WHEN_SUPPORTED)
            .responseChecksumValidation(whenRequired ? ResponseChecksumValidation.WHEN_REQUIRED : ResponseChecksumValidation.WHEN_SUPPORTED)
            .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                .maxConcurrency(Math.max(1, concurrency) + 2)
                .maxPendingConnectionAcquires(Math.max(10_000, concurrency * 4))
                .connectionAcquisitionTimeout(timeout)
                .readTimeout(timeout)
                .writeTimeout(timeout))
            .overrideConfiguration(configuration -> configuration
                .apiCallTimeout(timeout)
                .retryStrategy(strategy -> strategy.maxAttempts(retries + 1)));
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder.build();
    }

    /** Creates the bucket unless it exists. */
    void ensureBucket(S3AsyncClient client) {
        try {
            client.headBucket(request -> request.bucket(bucket)).join();
            return;
        } catch (CompletionException e) {
            if (!(OperationStats.unwrap(e) instanceof S3Exception s3 && s3.statusCode() == 404)) {
                throw e;
            }
        }
        try {
            client.createBucket(request -> {
                request.bucket(bucket);
                if (!region.equals("us-east-1")) {
                    request.createBucketConfiguration(configuration -> configuration.locationConstraint(region));
                }
            }).join();
        } catch (CompletionException e) {
            if (!(OperationStats.unwrap(e) instanceof BucketAlreadyOwnedByYouException)) {
                throw e;
            }
        }
    }

    /** Where the load goes, for the header line of a report. */
    String describe() {
        return "endpoint=" + (endpoint == null ? "aws:" + region : endpoint) + " bucket=" + bucket;
    }

    private picocli.CommandLine commandLine() {
        if (spec == null) {
            throw new IllegalStateException("picocli did not inject the command spec");
        }
        return spec.commandLine();
    }
}
