package dev.hangar.examples.album;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.testcontainers.HangarContainer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;

/**
 * hangar-spring-boot: one annotation, {@code @ServiceConnection}, wires the application's {@code S3Client} to a
 * Hangar container that Spring Boot starts with the context.
 */
@SpringBootTest
@Import(PhotoAlbumServiceConnectionTest.Containers.class)
@DisabledIfEnvironmentVariable(named = "HANGAR_CONTAINERS", matches = "(?i)skip")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PhotoAlbumServiceConnectionTest {

    @TestConfiguration(proxyBeanMethods = false)
    static class Containers {
        @Bean
        @ServiceConnection
        HangarContainer hangar() {
            return new HangarContainer(System.getProperty("hangar.image", "hangar:dev")).withImagePullPolicy(any -> false);
        }
    }

    @Autowired
    PhotoAlbum album;

    @Test
    void theApplicationsClientTalksToTheContainer() {
        album.add("pets", "dog.gif", new byte[] {42}, "image/gif");

        assertThat(album.names("pets")).containsExactly("dog.gif");
        assertThat(album.photo("pets", "dog.gif")).containsExactly(42);
    }
}
