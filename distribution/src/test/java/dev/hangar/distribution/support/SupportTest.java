package dev.hangar.distribution.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Checks the test helpers themselves, so that an integration failure points at the server. */
class SupportTest {

    @Test
    void crc64NvmeMatchesTheCatalogueCheckValue() {
        Crc64Nvme crc = new Crc64Nvme();
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        crc.update(check, 0, check.length);
        assertThat(crc.getValue()).isEqualTo(0xAE8B14860A799888L);
    }

    @Test
    void flexibleChecksumsEncodeBigEndianBase64() {
        byte[] data = "hello world".getBytes(StandardCharsets.US_ASCII);
        // Values as the AWS SDK computes them for the same input.
        assertThat(FlexibleChecksum.CRC32.base64(data)).isEqualTo("DUoRhQ==");
        assertThat(FlexibleChecksum.CRC32C.base64(data)).isEqualTo("yZRlqg==");
        assertThat(FlexibleChecksum.SHA256.compute(data))
            .isEqualTo(HexFormat.of().parseHex("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"));
    }

    @Test
    void randomContentIsTheSameWhateverTheReadSizes() throws IOException {
        RandomContent content = RandomContent.of(42, 100_003);
        byte[] whole = content.bytes();
        assertThat(whole).hasSize(100_003);
        ByteArrayOutputStream pieces = new ByteArrayOutputStream();
        try (InputStream stream = content.newStream()) {
            int[] sizes = {1, 3, 7, 8, 13, 4096, 5};
            byte[] buffer = new byte[4096];
            int index = 0;
            int read;
            while ((read = stream.read(buffer, 0, sizes[index++ % sizes.length])) >= 0) {
                pieces.write(buffer, 0, read);
            }
        }
        assertThat(pieces.toByteArray()).isEqualTo(whole);
        assertThat(content.bytes(12_345, 777)).isEqualTo(java.util.Arrays.copyOfRange(whole, 12_345, 12_345 + 777));
        assertThat(content.sha256Hex()).isEqualTo(Digests.sha256Hex(whole));
        assertThat(content.md5Hex()).isEqualTo(Digests.md5Hex(whole));
        assertThat(RandomContent.of(43, 100_003).bytes()).isNotEqualTo(whole);
    }

    @Test
    void concatenationAndMultipartEtag() {
        RandomContent first = RandomContent.of(1, 1000);
        RandomContent second = RandomContent.of(2, 10);
        byte[] joined = new byte[1010];
        System.arraycopy(first.bytes(), 0, joined, 0, 1000);
        System.arraycopy(second.bytes(), 0, joined, 1000, 10);
        assertThat(Digests.sha256Hex(RandomContent.concatenation(List.of(first, second)))).isEqualTo(Digests.sha256Hex(joined));
        assertThat(Digests.multipartEtag(List.of(first.md5(), second.md5()))).matches("\"[0-9a-f]{32}-2\"");
    }
}
