package dev.hangar.s3api.semantics;

import dev.hangar.metadata.AccessKey;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Who sent a request: the access key that signed it (null for an anonymous request) and the
 * request facts bucket policies can test ({@code aws:SourceIp}, {@code aws:SecureTransport},
 * {@code aws:UserAgent}, {@code aws:Referer}).
 */
public record Caller(@Nullable AccessKey key, Map<String, List<String>> context) {
    public Caller {
        context = Map.copyOf(context);
    }

    public static Caller anonymous(Map<String, List<String>> context) {
        return new Caller(null, context);
    }

    public @Nullable String accessKeyId() {
        return key == null ? null : key.accessKeyId();
    }

    public boolean isRoot() {
        return key != null && key.root();
    }

    public boolean isAnonymous() {
        return key == null;
    }
}
