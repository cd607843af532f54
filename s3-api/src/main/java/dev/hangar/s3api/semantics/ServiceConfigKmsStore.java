package dev.hangar.s3api.semantics;

import dev.hangar.metadata.MetadataStore;
import dev.hangar.s3api.encryption.KmsKeys;
import java.util.Optional;
import java.util.SortedMap;

/** KMS keys kept as the metadata store's service configuration documents: replicated as settings are. */
final class ServiceConfigKmsStore implements KmsKeys.Store {
    private final MetadataStore metadata;

    ServiceConfigKmsStore(MetadataStore metadata) {
        this.metadata = metadata;
    }

    @Override
    public Optional<byte[]> get(String kind, String name) {
        return metadata.getServiceConfig(kind, name);
    }

    @Override
    public SortedMap<String, byte[]> list(String kind) {
        return metadata.listServiceConfigs(kind);
    }

    @Override
    public void put(String kind, String name, byte[] document) {
        metadata.putServiceConfig(kind, name, document);
    }
}
