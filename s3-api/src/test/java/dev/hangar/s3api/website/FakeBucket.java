package dev.hangar.s3api.website;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A bucket behind a website lookup: readable objects, private ones (AccessDenied) and, when it is
 * not listable, missing keys answered with AccessDenied as S3 answers a requester without
 * {@code s3:ListBucket}. Records every key looked up.
 */
final class FakeBucket implements Function<String, Optional<WebsiteObject>> {
    private final Map<String, WebsiteObject> objects = new HashMap<>();
    private final Set<String> privateKeys = new HashSet<>();
    private boolean listable = true;
    final List<String> lookedUp = new ArrayList<>();

    FakeBucket with(String... keys) {
        for (String key : keys) {
            objects.put(key, new WebsiteObject(key, null));
        }
        return this;
    }

    FakeBucket withRedirect(String key, String location) {
        objects.put(key, new WebsiteObject(key, location));
        return this;
    }

    FakeBucket withPrivate(String... keys) {
        privateKeys.addAll(List.of(keys));
        return with(keys);
    }

    FakeBucket unlistable() {
        listable = false;
        return this;
    }

    @Override
    public Optional<WebsiteObject> apply(String key) {
        lookedUp.add(key);
        if (privateKeys.contains(key)) {
            throw new S3Exception(S3Error.ACCESS_DENIED);
        }
        WebsiteObject object = objects.get(key);
        if (object == null && !listable) {
            throw new S3Exception(S3Error.ACCESS_DENIED);
        }
        return Optional.ofNullable(object);
    }
}
