package dev.hangar.bench.load;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads a size in bytes: {@code 256}, {@code 256B}, {@code 4KiB}, {@code 10MiB}, {@code 1GiB}. */
public final class ByteSize implements ITypeConverter<Integer> {

    @Override
    public Integer convert(String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (text.endsWith("kib") || text.endsWith("k")) {
            unit = 1024;
        } else if (text.endsWith("mib") || text.endsWith("m")) {
            unit = 1024 * 1024;
        } else if (text.endsWith("gib") || text.endsWith("g")) {
            unit = 1024 * 1024 * 1024;
        }
        String digits = text.replaceAll("(kib|mib|gib|k|m|g|b)$", "");
        try {
            long bytes = Long.parseLong(digits) * unit;
            if (bytes <= 0 || bytes > Integer.MAX_VALUE - 16) {
                throw new TypeConversionException("size out of range: " + value);
            }
            return (int) bytes;
        } catch (NumberFormatException e) {
            throw new TypeConversionException("not a size (examples: 16, 4KiB, 10MiB): " + value);
        }
    }

    public static String format(long bytes) {
        if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + "MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + "KiB";
        }
        return bytes + "B";
    }
}
