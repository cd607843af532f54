package dev.hangar.distribution.support;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.http.conn.DnsResolver;
import org.apache.http.impl.conn.SystemDefaultDnsResolver;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * AWS SDK v2 clients pointed at a test server. They never retry, so a server error surfaces at
 * once instead of being hidden by a successful second attempt.
 */
public final class S3Clients {

    public static final Region REGION = Region.US_EAST_1;

    /**
     * Resolves {@code localhost} and every {@code *.localhost} name to 127.0.0.1 (RFC 6761), which
     * the system resolver of a Linux test machine does not do for sub-domains: virtual-host-style
     * requests to {@code bucket.s3.localhost} need it.
     */
    public static final DnsResolver LOCALHOST_RESOLVER = host -> {
        if (host.equals("localhost") || host.endsWith(".localhost")) {
            try {
                return new InetAddress[] {InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1})};
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        return SystemDefaultDnsResolver.INSTANCE.resolve(host);
    };

    private S3Clients() {
    }

    public static StaticCredentialsProvider credentials(String accessKey, String secretKey) {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey));
    }

    /** Sync client on the Apache HTTP client, path-style, default integrity checksums. */
    public static S3Client sync(URI endpoint, String accessKey, String secretKey) {
        return sync(endpoint, accessKey, secretKey, true, builder -> {
        });
    }

    public static S3Client sync(URI endpoint, String accessKey, String secretKey, boolean pathStyle,
                                Consumer<S3ClientBuilder> customizer) {
        S3ClientBuilder builder = S3Client.builder()
            .endpointOverride(endpoint)
            .forcePathStyle(pathStyle)
            .region(REGION)
            .credentialsProvider(credentials(accessKey, secretKey))
            .httpClientBuilder(ApacheHttpClient.builder()
                .maxConnections(32)
                .socketTimeout(Duration.ofMinutes(5))
                .connectionTimeout(Duration.ofSeconds(10))
                .dnsResolver(LOCALHOST_RESOLVER))
            .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
        customizer.accept(builder);
        return builder.build();
    }

    /** Async client on the Netty NIO client, path-style, default integrity checksums. */
    public static S3AsyncClient async(URI endpoint, String accessKey, String secretKey,
                                      Consumer<S3AsyncClientBuilder> customizer) {
        S3AsyncClientBuilder builder = S3AsyncClient.builder()
            .endpointOverride(endpoint)
            .forcePathStyle(true)
            .region(REGION)
            .credentialsProvider(credentials(accessKey, secretKey))
            .httpClientBuilder(NettyNioAsyncHttpClient.builder()
                .maxConcurrency(64)
                .connectionAcquisitionTimeout(Duration.ofMinutes(2))
                .readTimeout(Duration.ofMinutes(2))
                .writeTimeout(Duration.ofMinutes(2)))
            .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
        customizer.accept(builder);
        return builder.build();
    }

    public static S3Presigner presigner(URI endpoint, String accessKey, String secretKey) {
        return S3Presigner.builder()
            .endpointOverride(endpoint)
            .region(REGION)
            .credentialsProvider(credentials(accessKey, secretKey))
            .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
            .build();
    }
}
