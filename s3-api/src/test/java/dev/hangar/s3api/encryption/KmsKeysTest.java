package dev.hangar.s3api.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import dev.hangar.metadata.rocksdb.RocksDbMetadataStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KmsKeysTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T12:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path folder;

    private final byte[] master = new byte[32];
    private MetadataStore store;
    private KmsKeys keys;

    @BeforeEach
    void openStore() {
        store = RocksDbMetadataStore.open(RocksDbConfig.defaults(folder));
        keys = new KmsKeys(store, MasterKeys.of(master, List.of()), "us-east-1", CLOCK);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void aKeyIsFoundByIdArnAndItsMaterialStaysTheSame() {
        KmsKey made = keys.create("orders");

        assertThat(made.id()).matches("[0-9a-f-]{36}");
        assertThat(keys.arn(made.id())).isEqualTo("arn:aws:kms:us-east-1:000000000000:key/" + made.id());
        assertThat(keys.find(made.id())).contains(made);
        assertThat(keys.find(keys.arn(made.id()))).contains(made);
        assertThat(keys.find("no-such-key")).isEmpty();
        ContentKey material = keys.material(made);
        String wrapped = material.wrap(ContentKey.random(), "p");
        assertThat(keys.material(keys.find(made.id()).orElseThrow()).unwrap(wrapped, "p")).isNotNull();
        assertThat(new String(store.getServiceConfig(KmsKeys.KIND, made.id()).orElseThrow()))
                .doesNotContain("material=\n").contains("description=");
        assertThat(keys.find("")).isEmpty();
        assertThat(keys.find("alias/")).isEmpty();
    }

    @Test
    void theDefaultKeyIsMadeOnceAndFoundByItsAlias() {
        KmsKey first = keys.defaultKey();

        assertThat(keys.defaultKey()).isEqualTo(first);
        assertThat(keys.find("alias/aws/s3")).contains(first);
        assertThat(keys.find("arn:aws:kms:us-east-1:000000000000:alias/aws/s3")).contains(first);
        assertThat(keys.list()).containsExactly(first);
    }

    @Test
    void aDisabledKeyStaysStoredAndCanBeEnabledAgain() {
        KmsKey made = keys.create("");

        assertThat(keys.setEnabled(made.id(), false)).hasValueSatisfying(key -> assertThat(key.enabled()).isFalse());
        assertThat(keys.find(made.id()).orElseThrow().enabled()).isFalse();
        assertThat(keys.setEnabled(made.id(), true).orElseThrow().enabled()).isTrue();
        assertThat(keys.setEnabled("missing", true)).isEmpty();
    }

    @Test
    void afterAMasterKeyRotationRewrapFreesTheKeysFromTheOldMasterKey() {
        KmsKey made = keys.create("before");
        ContentKey dataKey = ContentKey.random();
        String wrapped = keys.material(made).wrap(dataKey, "data");
        byte[] newMaster = new byte[32];
        newMaster[0] = 7;
        KmsKeys rotated = new KmsKeys(store, MasterKeys.of(newMaster, List.of(master)), "us-east-1", CLOCK);

        assertThat(rotated.rewrap()).isEqualTo(1);
        assertThat(rotated.rewrap()).isZero();
        KmsKeys retired = new KmsKeys(store, MasterKeys.of(newMaster, List.of()), "us-east-1", CLOCK);
        ContentKey unwrapped = retired.material(retired.find(made.id()).orElseThrow()).unwrap(wrapped, "data");
        assertThat(unwrapped.matches(dataKey.check())).isTrue();
        assertThatThrownBy(() -> keys.material(retired.find(made.id()).orElseThrow()))
                .isInstanceOf(MasterKeys.UnknownMasterKeyException.class);
    }

    @Test
    void documentsRoundTripAndNeverShowTheMaterial() {
        KmsKey key = keys.create("a description\nwith a line break");

        assertThat(KmsKey.decode(key.encode())).isEqualTo(key);
        assertThat(key.toString()).doesNotContain(key.wrappedMaterial());
        assertThatThrownBy(() -> KmsKey.decode("something else".getBytes())).isInstanceOf(IllegalArgumentException.class);
    }
}
