package dev.hangar.distribution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bearer token of the administration API: configured ({@code hangar.admin.token}), read from a file
 * ({@code hangar.admin.token-file}), or generated on the first start into {@code <data-dir>/admin-token},
 * readable by its owner only, and read from there on later starts.
 *
 * <p>Unlike the generated root secret, which lives inside RocksDB and so is printed once, the token is never
 * printed nor logged: whoever may administer the server can read the file, and a log line would outlive any
 * rotation of it. Only its SHA-256 digest is kept in memory, and presented tokens are compared digest to digest
 * in constant time, so neither the token's length nor a common prefix shows in the time a refusal takes.
 */
final class AdminToken {
    private static final Logger LOG = LoggerFactory.getLogger(AdminToken.class);
    static final String FILE_NAME = "admin-token";
    /** Configured tokens shorter than this are refused: the token is the only thing guarding the API. */
    static final int MINIMUM_LENGTH = 16;
    /** 32 random bytes, 256 bits, as 43 characters of URL-safe base64. */
    private static final int GENERATED_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] digest;
    private final String source;

    private AdminToken(String token, String source) {
        this.digest = sha256(token);
        this.source = source;
    }

    /** A token known in advance (tests). */
    static AdminToken of(String token) {
        return new AdminToken(checked(token, "the administration token"), "given");
    }

    /**
     * The token the settings name, or the generated one.
     *
     * @throws IllegalStateException when both a token and a token file are configured, or the token is too short
     */
    static AdminToken resolve(@Nullable String configured, @Nullable Path file, Path dataDir) {
        boolean hasConfigured = configured != null && !configured.isBlank();
        if (hasConfigured && file != null) {
            throw new IllegalStateException("set hangar.admin.token or hangar.admin.token-file, not both");
        }
        if (hasConfigured) {
            LOG.info("Administration token: from hangar.admin.token");
            return new AdminToken(checked(configured.strip(), "hangar.admin.token"), "hangar.admin.token");
        }
        if (file != null) {
            LOG.info("Administration token: read from {} (hangar.admin.token-file)", file.toAbsolutePath());
            return new AdminToken(read(file, "hangar.admin.token-file " + file), file.toString());
        }
        Path generated = dataDir.resolve(FILE_NAME).toAbsolutePath();
        if (Files.exists(generated)) {
            warnIfOthersMayRead(generated);
            LOG.info("Administration token: read from {}; send it as 'Authorization: Bearer <token>'", generated);
            return new AdminToken(read(generated, generated.toString()), generated.toString());
        }
        String token = generate(generated);
        LOG.info("Administration token generated in {} (readable by its owner only; it is not printed); send it "
                + "as 'Authorization: Bearer <token>', or set HANGAR_ADMIN_TOKEN to use your own", generated);
        return new AdminToken(token, generated.toString());
    }

    /** Whether {@code presented} is the token, compared in constant time. */
    boolean matches(@Nullable String presented) {
        if (presented == null || presented.isEmpty()) {
            return false;
        }
        return MessageDigest.isEqual(digest, sha256(presented));
    }

    /** Where the token came from: {@code hangar.admin.token}, or the file it was read from. */
    String source() {
        return source;
    }

    @Override
    public String toString() {
        return "AdminToken[" + source + "]";
    }

    private static String read(Path file, String what) {
        try {
            return checked(Files.readString(file, StandardCharsets.UTF_8).strip(), what);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the administration token from " + what, e);
        }
    }

    private static String checked(String token, String what) {
        if (token.length() < MINIMUM_LENGTH) {
            throw new IllegalStateException(what + " must be at least " + MINIMUM_LENGTH + " characters long");
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            // What an Authorization header can carry as one token.
            if (c <= ' ' || c >= 0x7f) {
                throw new IllegalStateException(what + " must be printable ASCII without spaces");
            }
        }
        return token;
    }

    /**
     * Writes a new token to a temporary file that only its owner may read or write (0600), forces it to disk and
     * renames it into place, so that a crash never leaves half a token and the token is never readable by others.
     */
    private static String generate(Path target) {
        byte[] random = new byte[GENERATED_BYTES];
        RANDOM.nextBytes(random);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        try {
            Files.createDirectories(target.getParent());
            Path temporary = posix(target.getParent())
                    ? Files.createTempFile(target.getParent(), FILE_NAME, ".tmp", PosixFilePermissions.asFileAttribute(
                            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE)))
                    : Files.createTempFile(target.getParent(), FILE_NAME, ".tmp");
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.wrap((token + "\n").getBytes(StandardCharsets.US_ASCII)));
                channel.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store the generated administration token in " + target, e);
        }
        return token;
    }

    private static boolean posix(Path folder) throws IOException {
        return Files.getFileStore(folder).supportsFileAttributeView(PosixFileAttributeView.class);
    }

    private static void warnIfOthersMayRead(Path file) {
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            if (permissions.contains(PosixFilePermission.GROUP_READ)
                    || permissions.contains(PosixFilePermission.OTHERS_READ)) {
                LOG.warn("{} is readable by other users than its owner, who can then administer the server: "
                        + "chmod 600 it", file);
            }
        } catch (UnsupportedOperationException | IOException e) {
            // Not a POSIX file system: nothing to check.
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
