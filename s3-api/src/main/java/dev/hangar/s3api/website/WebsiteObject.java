package dev.hangar.s3api.website;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An object the website lookup found and the requester may read.
 *
 * @param key the object's key
 * @param redirectLocation its {@code x-amz-website-redirect-location}, if it has one
 */
public record WebsiteObject(String key, @Nullable String redirectLocation) {
    public WebsiteObject {
        Objects.requireNonNull(key, "key is required");
    }
}
