package dev.hangar.bench.consensus;

/**
 * What one benchmarked request gave, and the sequential inter-node rounds it cost its coordinator, split as the
 * nodes count them ({@link dev.hangar.cluster.RoundTrips}): the bucket settings the S3 layer reads before it acts
 * (policy, ACL, the bucket, versioning, Object Lock) and the object call itself.
 *
 * @param result what the store answered
 * @param settingsRounds rounds of the settings reads
 * @param objectRounds rounds of the object command or read
 * @param blockRounds rounds of chunk calls: 0 for the inline objects benchmarked, recorded to show it
 */
record Served<T>(T result, int settingsRounds, int objectRounds, int blockRounds) {
    Served {
        if (settingsRounds < 0 || objectRounds < 0 || blockRounds < 0) {
            throw new IllegalArgumentException("rounds must not be negative");
        }
    }
}
