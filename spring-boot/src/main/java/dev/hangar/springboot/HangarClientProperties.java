package dev.hangar.springboot;

import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code hangar.client.*}: the server an application's {@code S3Client} talks to.
 *
 * @param endpoint the S3 endpoint ({@code http://localhost:9000}); without it, no client is configured from
 *     properties
 * @param region the region to sign for
 * @param accessKey the access key id
 * @param secretKey its secret
 */
@ConfigurationProperties("hangar.client")
public record HangarClientProperties(@Nullable URI endpoint, @DefaultValue("us-east-1") String region,
        @Nullable String accessKey, @Nullable String secretKey) {}
