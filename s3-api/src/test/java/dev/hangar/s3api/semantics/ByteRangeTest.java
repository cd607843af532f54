package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteRangeTest {

    @ParameterizedTest(name = "{0} of {1} bytes -> {2}-{3}")
    @CsvSource(delimiter = '|', value = {
            "bytes=0-9|100|0|9",
            "bytes=5-99999999999999999999|100|5|99",
            "bytes=-99999999999999999999|100|0|99",
            "bytes=10-19|100|10|19",
            "bytes=0-0|100|0|0",
            "bytes=99-99|100|99|99",
            "bytes=5-|100|5|99",
            "bytes=0-|100|0|99",
            "bytes=99-|100|99|99",
            "bytes=-5|100|95|99",
            "bytes=-1|100|99|99",
            "bytes=-100|100|0|99",
            "bytes=0-99|100|0|99",
            "bytes=0-100|100|0|99",
            "bytes=90-1000000|100|90|99",
            "bytes=-101|100|0|99",
            "bytes=-1000000|100|0|99",
            "bytes=0-0|1|0|0",
            "bytes=-1|1|0|0",
            "bytes=0-|1|0|0",
            "' bytes=0-9 '|100|0|9",
            "bytes=0-4294967296|8589934592|0|4294967296",
            "bytes=4294967296-|8589934592|4294967296|8589934591"})
    void resolvesOneRangeAgainstTheSize(String header, long size, long first, long last) {
        assertThat(ByteRange.parse(header, size)).contains(new ByteRange(first, last));
    }

    @ParameterizedTest(name = "{0} of {1} bytes")
    @CsvSource(delimiter = '|', value = {
            "bytes=100-|100",
            "bytes=100-100|100",
            "bytes=100-200|100",
            "bytes=1000-|100",
            "bytes=-0|100",
            "bytes=0-0|0",
            "bytes=0-|0",
            "bytes=0-100|0",
            "bytes=5-10|0",
            "bytes=-1|0",
            "bytes=-5|0",
            "bytes=1-|1",
            "bytes=99999999999999999999-|100",
            "bytes=99999999999999999999-99999999999999999999|100"})
    void refusesARangeThatStartsAtOrBeyondTheEndAsUnsatisfiable(String header, long size) {
        S3Exception error = assertS3Error(() -> ByteRange.parse(header, size), S3Error.INVALID_RANGE);

        assertThat(error.error().status()).isEqualTo(416);
    }

    @ParameterizedTest(name = "{0}")
    @NullAndEmptySource
    @ValueSource(strings = {"bytes=0-1,3-4", "bytes=0-1, 3-4", "bytes=-1,-2", "items=0-1", "bytes 0-1", "bytes=5-2",
            "bytes=1-0", "bytes=-", "bytes=", "bytes=a-b", "bytes=0x1-2", "bytes=1.5-2", "bytes=-1-2", "0-1",
            "bytes=0-1;x", "bytes = 0-1"})
    void ignoresHeadersS3DoesNotUnderstandAndServesTheWholeObject(String header) {
        assertThat(ByteRange.parse(header, 100)).isEmpty();
    }

    @Test
    void ignoresAnInvertedRangeEvenWhenTheObjectIsEmpty() {
        assertThat(ByteRange.parse("bytes=5-2", 0)).isEmpty();
    }

    @ParameterizedTest(name = "{0} of {1} bytes -> {2}, {3} bytes")
    @CsvSource(delimiter = '|', value = {
            "bytes=0-9|100|bytes 0-9/100|10",
            "bytes=5-|100|bytes 5-99/100|95",
            "bytes=-5|100|bytes 95-99/100|5",
            "bytes=0-1000|100|bytes 0-99/100|100",
            "bytes=-1000|100|bytes 0-99/100|100",
            "bytes=0-0|1|bytes 0-0/1|1"})
    void describesItselfAsAContentRange(String header, long size, String contentRange, long length) {
        ByteRange range = ByteRange.parse(header, size).orElseThrow();

        assertThat(range.contentRange(size)).isEqualTo(contentRange);
        assertThat(range.length()).isEqualTo(length);
    }
}
