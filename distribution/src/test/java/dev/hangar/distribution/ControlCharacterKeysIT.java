package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Keys holding characters XML 1.0 cannot carry (U+0001, ESC): stored, read and deleted like any key, and every
 * listing of their bucket answers. With {@code encoding-type=url} the listings are plain XML and the SDK gives
 * the keys back as written; without it, the key is written as a hexadecimal character reference ({@code
 * &#x1;}), as S3 writes it, where the listings once answered 500.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ControlCharacterKeysIT extends AbstractS3IT {
    private static final String KEY = "ctl\u0001key";
    private static final String ESCAPED_KEY = "ctl&#x1;key";
    private static final Pattern UPLOAD_ID = Pattern.compile("<UploadId>([^<]+)</UploadId>");

    private String bucket;
    private String uploadId;

    @BeforeAll
    void storeKeysWithControlCharacters() {
        bucket = createBucket("control");
        s3.putObject(request -> request.bucket(bucket).key(KEY), RequestBody.fromString("one"));
        s3.putObject(request -> request.bucket(bucket).key("esc\u001bkey"), RequestBody.fromString("escape"));
        s3.putObject(request -> request.bucket(bucket).key("plain"), RequestBody.fromString("plain"));
        // The SDK cannot read S3's answer to this (it holds the key as &#x1;), so it is sent by hand.
        RawS3.Response created = signed(SdkHttpMethod.POST, "/" + bucket + "/ctl%01key", Map.of("uploads", ""));
        assertThat(created.status()).as("%s", created).isEqualTo(200);
        assertThat(created.bodyText()).contains("<Key>" + ESCAPED_KEY + "</Key>");
        Matcher id = UPLOAD_ID.matcher(created.bodyText());
        assertThat(id.find()).isTrue();
        uploadId = id.group(1);
    }

    @Test
    void theKeysAreReadLikeAnyOther() {
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key(KEY)).asUtf8String()).isEqualTo("one");
        assertThat(s3.headObject(request -> request.bucket(bucket).key("esc\u001bkey")).contentLength()).isEqualTo(6);
    }

    @Test
    void everyListingWithEncodingTypeUrlGivesTheKeysBack() {
        assertThat(s3.listObjectsV2(request -> request.bucket(bucket).encodingType(EncodingType.URL)).contents())
                .extracting(S3Object::key).containsExactly("ctl\u0001key", "esc\u001bkey", "plain");
        assertThat(s3.listObjects(request -> request.bucket(bucket).encodingType(EncodingType.URL)).contents())
                .extracting(S3Object::key).containsExactly("ctl\u0001key", "esc\u001bkey", "plain");
        assertThat(s3.listObjectVersions(request -> request.bucket(bucket).encodingType(EncodingType.URL)).versions())
                .extracting(ObjectVersion::key).containsExactly("ctl\u0001key", "esc\u001bkey", "plain");
        assertThat(s3.listMultipartUploads(request -> request.bucket(bucket).encodingType(EncodingType.URL)).uploads())
                .extracting(MultipartUpload::key).containsExactly(KEY);
    }

    /** What S3 answers: 200, the key as a character reference, which strict XML 1.0 parsers refuse. */
    @ParameterizedTest(name = "?{0}")
    @ValueSource(strings = {"list-type=2", "marker=", "versions", "uploads"})
    void everyListingWithoutEncodingTypeWritesTheKeyAsACharacterReference(String query) {
        String[] parameter = query.split("=", -1);
        RawS3.Response listing = signed(SdkHttpMethod.GET, "/" + bucket,
                Map.of(parameter[0], parameter.length > 1 ? parameter[1] : ""));

        assertThat(listing.status()).as("%s", listing).isEqualTo(200);
        assertThat(listing.bodyText()).contains("<Key>" + ESCAPED_KEY + "</Key>");
        if (!query.equals("uploads")) {
            assertThat(listing.bodyText()).contains("<Key>esc&#x1b;key</Key>").contains("<Key>plain</Key>");
        }
    }

    @Test
    void thePartsOfAnUploadOfSuchAKeyAreListed() {
        RawS3.Response part = raw.send(raw.sign(raw.request(SdkHttpMethod.PUT, "/" + bucket + "/ctl%01key")
                .putRawQueryParameter("partNumber", "1").putRawQueryParameter("uploadId", uploadId).build(),
                "part".getBytes(java.nio.charset.StandardCharsets.UTF_8), properties -> {
                }));
        assertThat(part.status()).as("%s", part).isEqualTo(200);

        RawS3.Response parts = signed(SdkHttpMethod.GET, "/" + bucket + "/ctl%01key", Map.of("uploadId", uploadId));

        assertThat(parts.status()).as("%s", parts).isEqualTo(200);
        assertThat(parts.bodyText()).contains("<Key>" + ESCAPED_KEY + "</Key>").contains("<PartNumber>1</PartNumber>");
    }

    @Test
    void anErrorAboutSuchAKeyNamesItTheSameWay() {
        RawS3.Response missing = signed(SdkHttpMethod.GET, "/" + bucket + "/gone%02", Map.of());

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.bodyText()).contains("<Code>NoSuchKey</Code>").contains("<Key>gone&#x2;</Key>");
    }

    private RawS3.Response signed(SdkHttpMethod method, String path, Map<String, String> query) {
        var request = raw.request(method, path);
        query.forEach((name, value) -> request.putRawQueryParameter(name, List.of(value)));
        return raw.send(raw.sign(request.build(), (byte[]) null, properties -> {
        }));
    }
}
