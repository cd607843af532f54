package dev.hangar.metadata;

import java.time.Instant;

/** An access key pair and when it was created. */
public record AccessKey(String accessKeyId, String secretKey, Instant created) {
    public AccessKey {
        if (accessKeyId == null || accessKeyId.isEmpty() || secretKey == null || secretKey.isEmpty()) {
            throw new IllegalArgumentException("access key id and secret are required");
        }
    }
}
