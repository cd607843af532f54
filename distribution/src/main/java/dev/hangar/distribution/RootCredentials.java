package dev.hangar.distribution;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.MetadataStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The root key pair: taken from configuration when both halves are set, otherwise the one stored in
 * the data folder, generated and printed on the very first start. Cluster nodes must have it
 * configured.
 */
final class RootCredentials {
    private static final Logger LOG = LoggerFactory.getLogger(RootCredentials.class);
    private static final String KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final String SECRET_ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    private static final SecureRandom RANDOM = new SecureRandom();

    private RootCredentials() {}

    /**
     * @param seal how a generated root secret is stored, and a stored one opened
     */
    static AccessKey resolve(HangarProperties properties, MetadataStore metadata, boolean clustered, Clock clock,
            SecretSeal seal) {
        String configuredKey = properties.rootAccessKey();
        String configuredSecret = properties.rootSecretKey();
        if (configuredKey != null && !configuredKey.isBlank()) {
            if (configuredSecret == null || configuredSecret.isBlank()) {
                throw new IllegalStateException("hangar.root-access-key is set but hangar.root-secret-key is not");
            }
            return new AccessKey(configuredKey, configuredSecret, clock.instant());
        }
        if (clustered) {
            // Generating one would need the cluster's metadata before the cluster has formed, and each
            // node would generate its own.
            throw new IllegalStateException("a cluster node needs the root key pair from configuration: set "
                    + "HANGAR_ROOT_ACCESS_KEY and HANGAR_ROOT_SECRET_KEY, the same on every node");
        }
        Optional<AccessKey> stored = metadata.listAccessKeys().stream().filter(AccessKey::root).findFirst();
        if (stored.isPresent()) {
            LOG.info("Root access key: {} (secret stored, sealed, in {})", stored.get().accessKeyId(),
                    properties.dataDir());
            return seal.opened(stored.get());
        }
        AccessKey generated = new AccessKey("HK" + random(KEY_ALPHABET, 18), random(SECRET_ALPHABET, 40), clock.instant());
        metadata.putAccessKey(seal.sealed(generated));
        String banner = """

                ============================================================
                 Hangar generated a root key pair. It is printed only once.
                   access key: %s
                   secret key: %s
                 It is stored in %s; set HANGAR_ROOT_ACCESS_KEY and
                 HANGAR_ROOT_SECRET_KEY to use your own instead.
                ============================================================
                """.formatted(generated.accessKeyId(), generated.secretKey(), properties.dataDir().toAbsolutePath());
        System.out.println(banner);
        System.out.flush();
        return generated;
    }

    private static String random(String alphabet, int length) {
        StringBuilder builder = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            builder.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return builder.toString();
    }
}
