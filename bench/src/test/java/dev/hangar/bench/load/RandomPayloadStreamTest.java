package dev.hangar.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class RandomPayloadStreamTest {

    @Test
    void streamsTheBytesOfPayloadsWithTheirCrc32c() {
        // Sizes around the 64 KiB chunk and not multiples of 8; reads of awkward lengths.
        for (int size : new int[] {1, 7, 8, 65_535, 65_536, 65_537, 200_003}) {
            for (int readLength : new int[] {1, 13, 65_536, 100_000}) {
                RandomPayloadStream stream = new RandomPayloadStream(42, size, size);
                ByteArrayOutputStream read = new ByteArrayOutputStream();
                byte[] buffer = new byte[readLength];
                int count;
                while ((count = stream.read(buffer, 0, buffer.length)) >= 0) {
                    assertThat(count).isPositive();
                    assertThat(stream.finished()).isEqualTo(read.size() + count == size);
                    read.write(buffer, 0, count);
                }
                byte[] expected = Payloads.bytes(42, size, size);
                assertThat(read.toByteArray()).as("size %d, reads of %d", size, readLength).isEqualTo(expected);
                CRC32C crc = new CRC32C();
                crc.update(expected);
                assertThat(stream.finished()).isTrue();
                assertThat(stream.crc32c()).isEqualTo(crc.getValue());
                assertThat(stream.read()).isEqualTo(-1);
            }
        }
    }

    @Test
    void objectsDifferFromEachOther() {
        byte[] first = new byte[4096];
        byte[] second = new byte[4096];
        new RandomPayloadStream(1, 0, 4096).read(first, 0, 4096);
        new RandomPayloadStream(1, 1, 4096).read(second, 0, 4096);
        assertThat(first).isNotEqualTo(second);
    }
}
