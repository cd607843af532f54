package dev.hangar.s3api.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MasterKeysTest {
    private static final Random RANDOM = new Random(29);

    @Test
    void aWrappedDataKeyUnwrapsToTheSameKeyForItsPurposeOnly() throws IOException {
        MasterKeys keys = MasterKeys.of(bytes(32), List.of());
        ContentKey dataKey = ContentKey.random();

        String wrapped = keys.wrap(dataKey, "sse-s3 data key");

        assertThat(wrapped).startsWith(keys.currentId() + ":").isNotEqualTo(keys.wrap(dataKey, "sse-s3 data key"));
        assertSameKey(keys.unwrap(wrapped, "sse-s3 data key"), dataKey);
        assertThatThrownBy(() -> keys.unwrap(wrapped, "another purpose")).isInstanceOf(IllegalArgumentException.class);
        // One bit of the sealed key flipped: same length, so only the GCM tag can tell.
        String id = MasterKeys.idOfWrapped(wrapped);
        byte[] sealed = java.util.Base64.getDecoder().decode(wrapped.substring(id.length() + 1));
        sealed[20] ^= 1;
        String damaged = id + ":" + java.util.Base64.getEncoder().encodeToString(sealed);
        assertThatThrownBy(() -> keys.unwrap(damaged, "sse-s3 data key")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("did not wrap");
    }

    @Test
    void afterARotationTheNewKeyWrapsAndTheOldOneStillUnwraps() throws IOException {
        byte[] old = bytes(32);
        byte[] rotated = bytes(32);
        MasterKeys before = MasterKeys.of(old, List.of());
        MasterKeys after = MasterKeys.of(rotated, List.of(old));
        ContentKey dataKey = ContentKey.random();
        String wrappedBefore = before.wrap(dataKey, "p");

        assertThat(after.currentId()).isNotEqualTo(before.currentId());
        assertThat(after.ids()).containsExactly(after.currentId(), before.currentId());
        assertSameKey(after.unwrap(wrappedBefore, "p"), dataKey);
        assertThat(MasterKeys.idOfWrapped(after.wrap(dataKey, "p"))).isEqualTo(after.currentId());

        MasterKeys retired = MasterKeys.of(rotated, List.of());
        assertThatThrownBy(() -> retired.unwrap(wrappedBefore, "p"))
                .isInstanceOf(MasterKeys.UnknownMasterKeyException.class).hasMessageContaining(before.currentId());
    }

    @Test
    void idsAndDescriptionsRevealNoKey() {
        byte[] key = bytes(32);
        MasterKeys keys = MasterKeys.of(key, List.of());

        assertThat(keys.currentId()).hasSize(16).isEqualTo(MasterKeys.idOf(key.clone()));
        assertThat(keys.toString()).doesNotContain(java.util.HexFormat.of().formatHex(key))
                .doesNotContain(java.util.Base64.getEncoder().encodeToString(key));
        assertThatThrownBy(() -> MasterKeys.of(bytes(16), List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    /** Two keys are the same when content one seals the other unseals. */
    private static void assertSameKey(ContentKey actual, ContentKey expected) throws IOException {
        byte[] plain = bytes(1000);
        byte[] sealed = new SealingStream(new ByteArrayInputStream(plain), expected).readAllBytes();
        byte[] salt = Arrays.copyOf(sealed, SealedFormat.SALT);
        SegmentRun run = SegmentRun.of(plain.length, 0, plain.length);
        byte[] opened = new UnsealingStream(new ByteArrayInputStream(sealed, SealedFormat.SALT,
                sealed.length - SealedFormat.SALT), actual, salt, run).readAllBytes();
        assertThat(opened).isEqualTo(plain);
        assertThat(actual.matches(expected.check())).isTrue();
    }

    private static byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
