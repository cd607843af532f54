package dev.hangar.bench.lab;

import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The lab's S3 clients: path style, no retry (a failure is counted, never hidden), generous time limits. */
final class LabClients {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    private LabClients() {
    }

    static S3Client s3(URI endpoint, String accessKey, String secretKey) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .overrideConfiguration(configuration -> configuration
                        .apiCallTimeout(CALL_TIMEOUT)
                        .retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }
}
