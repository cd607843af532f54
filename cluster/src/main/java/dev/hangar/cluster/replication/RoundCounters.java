package dev.hangar.cluster.replication;

import java.util.concurrent.atomic.LongAdder;

/** The live counters behind {@link ReplicationStats}. */
final class RoundCounters {
    private final LongAdder writes = new LongAdder();
    private final LongAdder writeRounds = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder readRounds = new LongAdder();
    private final LongAdder readFallbacks = new LongAdder();

    void write(boolean remote) {
        writes.increment();
        if (remote) {
            writeRounds.increment();
        }
    }

    void read(int rounds, int fallbacks) {
        reads.increment();
        readRounds.add(rounds);
        readFallbacks.add(fallbacks);
    }

    ReplicationStats snapshot(long resyncQueued) {
        return new ReplicationStats(writes.sum(), writeRounds.sum(), reads.sum(), readRounds.sum(),
                readFallbacks.sum(), resyncQueued);
    }
}
