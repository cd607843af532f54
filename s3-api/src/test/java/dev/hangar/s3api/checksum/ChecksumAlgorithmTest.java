package dev.hangar.s3api.checksum;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;

class ChecksumAlgorithmTest {
    private static final byte[] CHECK_INPUT = "123456789".getBytes(StandardCharsets.US_ASCII);

    /** The catalogued CRC check values (of "123456789") and the FIPS 180 "abc" digests. */
    static Stream<Arguments> knownVectors() {
        return Stream.of(
                Arguments.of(ChecksumAlgorithm.CRC32, "123456789", "cbf43926"),
                Arguments.of(ChecksumAlgorithm.CRC32C, "123456789", "e3069283"),
                Arguments.of(ChecksumAlgorithm.CRC64NVME, "123456789", "ae8b14860a799888"),
                Arguments.of(ChecksumAlgorithm.SHA1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
                Arguments.of(ChecksumAlgorithm.SHA256, "abc",
                        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
                Arguments.of(ChecksumAlgorithm.CRC32, "", "00000000"),
                Arguments.of(ChecksumAlgorithm.CRC32C, "", "00000000"),
                Arguments.of(ChecksumAlgorithm.CRC64NVME, "", "0000000000000000"),
                Arguments.of(ChecksumAlgorithm.SHA1, "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
                Arguments.of(ChecksumAlgorithm.SHA256, "",
                        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    }

    @ParameterizedTest
    @MethodSource("knownVectors")
    void matchesKnownVectors(ChecksumAlgorithm algorithm, String input, String expectedHex) {
        byte[] digest = digest(algorithm, input.getBytes(StandardCharsets.US_ASCII));

        assertThat(HexFormat.of().formatHex(digest)).isEqualTo(expectedHex);
    }

    @Test
    void encodesBigEndianBase64AsS3Does() {
        // x-amz-checksum-crc32 carries the base64 of the CRC's 4 big-endian bytes: 0xCBF43926 is "y/Q5Jg==".
        ChecksumHasher hasher = ChecksumAlgorithm.CRC32.newHasher();
        hasher.update(CHECK_INPUT, 0, CHECK_INPUT.length);

        assertThat(hasher.digestBase64()).isEqualTo("y/Q5Jg==");
    }

    @ParameterizedTest
    @EnumSource(value = ChecksumAlgorithm.class, names = {"CRC32", "CRC32C", "SHA1", "SHA256"})
    void agreesWithTheAwsSdk(ChecksumAlgorithm algorithm) {
        Random random = new Random(algorithm.ordinal());
        for (int length : new int[] {0, 1, 7, 8, 9, 63, 64, 1000, 65_537}) {
            byte[] data = new byte[length];
            random.nextBytes(data);
            SdkChecksum sdk = SdkChecksum.forAlgorithm(DefaultChecksumAlgorithm.fromValue(algorithm.name()));
            sdk.update(data, 0, data.length);

            assertThat(digest(algorithm, data)).as("%s of %d bytes", algorithm, length)
                    .isEqualTo(sdk.getChecksumBytes());
        }
    }

    @ParameterizedTest
    @EnumSource(ChecksumAlgorithm.class)
    void givesTheSameDigestWhateverTheUpdateSizes(ChecksumAlgorithm algorithm) {
        Random random = new Random(42);
        byte[] data = new byte[10_000];
        random.nextBytes(data);
        byte[] oneShot = digest(algorithm, data);

        for (int round = 0; round < 20; round++) {
            ChecksumHasher hasher = algorithm.newHasher();
            int offset = 0;
            while (offset < data.length) {
                int length = Math.min(random.nextInt(40), data.length - offset);
                hasher.update(data, offset, length);
                offset += length;
            }
            assertThat(hasher.digest()).isEqualTo(oneShot);
        }
    }

    @Test
    void crc64NvmeSliceBy8AgreesWithTheBitwiseDefinition() {
        Random random = new Random(7);
        for (int length = 0; length < 300; length++) {
            byte[] data = new byte[length + 5];
            random.nextBytes(data);
            int offset = length % 5;
            Crc64Nvme crc = new Crc64Nvme();
            crc.update(data, offset, length);

            assertThat(crc.getValue()).as("length %d at offset %d", length, offset)
                    .isEqualTo(bitwiseCrc64Nvme(data, offset, length));
        }
    }

    @Test
    void crc64NvmeSingleByteUpdatesAgreeWithArrayUpdates() {
        Crc64Nvme single = new Crc64Nvme();
        for (byte value : CHECK_INPUT) {
            single.update(value);
        }

        assertThat(single.getValue()).isEqualTo(0xAE8B14860A799888L);
        single.reset();
        assertThat(single.getValue()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ChecksumAlgorithm.class)
    void namesItsHeaderAndParsesIt(ChecksumAlgorithm algorithm) {
        String headerName = "x-amz-checksum-" + algorithm.name().toLowerCase(Locale.ROOT);

        assertThat(algorithm.headerName()).isEqualTo(headerName);
        assertThat(ChecksumAlgorithm.fromHeaderName(headerName.toUpperCase(Locale.ROOT))).contains(algorithm);
        assertThat(ChecksumAlgorithm.fromName(algorithm.name().toLowerCase(Locale.ROOT))).contains(algorithm);
        assertThat(algorithm.newHasher().digest()).hasSize(algorithm.digestLength());
        assertThat(Base64.getDecoder().decode(algorithm.newHasher().digestBase64())).hasSize(algorithm.digestLength());
    }

    @Test
    void ignoresChecksumHeadersThatAreNotChecksums() {
        assertThat(ChecksumAlgorithm.fromHeaderName("x-amz-checksum-type")).isEmpty();
        assertThat(ChecksumAlgorithm.fromHeaderName("x-amz-checksum-mode")).isEmpty();
        assertThat(ChecksumAlgorithm.fromHeaderName("x-amz-checksum-algorithm")).isEmpty();
        assertThat(ChecksumAlgorithm.fromName("MD5")).isEmpty();
    }

    private static byte[] digest(ChecksumAlgorithm algorithm, byte[] data) {
        ChecksumHasher hasher = algorithm.newHasher();
        hasher.update(data, 0, data.length);
        return hasher.digest();
    }

    /** CRC-64/NVME straight from its definition, one bit at a time. */
    private static long bitwiseCrc64Nvme(byte[] data, int offset, int length) {
        long crc = -1L;
        for (int index = offset; index < offset + length; index++) {
            crc ^= data[index] & 0xFF;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0x9A6C9329AC4BC9B5L : crc >>> 1;
            }
        }
        return ~crc;
    }
}
