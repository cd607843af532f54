package dev.hangar.metadata.rocksdb;

import java.nio.charset.StandardCharsets;

/** The column families, one per record kind, so that each kind has its own key space and stats. */
enum Family {
    BUCKETS("buckets"),
    /**
     * Current object versions only. Versioning will add a {@code versions} family keyed {@code
     * bucket 0 key 0 version}; current versions stay here so that a listing never has to skip
     * over old versions.
     */
    OBJECTS("objects"),
    UPLOADS("uploads"),
    PARTS("parts"),
    GARBAGE("garbage"),
    ACCESS_KEYS("access_keys");

    private final String familyName;

    Family(String familyName) {
        this.familyName = familyName;
    }

    byte[] nameBytes() {
        return familyName.getBytes(StandardCharsets.UTF_8);
    }

    String familyName() {
        return familyName;
    }
}
