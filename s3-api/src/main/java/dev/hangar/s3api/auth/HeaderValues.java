package dev.hangar.s3api.auth;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Header look-ups over a map whose names are already lower-case. */
final class HeaderValues {
    private HeaderValues() {
    }

    static Optional<String> first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        if (values == null || values.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(values.getFirst());
    }
}
