package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.cluster.rpc.ClusterSecret;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import dev.hangar.metadata.rocksdb.RocksDbMetadataStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sealing access key secrets: round trips, keys that do not fit, plain secrets of earlier versions. */
class SecretSealTest {
    private static final AccessKey KEY = new AccessKey("HKSEALTEST000000001", "the-secret-key-0123456789abcdef", Instant.EPOCH);

    @TempDir
    Path folder;

    @Test
    void aSealedSecretOpensWithTheSameKeyOnly() {
        SecretSeal seal = SecretSeal.fromMasterKey(folder);

        AccessKey sealed = seal.sealed(KEY);

        assertThat(sealed.secretKey()).startsWith(SecretSeal.PREFIX).doesNotContain(KEY.secretKey());
        assertThat(seal.sealed(KEY).secretKey()).as("a fresh nonce each time").isNotEqualTo(sealed.secretKey());
        assertThat(seal.sealed(sealed)).as("sealing twice changes nothing").isEqualTo(sealed);
        assertThat(seal.opened(sealed).secretKey()).isEqualTo(KEY.secretKey());
        // The same master key file gives the same key: a restart opens what was sealed before it.
        assertThat(SecretSeal.fromMasterKey(folder).opened(sealed).secretKey()).isEqualTo(KEY.secretKey());
        assertThatThrownBy(() -> SecretSeal.fromMasterKey(folder.resolve("other")).opened(sealed))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("another key")
            .hasMessageNotContaining(KEY.secretKey());
    }

    @Test
    void theMasterKeyFileIsTheOwnersOnly() throws Exception {
        SecretSeal.fromMasterKey(folder);

        Path file = folder.resolve(SecretSeal.MASTER_KEY_FILE);
        assertThat(Files.size(file)).isEqualTo(32);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void everyNodeOfAClusterOpensWhatAnotherSealed() {
        AccessKey sealed = SecretSeal.fromClusterSecret(ClusterSecret.of("the-cluster-secret-0123456789")).sealed(KEY);

        assertThat(SecretSeal.fromClusterSecret(ClusterSecret.of("the-cluster-secret-0123456789")).opened(sealed)
            .secretKey()).isEqualTo(KEY.secretKey());
        assertThatThrownBy(() -> SecretSeal.fromClusterSecret(ClusterSecret.of("another-cluster-secret-0123"))
            .opened(sealed)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aSealedSecretMovedToAnotherKeyIdDoesNotOpen() {
        SecretSeal seal = SecretSeal.fromMasterKey(folder);
        AccessKey sealed = seal.sealed(KEY);
        AccessKey moved = new AccessKey("HKSOMEONEELSE000001", sealed.secretKey(), Instant.EPOCH);

        assertThatThrownBy(() -> seal.opened(moved)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void plainSecretsOfEarlierVersionsOpenAsTheyAreAndAreSealedInPlace() {
        SecretSeal seal = SecretSeal.fromMasterKey(folder);
        try (RocksDbMetadataStore metadata = RocksDbMetadataStore.open(
                RocksDbConfig.defaults(folder.resolve("metadata")))) {
            metadata.putAccessKey(KEY);
            assertThat(seal.opened(metadata.getAccessKey(KEY.accessKeyId()).orElseThrow()).secretKey())
                .isEqualTo(KEY.secretKey());

            assertThat(seal.sealStored(metadata)).isEqualTo(1);
            assertThat(seal.sealStored(metadata)).isZero();

            AccessKey stored = metadata.getAccessKey(KEY.accessKeyId()).orElseThrow();
            assertThat(stored.secretKey()).startsWith(SecretSeal.PREFIX);
            assertThat(seal.opened(stored).secretKey()).isEqualTo(KEY.secretKey());
        }
    }

    @Test
    void anAccessKeyPrintsNoSecret() {
        assertThat(KEY.toString()).contains(KEY.accessKeyId()).doesNotContain(KEY.secretKey());
    }
}
