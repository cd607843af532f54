package dev.hangar.s3api.cors;

/**
 * S3's CORS patterns: {@code *} stands for any run of characters, the empty run included, and
 * every other character stands for itself; a pattern matches a whole value. Validation allows one
 * {@code *} per pattern, but any number is matched correctly.
 */
final class Wildcards {
    private Wildcards() {}

    static boolean matches(String pattern, String value) {
        int star = pattern.indexOf('*');
        if (star < 0) {
            return pattern.equals(value);
        }
        String head = pattern.substring(0, star);
        if (!value.startsWith(head)) {
            return false;
        }
        // Each further piece between stars is matched at its first occurrence, which is always
        // the best choice; the piece after the last star must end the value.
        int position = head.length();
        int pieceStart = star + 1;
        int nextStar = pattern.indexOf('*', pieceStart);
        while (nextStar >= 0) {
            String piece = pattern.substring(pieceStart, nextStar);
            int found = value.indexOf(piece, position);
            if (found < 0) {
                return false;
            }
            position = found + piece.length();
            pieceStart = nextStar + 1;
            nextStar = pattern.indexOf('*', pieceStart);
        }
        String tail = pattern.substring(pieceStart);
        return value.length() - position >= tail.length() && value.endsWith(tail);
    }
}
