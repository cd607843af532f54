package dev.hangar.distribution.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/**
 * Looks for a run of bytes in the files of data folders, for tests of what is readable at rest. Only files changed
 * since a moment are read (the suite's data folders hold every other test's data too), each as a stream with the
 * overlap of one run between buffers.
 */
public final class DataFolderScan {
    private DataFolderScan() {}

    /** Whether any file under the roots changed since {@code since} holds {@code needle}. */
    public static boolean found(List<Path> roots, Instant since, byte[] needle) throws IOException {
        for (Path root : roots) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    if (modifiedSince(file, since) && contains(file, needle)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean modifiedSince(Path file, Instant since) {
        try {
            return !Files.getLastModifiedTime(file).toInstant().isBefore(since);
        } catch (IOException vanished) {
            return false;
        }
    }

    private static boolean contains(Path file, byte[] needle) {
        byte[] buffer = new byte[1 << 20];
        int kept = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer, kept, buffer.length - kept)) > 0; ) {
                int end = kept + n;
                if (indexOf(buffer, end, needle) >= 0) {
                    return true;
                }
                kept = Math.min(needle.length - 1, end);
                System.arraycopy(buffer, end - kept, buffer, 0, kept);
            }
        } catch (IOException vanished) {
            return false; // RocksDB removed it meanwhile
        }
        return false;
    }

    private static int indexOf(byte[] haystack, int end, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= end; i++) {
            if (haystack[i] != needle[0]) {
                continue;
            }
            for (int j = 1; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
