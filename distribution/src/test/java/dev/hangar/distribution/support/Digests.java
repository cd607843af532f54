package dev.hangar.distribution.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Streaming digests: every helper reads its stream in small buffers and closes it. */
public final class Digests {

    private static final int BUFFER_SIZE = 64 * 1024;

    private Digests() {
    }

    public record Both(String sha256Hex, byte[] md5, long length) {
    }

    /** Summary of a stream: its SHA-256 and its length, read without holding it. */
    public record Summary(String sha256Hex, long length) {
    }

    public static MessageDigest sha256() {
        return digest("SHA-256");
    }

    public static MessageDigest md5() {
        return digest("MD5");
    }

    public static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    public static String sha256Hex(byte[] bytes) {
        return hex(sha256().digest(bytes));
    }

    public static String md5Hex(byte[] bytes) {
        return hex(md5().digest(bytes));
    }

    /** Reads the stream to its end, closes it, and returns its SHA-256 and length. */
    public static Summary summarize(InputStream stream) {
        MessageDigest sha256 = sha256();
        long length = 0;
        try (InputStream in = stream) {
            byte[] buffer = new byte[BUFFER_SIZE];
            int read;
            while ((read = in.read(buffer)) >= 0) {
                sha256.update(buffer, 0, read);
                length += read;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Summary(hex(sha256.digest()), length);
    }

    public static String sha256Hex(InputStream stream) {
        return summarize(stream).sha256Hex();
    }

    public static Both sha256AndMd5(InputStream stream) {
        MessageDigest sha256 = sha256();
        MessageDigest md5 = md5();
        long length = 0;
        try (InputStream in = stream) {
            byte[] buffer = new byte[BUFFER_SIZE];
            int read;
            while ((read = in.read(buffer)) >= 0) {
                sha256.update(buffer, 0, read);
                md5.update(buffer, 0, read);
                length += read;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Both(hex(sha256.digest()), md5.digest(), length);
    }

    /** The ETag of a completed multipart upload: hex MD5 of the concatenated binary part MD5s, dash, part count. */
    public static String multipartEtag(List<byte[]> partMd5s) {
        MessageDigest md5 = md5();
        partMd5s.forEach(md5::update);
        return '"' + hex(md5.digest()) + "-" + partMd5s.size() + '"';
    }
}
