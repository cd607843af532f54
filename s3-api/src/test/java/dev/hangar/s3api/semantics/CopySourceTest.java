package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.s3api.S3Error;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class CopySourceTest {

    @ParameterizedTest(name = "{0} -> {1} / {2}")
    @CsvSource(delimiter = '|', value = {
            "/bucket/key|bucket|key",
            "bucket/key|bucket|key",
            "/bucket/dir/sub/key.txt|bucket|dir/sub/key.txt",
            "bucket/dir/|bucket|dir/",
            "bucket//x|bucket|/x",
            "bucket/my%20file.txt|bucket|my file.txt",
            "bucket/a+b|bucket|a+b",
            "bucket/a%2Bb+c|bucket|a+b+c",
            "bucket/dir%2Fkey|bucket|dir/key",
            "bucket/100%25|bucket|100%",
            "bucket/%3Fq%26a%3D|bucket|?q&a=",
            "bucket/%ED%95%9C%EA%B8%80%20caf%C3%A9.txt|bucket|\ud55c\uae00 caf\u00e9.txt",
            "bucket/%F0%9F%98%80|bucket|\ud83d\ude00",
            "bucket/\ud55c\uae00|bucket|\ud55c\uae00",
            "my.bucket-1/k|my.bucket-1|k"})
    void findsTheBucketAndTheDecodedKey(String header, String bucket, String key) {
        assertThat(CopySource.parse(header)).isEqualTo(new CopySource(bucket, key, null));
    }

    @ParameterizedTest(name = "{0} -> version {1}")
    @CsvSource(delimiter = '|', value = {
            "/bucket/key?versionId=x|x",
            "bucket/key?versionId=3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY|3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY",
            "bucket/key?other=1&versionId=v2|v2"})
    void readsTheVersionIdAfterTheKey(String header, String versionId) {
        assertThat(CopySource.parse(header)).isEqualTo(new CopySource("bucket", "key", versionId));
    }

    @ParameterizedTest(name = "[{0}]")
    @NullAndEmptySource
    @ValueSource(strings = {"/", "//", "bucket", "/bucket", "bucket/", "/bucket/", "/key", "//key",
            "bucket?versionId=x", "bucket/?versionId=x", "bucket/%zz", "bucket/100%", "b%zz/key",
            "bucket/a%00b", "a%00b/key", "bucket/%C3%28", "bucket/%FF"})
    void refusesAHeaderWithoutBucketAndKey(String header) {
        assertS3Error(() -> CopySource.parse(header), S3Error.INVALID_ARGUMENT);
    }
}
