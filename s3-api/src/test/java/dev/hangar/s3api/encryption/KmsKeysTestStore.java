package dev.hangar.s3api.encryption;

import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** KMS keys kept in memory, as the metadata store's service configurations keep them: for tests of what uses them. */
public final class KmsKeysTestStore implements KmsKeys.Store {
    private final Map<String, SortedMap<String, byte[]>> kinds = new ConcurrentHashMap<>();

    @Override
    public Optional<byte[]> get(String kind, String name) {
        return Optional.ofNullable(kinds.getOrDefault(kind, new TreeMap<>()).get(name));
    }

    @Override
    public SortedMap<String, byte[]> list(String kind) {
        return new TreeMap<>(kinds.getOrDefault(kind, new TreeMap<>()));
    }

    @Override
    public void put(String kind, String name, byte[] document) {
        kinds.computeIfAbsent(kind, ignored -> new TreeMap<>()).put(name, document.clone());
    }
}
