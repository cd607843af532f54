package dev.hangar.s3api.semantics;

import static dev.hangar.s3api.semantics.S3Assertions.assertS3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.BucketRecord;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.request.Addressing;
import dev.hangar.s3api.request.RequestHeaders;
import dev.hangar.s3api.request.S3Request;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BucketPageTest {
    private static final List<BucketRecord> BUCKETS = List.of(
            bucket("photos", "us-east-1"), bucket("alpha", "us-east-1"), bucket("logs-b", "eu-west-1"),
            bucket("logs-a", "us-east-1"), bucket("zeta", "eu-west-1"));

    @Test
    void withoutParametersEveryBucketComesInOnePageByName() {
        BucketPage page = BucketPage.of(BUCKETS, request(""));

        assertThat(names(page)).containsExactly("alpha", "logs-a", "logs-b", "photos", "zeta");
        assertThat(page.prefix()).isNull();
        assertThat(page.continuationToken()).isNull();
    }

    @Test
    void pagesThroughEveryBucketWithTheContinuationToken() {
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            BucketPage page = BucketPage.of(BUCKETS,
                    request("max-buckets=2" + (token == null ? "" : "&continuation-token=" + token)));
            assertThat(page.buckets()).hasSizeLessThanOrEqualTo(2);
            names(page).forEach(seen::add);
            token = page.continuationToken();
            pages++;
        } while (token != null);

        assertThat(seen).containsExactly("alpha", "logs-a", "logs-b", "photos", "zeta");
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void aFullLastPageHasNoToken() {
        BucketPage page = BucketPage.of(BUCKETS, request("max-buckets=5"));

        assertThat(page.buckets()).hasSize(5);
        assertThat(page.continuationToken()).isNull();
    }

    @Test
    void filtersByPrefixAndEchoesIt() {
        BucketPage page = BucketPage.of(BUCKETS, request("prefix=logs-&max-buckets=1"));

        assertThat(names(page)).containsExactly("logs-a");
        assertThat(page.prefix()).isEqualTo("logs-");
        BucketPage next = BucketPage.of(BUCKETS,
                request("prefix=logs-&max-buckets=1&continuation-token=" + page.continuationToken()));
        assertThat(names(next)).containsExactly("logs-b");
        assertThat(next.continuationToken()).isNull();
    }

    @Test
    void filtersByRegion() {
        assertThat(names(BucketPage.of(BUCKETS, request("bucket-region=eu-west-1")))).containsExactly("logs-b", "zeta");
        assertThat(BucketPage.of(BUCKETS, request("bucket-region=ap-south-1")).buckets()).isEmpty();
    }

    @ParameterizedTest(name = "max-buckets=[{0}]")
    @ValueSource(strings = {"0", "-1", "10001", "abc", "", "1.5"})
    void refusesAMaxBucketsOutsideOneToTenThousand(String value) {
        String message = assertS3Error(() -> BucketPage.of(BUCKETS, request("max-buckets=" + value)),
                S3Error.INVALID_ARGUMENT).getMessage();

        assertThat(message).contains("max-buckets");
    }

    @Test
    void takesTheLargestMaxBuckets() {
        assertThat(BucketPage.of(BUCKETS, request("max-buckets=10000")).buckets()).hasSize(5);
    }

    @ParameterizedTest(name = "continuation-token=[{0}]")
    @ValueSource(strings = {"", "!!!", "AA"})
    void refusesATokenItDidNotGive(String token) {
        assertS3Error(() -> BucketPage.of(BUCKETS, request("continuation-token=" + token)), S3Error.INVALID_ARGUMENT);
    }

    private static List<String> names(BucketPage page) {
        return page.buckets().stream().map(BucketRecord::name).toList();
    }

    private static BucketRecord bucket(String name, String region) {
        return new BucketRecord(name, Instant.parse("2026-01-01T00:00:00Z"), region);
    }

    private static S3Request request(String rawQuery) {
        return new S3Request("GET", null, null, Addressing.parseQuery(rawQuery), new RequestHeaders(Map.of()),
                "localhost", "request-id");
    }
}
