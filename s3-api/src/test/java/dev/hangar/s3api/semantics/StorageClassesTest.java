package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.request.RequestHeaders;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StorageClassesTest {

    @Test
    void takesNoStorageClassOrStandard() {
        assertThatCode(() -> StorageClasses.requireStored(new RequestHeaders(Map.of()))).doesNotThrowAnyException();
        assertThatCode(() -> StorageClasses.requireStored(storageClass("STANDARD"))).doesNotThrowAnyException();
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"REDUCED_REDUNDANCY", "STANDARD_IA", "ONEZONE_IA", "INTELLIGENT_TIERING", "GLACIER",
            "DEEP_ARCHIVE", "GLACIER_IR", "OUTPOSTS", "SNOW", "EXPRESS_ONEZONE", "NOT_A_CLASS", "standard", "",
            " STANDARD"})
    void refusesEveryOtherClassAsInvalid(String storageClass) {
        assertS3Error(() -> StorageClasses.requireStored(storageClass(storageClass)), S3Error.INVALID_STORAGE_CLASS);
    }

    private static RequestHeaders storageClass(String value) {
        return new RequestHeaders(Map.of("X-Amz-Storage-Class", List.of(value)));
    }
}
