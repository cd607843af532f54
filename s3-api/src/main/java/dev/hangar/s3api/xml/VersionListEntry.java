package dev.hangar.s3api.xml;

import java.time.Instant;

/**
 * One entry of ListObjectVersions: an object version ({@code Version}) or a delete marker ({@code
 * DeleteMarker}). S3 sends both kinds in one sequence, in list order (by key, then newest version
 * first), so a client can tell which came first even when two share a timestamp; the SDKs that
 * split them into two lists lose that order, the XML keeps it.
 */
public sealed interface VersionListEntry permits ObjectVersionEntry, DeleteMarkerEntry {
    /** The key as it goes on the wire: already url-encoded when the request asked for it. */
    String key();

    /** The version id, {@code null} (the string) for the null version. */
    String versionId();

    /** Whether this is the key's current version. */
    boolean isLatest();

    Instant lastModified();
}
