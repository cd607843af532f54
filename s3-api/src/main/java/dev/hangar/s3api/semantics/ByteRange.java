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
        if (firstText.isEmpty()) {
            if (lastText.isEmpty()) {
                return Optional.empty();
            }
            long suffix = parseOrMax(lastText);
            if (suffix == 0 || size == 0) {
                throw unsatisfiable(size);
            }
            return Optional.of(new ByteRange(Math.max(0, size - suffix), size - 1));
        }
        long first = parseOrMax(firstText);
        long requestedLast = lastText.isEmpty() ? Long.MAX_VALUE : parseOrMax(lastText);
        if (requestedLast < first) {
            return Optional.empty();
        }
        if (first >= size) {
            throw unsatisfiable(size);
        }
        return Optional.of(new ByteRange(first, Math.min(requestedLast, size - 1)));
    }

    /** A position too large for a long lies beyond the end of any object. */
    private static long parseOrMax(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException tooLarge) {
            return Long.MAX_VALUE;
        }
    }

    private static S3Exception unsatisfiable(long size) {
        return new S3Exception(S3Error.INVALID_RANGE, "The requested range is not satisfiable (object size " + size + ")");
    }
}
