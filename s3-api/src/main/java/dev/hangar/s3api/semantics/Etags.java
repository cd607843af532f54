package dev.hangar.s3api.semantics;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** S3 entity tags: MD5 of the bytes for a single PUT, MD5 of the part MD5s plus the part count for multipart. */
final class Etags {
    private static final HexFormat HEX = HexFormat.of();

    private Etags() {}

    static String of(byte[] md5) {
        return '"' + HEX.formatHex(md5) + '"';
    }

    static String multipart(List<String> partEtags) {
        MessageDigest md5 = md5();
        for (String etag : partEtags) {
            md5.update(HEX.parseHex(unquote(etag)));
        }
        return '"' + HEX.formatHex(md5.digest()) + "-" + partEtags.size() + '"';
    }

    static String unquote(String etag) {
        String trimmed = etag.trim();
        if (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
            return trimmed.substring(1, trimmed.length() - 1);
        }
        return trimmed;
    }

    static boolean sameTag(String left, String right) {
        return unquote(left).equals(unquote(right));
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }
}
