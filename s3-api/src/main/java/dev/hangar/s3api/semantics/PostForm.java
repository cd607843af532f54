package dev.hangar.s3api.semantics;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A browser upload as the web layer parsed it: the form fields that came before the file (names
 * lower-case, a repeated field's values joined with commas), the file's name as the browser gave it,
 * the file's bytes as a stream, and the request facts bucket policies can test ({@code aws:SourceIp},
 * {@code aws:SecureTransport}), as a {@link Caller}'s context holds them.
 */
public record PostForm(
        Map<String, String> fields, @Nullable String filename, InputStream file, Map<String, List<String>> context) {
    public PostForm {
        fields = Map.copyOf(fields);
        context = Map.copyOf(context);
    }

    /** A form without request facts. */
    public PostForm(Map<String, String> fields, @Nullable String filename, InputStream file) {
        this(fields, filename, file, Map.of());
    }
}
