package dev.hangar.cluster.meta;

import dev.hangar.cluster.table.Entry;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.StoreStatistics;

/**
 * What live entries of the metadata table add up to: buckets, uploads in progress, and the stored
 * versions (delete markers apart) with their sizes. One rule for every view that counts entries,
 * whether it reads them from a replica or from the quorum.
 */
final class StatisticsTally {
    private long objects;
    private long bytes;
    private long deleteMarkers;
    private long buckets;
    private long uploads;

    /** Counts one entry of any partition; tombstones and entries of other kinds count nothing. */
    void add(Entry entry) {
        if (entry.isTombstone()) {
            return;
        }
        switch (entry.partitionKey()[0]) {
            case MetaKeys.BUCKET_TAG -> buckets++;
            case MetaKeys.UPLOAD_TAG -> uploads++;
            case MetaKeys.OBJECT_TAG -> {
                for (ObjectVersion version : LocalReplica.versionsOf(entry)) {
                    if (version.isDeleteMarker()) {
                        deleteMarkers++;
                    } else {
                        objects++;
                        bytes += version.size();
                    }
                }
            }
            default -> {}
        }
    }

    StoreStatistics statistics() {
        return new StoreStatistics(objects, bytes, deleteMarkers, buckets, uploads);
    }
}
