package dev.hangar.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** How the objects of the {@code encryption} benchmark are stored: in the clear, with the customer's key, or with S3's keys. */
enum EncryptionMode {
    PLAIN("plain"),
    SSE_C("sse-c"),
    SSE_S3("sse-s3");

    private final String label;

    EncryptionMode(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** The modes of a comma-separated list such as {@code plain,sse-c}, each once, in the order given. */
    static List<EncryptionMode> parseList(String text) {
        List<EncryptionMode> modes = new ArrayList<>();
        for (String item : text.split(",", -1)) {
            EncryptionMode mode = parse(item);
            if (modes.contains(mode)) {
                throw new TypeConversionException("mode given twice: " + mode.label);
            }
            modes.add(mode);
        }
        return List.copyOf(modes);
    }

    static EncryptionMode parse(String text) {
        String label = text.trim().toLowerCase(Locale.ROOT);
        for (EncryptionMode mode : values()) {
            if (mode.label.equals(label)) {
                return mode;
            }
        }
        throw new TypeConversionException("not a mode (plain, sse-c, sse-s3): '" + text + "'");
    }

    /** Reads {@code --modes}. */
    static final class ListConverter implements ITypeConverter<List<EncryptionMode>> {
        @Override
        public List<EncryptionMode> convert(String value) {
            return parseList(value);
        }
    }
}
