package dev.hangar.metadata;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The rule for the kind and the name of a service configuration document, checked the same way by
 * every store and by the commands, so that a name one store takes is never refused by another.
 *
 * <p>Neither may be empty, and neither may contain U+0000: the key layouts separate kind and name
 * with a 0 byte (as bucket and key are separated elsewhere), and an empty name would be a key that
 * some tables cannot hold. Nor may they hold an unpaired surrogate, which UTF-8 cannot hold: a key
 * would silently turn it into {@code ?} where a command's encoding refuses it. Anything else goes:
 * slashes, any Unicode, spaces.
 */
public final class ServiceConfigNames {
    /**
     * The order of names in a listing: by UTF-8 bytes, as buckets and keys list everywhere in the store (a
     * {@code String}'s natural order, by UTF-16 code units, puts U+10000 and above before U+E000).
     */
    public static final Comparator<String> ORDER = (first, second) -> Arrays.compareUnsigned(
            first.getBytes(StandardCharsets.UTF_8), second.getBytes(StandardCharsets.UTF_8));

    private ServiceConfigNames() {}

    /** An empty listing, sorted by {@link #ORDER}: what every store fills. */
    public static SortedMap<String, byte[]> newListing() {
        return new TreeMap<>(ORDER);
    }

    /** @throws IllegalArgumentException if {@code kind} is empty, contains U+0000 or is not valid UTF-16 */
    public static String requireKind(String kind) {
        return require(kind, "service configuration kind");
    }

    /** @throws IllegalArgumentException if {@code name} is empty, contains U+0000 or is not valid UTF-16 */
    public static String requireName(String name) {
        return require(name, "service configuration name");
    }

    private static String require(String value, String what) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(what + " must not contain U+0000");
        }
        if (!StandardCharsets.UTF_8.newEncoder().canEncode(value)) {
            throw new IllegalArgumentException(what + " must not contain an unpaired surrogate");
        }
        return value;
    }
}
