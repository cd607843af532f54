package dev.hangar.s3api.xml;

import org.jspecify.annotations.Nullable;

/**
 * A bucket's versioning state, the document of PutBucketVersioning and GetBucketVersioning.
 * Rendered as {@code Status} then {@code MfaDelete}, each only when set: GetBucketVersioning of a
 * bucket whose versioning was never enabled (or suspended) answers an empty {@code
 * <VersioningConfiguration/>}, and {@code MfaDelete} appears only once MFA delete was configured.
 * The element on the wire is {@code MfaDelete}, although the API reference's member list calls it
 * {@code MFADelete}.
 *
 * @param status {@code Enabled} or {@code Suspended}; null for a bucket never versioned, and in a
 *     request that changes only the MFA delete setting
 * @param mfaDelete {@code Enabled} or {@code Disabled}; null when never configured, or not sent
 */
public record VersioningConfiguration(@Nullable Status status, @Nullable MfaDelete mfaDelete) {

    private static final VersioningConfiguration NEVER_VERSIONED = new VersioningConfiguration(null, null);

    /** What GetBucketVersioning answers for a bucket whose versioning was never enabled. */
    public static VersioningConfiguration neverVersioned() {
        return NEVER_VERSIONED;
    }

    /** A bucket's versioning {@code Status}. */
    public enum Status {
        ENABLED("Enabled"),
        SUSPENDED("Suspended");

        private final String wireName;

        Status(String wireName) {
            this.wireName = wireName;
        }

        /** The value as the document spells it. */
        public String wireName() {
            return wireName;
        }
    }

    /** The {@code MfaDelete} setting. */
    public enum MfaDelete {
        ENABLED("Enabled"),
        DISABLED("Disabled");

        private final String wireName;

        MfaDelete(String wireName) {
            this.wireName = wireName;
        }

        /** The value as the document spells it. */
        public String wireName() {
            return wireName;
        }
    }
}
