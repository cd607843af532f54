package dev.hangar.bench.load;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * The keys of the mixed workload that exist: a read takes a key that cannot be deleted until the
 * read is done, a delete takes a key that nobody is reading and removes it at once, a put adds its
 * key only once written. So no request of the benchmark meets a missing object by design.
 */
final class ObjectPool {

    private final List<String> keys = new ArrayList<>();
    private final Map<String, Integer> readers = new HashMap<>();

    synchronized void add(String key) {
        keys.add(key);
    }

    synchronized int size() {
        return keys.size();
    }

    /** A random existing key, marked as being read; null if there is none. */
    synchronized @Nullable String acquireRead(SplittableRandom random) {
        if (keys.isEmpty()) {
            return null;
        }
        String key = keys.get(random.nextInt(keys.size()));
        readers.merge(key, 1, Integer::sum);
        return key;
    }

    synchronized void releaseRead(String key) {
        readers.computeIfPresent(key, (ignored, count) -> count == 1 ? null : count - 1);
    }

    /** Removes and returns a random key that nobody is reading; null if a few tries find none. */
    synchronized @Nullable String takeForDelete(SplittableRandom random) {
        for (int attempt = 0; attempt < 8 && !keys.isEmpty(); attempt++) {
            int index = random.nextInt(keys.size());
            String key = keys.get(index);
            if (!readers.containsKey(key)) {
                keys.set(index, keys.getLast());
                keys.removeLast();
                return key;
            }
        }
        return null;
    }
}
