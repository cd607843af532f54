package dev.hangar.s3api.request;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** Request headers with lower-case names, as SigV4 and S3 look at them. */
public record RequestHeaders(Map<String, List<String>> values) {
    public RequestHeaders {
        Map<String, List<String>> lowerCase = new TreeMap<>();
        values.forEach((name, list) -> lowerCase
                .computeIfAbsent(name.toLowerCase(Locale.ROOT), ignored -> new java.util.ArrayList<>())
                .addAll(list));
        lowerCase.replaceAll((name, list) -> List.copyOf(list));
        values = java.util.Collections.unmodifiableMap(lowerCase);
    }

    public @Nullable String first(String name) {
        List<String> list = values.get(name);
        return list == null || list.isEmpty() ? null : list.getFirst();
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }
}
