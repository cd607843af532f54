package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.s3api.S3Error;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BucketNamesTest {
    private static final String SIXTY_THREE = "a".repeat(63);

    @ParameterizedTest
    @ValueSource(strings = {"abc", "a-b", "a.b", "123", "1.2.3", "my-bucket", "my.bucket.name", "bucket-2024.logs",
            "a1b2c3", "0bucket9", "a-s3alias-b", "xn-bucket", "sthree", "bucket-ol-s3",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a"})
    void acceptsNamesWithinTheRules(String name) {
        assertThatCode(() -> BucketNames.validate(name)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", "a", "ab", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "MyBucket", "myBucket", "BUCKET",
            "my_bucket", "my bucket", "bucket!", "b\u00fccket", "bucket/", "a:b",
            "-bucket", "bucket-", ".bucket", "bucket.", "-ab", "ab.",
            "my..bucket", "my.-bucket", "my-.bucket", "a.-b", "a-.b",
            "192.168.5.4", "10.0.0.1", "255.255.255.255", "999.999.999.999",
            "xn--bucket", "xn--abc",
            "sthree-bucket", "sthree-configurator",
            "amzn-s3-demo-bucket",
            "bucket-s3alias", "my--ol-s3", "bucket--ol-s3", "bucket.mrap", "bucket--x-s3", "bucket--table-s3"})
    void refusesNamesBreakingARuleAsInvalidBucketName(String name) {
        assertS3Error(() -> BucketNames.validate(name), S3Error.INVALID_BUCKET_NAME);
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 62, 63})
    void acceptsEveryLengthFromThreeToSixtyThree(int length) {
        assertThatCode(() -> BucketNames.validate("b".repeat(length))).doesNotThrowAnyException();
        assertThatCode(() -> BucketNames.validate(SIXTY_THREE.substring(0, length))).doesNotThrowAnyException();
    }
}
