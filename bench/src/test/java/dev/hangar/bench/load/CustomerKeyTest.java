package dev.hangar.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class CustomerKeyTest {

    @Test
    void carriesA256BitKeyAndItsMd5InBase64() throws Exception {
        CustomerKey key = CustomerKey.random(new SecureRandom());
        byte[] raw = Base64.getDecoder().decode(key.base64());

        assertThat(raw).hasSize(32);
        assertThat(Base64.getDecoder().decode(key.md5())).isEqualTo(MessageDigest.getInstance("MD5").digest(raw));
        assertThat(CustomerKey.random(new SecureRandom()).base64()).isNotEqualTo(key.base64());
    }

    @Test
    void neverPrintsTheKey() {
        CustomerKey key = CustomerKey.of(new byte[32]);
        assertThat(key.toString()).doesNotContain(key.base64()).contains(key.md5());
    }
}
