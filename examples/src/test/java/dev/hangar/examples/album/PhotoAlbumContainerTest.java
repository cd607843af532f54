package dev.hangar.examples.album;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.hangar.testcontainers.HangarContainer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;

/** hangar-testcontainers: Hangar's image in a container, with the album's bucket made on start. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PhotoAlbumContainerTest {
    static final String IMAGE = System.getProperty("hangar.image", "hangar:dev");

    static HangarContainer hangar;

    @BeforeAll
    static void start() {
        assumeFalse("skip".equalsIgnoreCase(System.getenv().getOrDefault("HANGAR_CONTAINERS", "")),
            "HANGAR_CONTAINERS=skip: not starting containers");
        hangar = new HangarContainer(IMAGE).withImagePullPolicy(any -> false).withBucket("photos");
        hangar.start();
    }

    @AfterAll
    static void stop() {
        if (hangar != null) {
            hangar.stop();
        }
    }

    @Test
    void keepsPhotosInTheContainer() {
        try (S3Client s3 = hangar.newS3Client()) {
            PhotoAlbum album = new PhotoAlbum(s3, "photos");
            album.add("work", "team.png", new byte[] {9, 8, 7}, "image/png");

            assertThat(album.names("work")).containsExactly("team.png");
            assertThat(album.photo("work", "team.png")).containsExactly(9, 8, 7);
        }
    }
}
