package dev.hangar.examples.album;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.junit.HangarExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;

/** hangar-junit: Hangar in this JVM, its client handed to the test; no Spring context, no container. */
@ExtendWith(HangarExtension.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PhotoAlbumJUnitExtensionTest {

    @Test
    void keepsPhotosByAlbum(S3Client s3) {
        PhotoAlbum album = new PhotoAlbum(s3, "photos");
        album.add("holidays", "beach.jpg", new byte[] {1, 2, 3}, "image/jpeg");
        album.add("holidays", "alps.jpg", new byte[] {4, 5}, "image/jpeg");
        album.add("family", "cake.jpg", new byte[] {6}, "image/jpeg");

        assertThat(album.names("holidays")).containsExactly("alps.jpg", "beach.jpg");
        assertThat(album.photo("family", "cake.jpg")).containsExactly(6);
    }
}
