package dev.hangar.springboot;

import java.net.URI;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An {@code S3Client} bean for a Hangar server: from {@link HangarConnectionDetails}, which a test's
 * {@code @ServiceConnection} container supplies, or else from {@code hangar.client.*}. An application's own
 * {@code S3Client} bean wins.
 */
@AutoConfiguration
@ConditionalOnClass(S3Client.class)
@EnableConfigurationProperties(HangarClientProperties.class)
public class HangarClientAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(HangarConnectionDetails.class)
    @ConditionalOnProperty(prefix = "hangar.client", name = "endpoint")
    HangarConnectionDetails hangarPropertiesConnectionDetails(HangarClientProperties properties) {
        if (properties.accessKey() == null || properties.secretKey() == null) {
            throw new IllegalStateException("hangar.client.endpoint is set: set hangar.client.access-key and "
                    + "hangar.client.secret-key too");
        }
        return new PropertiesConnectionDetails(properties.endpoint(), properties.region(), properties.accessKey(),
                properties.secretKey());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnBean(HangarConnectionDetails.class)
    @ConditionalOnMissingBean(S3Client.class)
    S3Client hangarS3Client(HangarConnectionDetails connection) {
        return S3Client.builder()
                .endpointOverride(connection.endpoint())
                .region(Region.of(connection.region()))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(connection.accessKey(), connection.secretKey())))
                .forcePathStyle(true)
                .build();
    }

    private record PropertiesConnectionDetails(URI endpoint, String region, String accessKey, String secretKey)
            implements HangarConnectionDetails {}
}
