package dev.hangar.s3api.semantics;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An inclusive byte range of an object, resolved against the object's size. */
record ByteRange(long first, long last) {
    private static final Pattern SINGLE_RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

    long length() {
        return last - first + 1;
    }

    String contentRange(long size) {
        return "bytes " + first + "-" + last + "/" + size;
    }

    /**
     * Parses a Range header the way S3 does: one range only; a header S3 would ignore (syntax it
     * does not understand, several ranges) selects the whole object; a range that starts beyond the
     * end is unsatisfiable.
     */
    static Optional<ByteRange> parse(String header, long size) {
        if (header == null) {
            return Optional.empty();
        }
        Matcher matcher = SINGLE_RANGE.matcher(header.trim());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String firstText = matcher.group(1);
        String lastText = matcher.group(2);
        try {
            if (firstText.isEmpty()) {
                if (lastText.isEmpty()) {
                    return Optional.empty();
                }
                long suffix = Long.parseLong(lastText);
                if (suffix == 0 || size == 0) {
                    throw unsatisfiable(size);
                }
                return Optional.of(new ByteRange(Math.max(0, size - suffix), size - 1));
            }
            long first = Long.parseLong(firstText);
            long last = lastText.isEmpty() ? size - 1 : Math.min(Long.parseLong(lastText), size - 1);
            if (!lastText.isEmpty() && Long.parseLong(lastText) < first) {
                return Optional.empty();
            }
            if (first >= size) {
                throw unsatisfiable(size);
            }
            return Optional.of(new ByteRange(first, last));
        } catch (NumberFormatException tooLarge) {
            return Optional.empty();
        }
    }

    private static S3Exception unsatisfiable(long size) {
        return new S3Exception(S3Error.INVALID_RANGE, "The requested range is not satisfiable (object size " + size + ")");
    }
}
