package dev.hangar.metadata.state;

/**
 * Where a command stands in a replicated log: the term of the leader that appended it and its index. A store that
 * applies a log's entries records the position of the last one in the same atomic write as the entry's effect, so
 * that after a restart it resumes with the next entry and applies none twice.
 */
public record LogPosition(long term, long index) {
    public LogPosition {
        if (term < 0 || index < 0) {
            throw new IllegalArgumentException("term and index must not be negative: " + term + ", " + index);
        }
    }
}
