package dev.hangar.examples.album;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A photo album kept in an S3 bucket: the application whose tests show Hangar's three kinds of test support. */
@SpringBootApplication
public class PhotoAlbumApplication {

    public static void main(String[] args) {
        SpringApplication.run(PhotoAlbumApplication.class, args);
    }
}
