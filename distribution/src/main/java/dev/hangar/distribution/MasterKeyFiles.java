package dev.hangar.distribution;

import dev.hangar.s3api.encryption.MasterKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code hangar.encryption.*} into the key service's {@link MasterKeys}: the current key from the environment
 * secret or its file, earlier ones from their files. A key file inside the data folder is refused, since a master
 * key kept beside the data it protects protects nothing against whoever copies the folder.
 */
final class MasterKeyFiles {
    private static final Logger LOG = LoggerFactory.getLogger(MasterKeyFiles.class);

    private MasterKeyFiles() {}

    /** The configured master keys; none when no master key is configured (SSE-S3 is then refused). */
    static Optional<MasterKeys> load(HangarProperties properties) {
        HangarProperties.Encryption encryption = properties.encryption();
        boolean inline = encryption.masterKey() != null && !encryption.masterKey().isBlank();
        if (inline && encryption.masterKeyFile() != null) {
            throw new IllegalStateException(
                    "set hangar.encryption.master-key or hangar.encryption.master-key-file, not both");
        }
        List<byte[]> previous = new ArrayList<>();
        for (Path file : encryption.previousMasterKeyFiles()) {
            previous.add(read(file, properties.dataDir()));
        }
        if (!inline && encryption.masterKeyFile() == null) {
            if (!previous.isEmpty()) {
                throw new IllegalStateException("hangar.encryption.previous-master-key-files is set without a current "
                        + "master key (hangar.encryption.master-key-file or hangar.encryption.master-key)");
            }
            return Optional.empty();
        }
        byte[] current = inline
                ? decode(encryption.masterKey(), "hangar.encryption.master-key")
                : read(encryption.masterKeyFile(), properties.dataDir());
        MasterKeys keys = MasterKeys.of(current, previous);
        // Ids only: derived from the keys, they tell which key a node has without revealing it.
        LOG.info("SSE-S3 master keys: current {}, all {}", keys.currentId(), keys.ids());
        return Optional.of(keys);
    }

    private static byte[] read(Path file, Path dataDir) {
        Path absolute = file.toAbsolutePath().normalize();
        if (absolute.startsWith(dataDir.toAbsolutePath().normalize())) {
            throw new IllegalStateException("the master key file " + file + " is inside the data folder " + dataDir
                    + ": keep it elsewhere (a mounted secret, another disk), or anyone who copies the data folder "
                    + "can decrypt it");
        }
        try {
            return decode(Files.readString(absolute, StandardCharsets.US_ASCII), "the master key file " + file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the master key file " + file, e);
        }
    }

    private static byte[] decode(String base64, String where) {
        byte[] key;
        try {
            key = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(where + " is not base64 (make one with `openssl rand -base64 32`)");
        }
        if (key.length != 32) {
            throw new IllegalStateException(where + " holds " + key.length + " bytes; a master key has 32 (256 bits: "
                    + "`openssl rand -base64 32`)");
        }
        return key;
    }
}
