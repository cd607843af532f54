package dev.hangar.s3api.checksum;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CrcCombinationTest {

    @ParameterizedTest
    @EnumSource(value = ChecksumAlgorithm.class, names = {"CRC32", "CRC32C", "CRC64NVME"})
    void combinesPieceCrcsIntoTheCrcOfTheWhole(ChecksumAlgorithm algorithm) {
        SplittableRandom random = new SplittableRandom(7);
        for (int[] sizes : new int[][] {{0, 5}, {1, 1}, {3, 0}, {1000, 1}, {4096, 5000, 17}, {65536, 1, 70000, 3}}) {
            List<byte[]> pieces = new ArrayList<>();
            int total = 0;
            for (int size : sizes) {
                byte[] piece = new byte[size];
                random.nextBytes(piece);
                pieces.add(piece);
                total += size;
            }
            ByteBuffer whole = ByteBuffer.allocate(total);
            List<CrcCombination.Piece> crcs = new ArrayList<>();
            for (byte[] piece : pieces) {
                whole.put(piece);
                crcs.add(new CrcCombination.Piece(crc(algorithm, piece), piece.length));
            }

            long combined = CrcCombination.of(algorithm).combine(crcs);

            assertThat(combined).as("%s of pieces %s", algorithm, java.util.Arrays.toString(sizes))
                    .isEqualTo(crc(algorithm, whole.array()));
        }
    }

    private static long crc(ChecksumAlgorithm algorithm, byte[] bytes) {
        ChecksumHasher hasher = algorithm.newHasher();
        hasher.update(bytes, 0, bytes.length);
        byte[] digest = hasher.digest();
        long value = 0;
        for (byte b : digest) {
            value = value << 8 | (b & 0xFF);
        }
        return value;
    }
}
