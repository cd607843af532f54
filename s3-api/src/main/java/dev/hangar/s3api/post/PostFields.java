package dev.hangar.s3api.post;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The {@code ${filename}} variable of a POST form, which every form field may use, most often {@code key}. */
public final class PostFields {
    /** The variable, replaced by the name of the uploaded file. */
    public static final String FILENAME_VARIABLE = "${filename}";

    private PostFields() {
    }

    /**
     * The object key a {@code key} field names: {@code user/${filename}} with a file {@code photo.jpg} is
     * {@code user/photo.jpg}.
     *
     * @param keyField the {@code key} field as sent
     * @param filename the {@code filename} parameter of the file part's {@code Content-Disposition}; only what
     *     follows its last {@code /} or {@code \} is used ({@code C:\dir\file.txt} is {@code file.txt}). An empty
     *     name replaces the variable with nothing; a file part without the parameter ({@code null}) leaves the
     *     variable as it is, as S3 was recorded doing.
     */
    public static String resolveKey(String keyField, @Nullable String filename) {
        if (filename == null) {
            return keyField;
        }
        return keyField.replace(FILENAME_VARIABLE, baseName(filename));
    }

    /**
     * Every field with {@code ${filename}} expanded ({@link #resolveKey}), names lower-cased, in the order given:
     * what {@link PostPolicyCheck} judges, since S3 expands variables before it checks the policy.
     *
     * @throws IllegalArgumentException when two names differ only in case; join repeated fields with commas
     *     before, as S3 compares them
     */
    public static Map<String, String> resolveFilename(Map<String, String> fields, @Nullable String filename) {
        Map<String, String> resolved = new LinkedHashMap<>();
        fields.forEach((name, value) -> {
            if (resolved.put(name.toLowerCase(Locale.ROOT), resolveKey(value, filename)) != null) {
                throw new IllegalArgumentException("form field given twice: " + name);
            }
        });
        return resolved;
    }

    private static String baseName(String filename) {
        int slash = Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\'));
        return filename.substring(slash + 1);
    }
}
