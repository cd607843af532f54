package dev.hangar.metadata.rocksdb;

import java.nio.charset.StandardCharsets;

/** The column families, one per record kind, so that each kind has its own key space and stats. */
enum Family {
    BUCKETS("buckets"),
    /**
     * The current version of each key whose current version is not a delete marker: a copy of the
     * newest entry of {@link #VERSIONS}, kept so that listing current objects never has to skip
     * over old versions or deleted keys.
     */
    OBJECTS("objects"),
    /** Every version of every key, delete markers included, newest first per key. */
    VERSIONS("versions"),
    UPLOADS("uploads"),
    PARTS("parts"),
    GARBAGE("garbage"),
    ACCESS_KEYS("access_keys"),
    /** Opaque configuration documents of buckets, by bucket and kind. */
    BUCKET_CONFIGS("bucket_configs"),
    /** The store's own bookkeeping: the layout version, the version sequence lease. */
    META("meta"),
    /**
     * The store-wide {@link Counter}s, written only as merge operands of RocksDB's {@code
     * UInt64AddOperator}. A family of their own, not meta: RocksDB refuses to open a database
     * without naming every family, so a release that predates counters cannot open this one at
     * all, where opening it without the merge operator would silently drop the log from the first
     * merge on.
     */
    COUNTERS("counters"),
    /**
     * Opaque configuration documents of the service itself (a KMS key, say), by kind and name: a family of their
     * own, so that they share no key space with buckets. Like {@link #COUNTERS}, it is created when a store is
     * opened and keeps a release that predates it from opening the store: that release would not know the family.
     */
    SERVICE_CONFIGS("service_configs");

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
