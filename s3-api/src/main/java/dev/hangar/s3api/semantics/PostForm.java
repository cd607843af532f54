package dev.hangar.s3api.semantics;

import java.io.InputStream;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A browser upload as the web layer parsed it: the form fields that came before the file (names
 * lower-case), the file's name as the browser gave it, and the file's bytes as a stream.
 */
public record PostForm(Map<String, String> fields, @Nullable String filename, InputStream file) {
    public PostForm {
        fields = Map.copyOf(fields);
    }
}
