package dev.hangar.metadata.state;

import dev.hangar.metadata.ObjectVersion;
import java.util.Objects;

/**
 * A version as the store holds it: the version and its place among the key's versions. A greater
 * {@code order} is newer; orders of one key are distinct.
 */
public record StoredVersion(ObjectVersion version, long order) {
    public StoredVersion {
        Objects.requireNonNull(version, "version");
    }

    public String versionId() {
        return version.versionId();
    }
}
