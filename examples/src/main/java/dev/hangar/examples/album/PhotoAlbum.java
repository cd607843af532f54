package dev.hangar.examples.album;

import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.S3Object;

/** Photos by album: each photo one object, {@code <album>/<name>}, in one bucket. */
@Service
public class PhotoAlbum {
    private final S3Client s3;
    private final String bucket;

    public PhotoAlbum(S3Client s3, @Value("${album.bucket:photos}") String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    public void add(String album, String name, byte[] photo, String contentType) {
        ensureBucket();
        s3.putObject(request -> request.bucket(bucket).key(album + "/" + name).contentType(contentType),
                RequestBody.fromBytes(photo));
    }

    public byte[] photo(String album, String name) {
        return s3.getObjectAsBytes(request -> request.bucket(bucket).key(album + "/" + name)).asByteArray();
    }

    /** The names of an album's photos, in name order. */
    public List<String> names(String album) {
        return s3.listObjectsV2Paginator(request -> request.bucket(bucket).prefix(album + "/")).contents().stream()
                .map(S3Object::key)
                .map(key -> key.substring(album.length() + 1))
                .toList();
    }

    private void ensureBucket() {
        try {
            s3.createBucket(request -> request.bucket(bucket));
        } catch (BucketAlreadyOwnedByYouException exists) {
            // Made by an earlier photo.
        }
    }
}
