package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.RawS3;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.ListObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectStorageClass;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * ListObjectsV2 and ListObjects (v1) over 3,000 keys in a three-level tree ({@code d0..d9 /
 * s0..s29 / k0..k9}): prefix, delimiter and CommonPrefixes, every pagination mechanism (max-keys
 * with continuation-token, start-after, marker/NextMarker, the SDK paginators), UTF-8 binary
 * order, encoding-type=url, fetch-owner and max-keys=0.
 */
class ListIT extends AbstractS3IT {

    private static final Comparator<String> UTF8_BINARY = (left, right) -> Arrays.compareUnsigned(
        left.getBytes(StandardCharsets.UTF_8), right.getBytes(StandardCharsets.UTF_8));

    private String tree;
    private List<String> treeKeys;

    @BeforeAll
    void createTree() {
        tree = createBucket("tree");
        List<String> keys = new ArrayList<>();
        for (int d = 0; d < 10; d++) {
            for (int s = 0; s < 30; s++) {
                for (int k = 0; k < 10; k++) {
                    keys.add("d" + d + "/s" + s + "/k" + k);
                }
            }
        }
        Semaphore inFlight = new Semaphore(64);
        List<CompletableFuture<?>> puts = new ArrayList<>();
        for (String key : keys) {
            inFlight.acquireUninterruptibly();
            puts.add(s3Async.putObject(request -> request.bucket(tree).key(key), AsyncRequestBody.fromString(key))
                .whenComplete((response, error) -> inFlight.release()));
        }
        CompletableFuture.allOf(puts.toArray(CompletableFuture[]::new)).join();
        treeKeys = keys.stream().sorted(UTF8_BINARY).toList();
    }

    @Test
    void defaultListingReturnsTheFirstThousandKeys() {
        ListObjectsV2Response page = s3.listObjectsV2(request -> request.bucket(tree));
        assertThat(page.contents()).extracting(S3Object::key).containsExactlyElementsOf(treeKeys.subList(0, 1000));
        assertThat(page.isTruncated()).isTrue();
        assertThat(page.nextContinuationToken()).isNotBlank();
        assertThat(page.keyCount()).isEqualTo(1000);
        assertThat(page.maxKeys()).isEqualTo(1000);
        assertThat(page.name()).isEqualTo(tree);

        S3Object first = page.contents().getFirst();
        assertThat(first.size()).isEqualTo(first.key().length());
        assertThat(first.eTag()).matches("\"[0-9a-f]{32}\"");
        assertThat(first.lastModified()).isNotNull();
        assertThat(first.storageClass()).isEqualTo(ObjectStorageClass.STANDARD);
        assertThat(first.owner()).isNull();
    }

    @ParameterizedTest(name = "max-keys={0}")
    @ValueSource(ints = {1, 7, 100, 999, 1000})
    void continuationTokensVisitEveryKeyOnceInOrder(int maxKeys) {
        if (maxKeys == 1) {
            // One key per page would take 3,000 round trips; walk one subtree instead.
            assertThat(listAllV2("d4/s2", 1)).containsExactlyElementsOf(treeKeys.stream().filter(k -> k.startsWith("d4/s2")).toList());
            return;
        }
        assertThat(listAllV2("", maxKeys)).containsExactlyElementsOf(treeKeys);
    }

    @Test
    void paginatorsVisitEveryKey() {
        List<String> sync = s3.listObjectsV2Paginator(request -> request.bucket(tree).maxKeys(450)).contents().stream()
            .map(S3Object::key).toList();
        assertThat(sync).containsExactlyElementsOf(treeKeys);

        List<String> async = Flux.from(s3Async.listObjectsV2Paginator(request -> request.bucket(tree).maxKeys(700)).contents())
            .map(S3Object::key).collectList().block();
        assertThat(async).containsExactlyElementsOf(treeKeys);
    }

    @Test
    void prefix() {
        ListObjectsV2Response page = s3.listObjectsV2(request -> request.bucket(tree).prefix("d3/"));
        assertThat(page.contents()).extracting(S3Object::key)
            .containsExactlyElementsOf(treeKeys.stream().filter(key -> key.startsWith("d3/")).toList())
            .hasSize(300);
        assertThat(page.isTruncated()).isFalse();
        assertThat(page.prefix()).isEqualTo("d3/");

        assertThat(s3.listObjectsV2(request -> request.bucket(tree).prefix("d3/s1")).contents())
            .hasSize(110); // s1 and s10..s19
        assertThat(s3.listObjectsV2(request -> request.bucket(tree).prefix("nothing-here")).contents()).isEmpty();
    }

    @Test
    void delimiterAtTheRootGivesTheTopLevelPrefixes() {
        ListObjectsV2Response page = s3.listObjectsV2(request -> request.bucket(tree).delimiter("/"));
        assertThat(page.contents()).isEmpty();
        assertThat(page.commonPrefixes()).extracting(CommonPrefix::prefix)
            .containsExactly("d0/", "d1/", "d2/", "d3/", "d4/", "d5/", "d6/", "d7/", "d8/", "d9/");
        assertThat(page.keyCount()).isEqualTo(10);
        assertThat(page.delimiter()).isEqualTo("/");
        assertThat(page.isTruncated()).isFalse();
    }

    @Test
    void prefixAndDelimiter() {
        ListObjectsV2Response middle = s3.listObjectsV2(request -> request.bucket(tree).prefix("d3/").delimiter("/"));
        assertThat(middle.contents()).isEmpty();
        assertThat(middle.commonPrefixes()).extracting(CommonPrefix::prefix)
            .containsExactlyElementsOf(subPrefixes("d3/"));

        ListObjectsV2Response leaves = s3.listObjectsV2(request -> request.bucket(tree).prefix("d3/s7/").delimiter("/"));
        assertThat(leaves.commonPrefixes()).isEmpty();
        assertThat(leaves.contents()).extracting(S3Object::key)
            .containsExactly("d3/s7/k0", "d3/s7/k1", "d3/s7/k2", "d3/s7/k3", "d3/s7/k4",
                "d3/s7/k5", "d3/s7/k6", "d3/s7/k7", "d3/s7/k8", "d3/s7/k9");

        // A delimiter other than "/" groups on the first occurrence after the prefix.
        ListObjectsV2Response bySlashK = s3.listObjectsV2(request -> request.bucket(tree).prefix("d5/s2").delimiter("/k"));
        assertThat(bySlashK.contents()).isEmpty();
        assertThat(bySlashK.commonPrefixes()).extracting(CommonPrefix::prefix)
            .containsExactly("d5/s2/k", "d5/s20/k", "d5/s21/k", "d5/s22/k", "d5/s23/k", "d5/s24/k",
                "d5/s25/k", "d5/s26/k", "d5/s27/k", "d5/s28/k", "d5/s29/k");
    }

    @Test
    void commonPrefixesArePaginatedAndCountTowardsMaxKeys() {
        List<String> prefixes = new ArrayList<>();
        List<Integer> pageSizes = new ArrayList<>();
        String token = null;
        do {
            String continuation = token;
            ListObjectsV2Response page = s3.listObjectsV2(request -> request.bucket(tree).prefix("d3/").delimiter("/")
                .maxKeys(7).continuationToken(continuation));
            assertThat(page.contents()).isEmpty();
            page.commonPrefixes().forEach(prefix -> prefixes.add(prefix.prefix()));
            pageSizes.add(page.keyCount());
            token = page.isTruncated() ? page.nextContinuationToken() : null;
            assertThat(pageSizes).hasSizeLessThan(20);
        } while (token != null);
        assertThat(prefixes).containsExactlyElementsOf(subPrefixes("d3/"));
        assertThat(pageSizes).containsExactly(7, 7, 7, 7, 2);
    }

    @Test
    void startAfterNearTheEnd() {
        // In binary order the last subtree is d9/s9/ (s9 sorts after s29).
        ListObjectsV2Response page = s3.listObjectsV2(request -> request.bucket(tree).startAfter("d9/s9/k5"));
        assertThat(page.contents()).extracting(S3Object::key).containsExactly("d9/s9/k6", "d9/s9/k7", "d9/s9/k8", "d9/s9/k9");
        assertThat(page.isTruncated()).isFalse();
        assertThat(page.startAfter()).isEqualTo("d9/s9/k5");
    }

    @Test
    void startAfterBetweenKeysAndWithPagination() {
        int from = treeKeys.indexOf("d2/s15/k3");
        List<String> collected = new ArrayList<>();
        String token = null;
        do {
            String continuation = token;
            ListObjectsV2Response page = s3.listObjectsV2(request -> request.bucket(tree).startAfter("d2/s15/k3")
                .prefix("d2/").maxKeys(40).continuationToken(continuation));
            page.contents().forEach(object -> collected.add(object.key()));
            token = page.isTruncated() ? page.nextContinuationToken() : null;
        } while (token != null);
        List<String> expected = treeKeys.subList(from + 1, treeKeys.size()).stream().filter(k -> k.startsWith("d2/")).toList();
        assertThat(collected).containsExactlyElementsOf(expected);

        // start-after need not be an existing key.
        assertThat(s3.listObjectsV2(request -> request.bucket(tree).startAfter("d9/s9/k50")).contents())
            .extracting(S3Object::key).containsExactly("d9/s9/k6", "d9/s9/k7", "d9/s9/k8", "d9/s9/k9");
    }

    @Test
    void maxKeysZero() {
        ListObjectsV2Response page = s3.listObjectsV2(request -> request.bucket(tree).maxKeys(0));
        assertThat(page.contents()).isEmpty();
        assertThat(page.commonPrefixes()).isEmpty();
        assertThat(page.keyCount()).isZero();
        assertThat(page.maxKeys()).isZero();

        ListObjectsResponse v1 = s3.listObjects(request -> request.bucket(tree).maxKeys(0));
        assertThat(v1.contents()).isEmpty();
        assertThat(v1.maxKeys()).isZero();
    }

    @Test
    void fetchOwner() {
        ListObjectsV2Response without = s3.listObjectsV2(request -> request.bucket(tree).prefix("d1/s1/").maxKeys(3));
        assertThat(without.contents()).allSatisfy(object -> assertThat(object.owner()).isNull());

        ListObjectsV2Response with = s3.listObjectsV2(request -> request.bucket(tree).prefix("d1/s1/").maxKeys(3).fetchOwner(true));
        assertThat(with.contents()).hasSize(3).allSatisfy(object -> {
            assertThat(object.owner()).isNotNull();
            assertThat(object.owner().id()).isNotBlank();
        });
    }

    @Test
    void listObjectsV1WithoutDelimiterUsesTheLastKeyAsMarker() {
        List<String> collected = new ArrayList<>();
        String marker = null;
        int pages = 0;
        while (true) {
            String current = marker;
            ListObjectsResponse page = s3.listObjects(request -> request.bucket(tree).maxKeys(250).marker(current));
            pages++;
            page.contents().forEach(object -> collected.add(object.key()));
            if (current != null) {
                assertThat(page.marker()).isEqualTo(current);
            }
            if (!page.isTruncated()) {
                break;
            }
            assertThat(page.contents()).hasSize(250);
            marker = page.contents().getLast().key();
            assertThat(pages).isLessThan(20);
        }
        assertThat(collected).containsExactlyElementsOf(treeKeys);
        assertThat(pages).isEqualTo(12);
    }

    @Test
    void listObjectsV1WithDelimiterReturnsNextMarker() {
        List<String> prefixes = new ArrayList<>();
        String marker = null;
        int pages = 0;
        while (true) {
            String current = marker;
            ListObjectsResponse page = s3.listObjects(request -> request.bucket(tree).prefix("d6/").delimiter("/")
                .maxKeys(7).marker(current));
            pages++;
            assertThat(page.contents()).isEmpty();
            page.commonPrefixes().forEach(prefix -> prefixes.add(prefix.prefix()));
            if (!page.isTruncated()) {
                break;
            }
            assertThat(page.nextMarker()).isEqualTo(page.commonPrefixes().getLast().prefix());
            marker = page.nextMarker();
            assertThat(pages).isLessThan(20);
        }
        assertThat(prefixes).containsExactlyElementsOf(subPrefixes("d6/"));
    }

    @Test
    void listObjectsV1IncludesTheOwner() {
        ListObjectsResponse page = s3.listObjects(request -> request.bucket(tree).prefix("d0/s0/"));
        assertThat(page.contents()).hasSize(10).allSatisfy(object -> assertThat(object.owner()).isNotNull());
        assertThat(page.isTruncated()).isFalse();
        assertThat(page.nextMarker()).isNull();
    }

    @Test
    void keysAreInUtf8BinaryOrder() {
        String bucket = createBucket("order");
        // UTF-16 order would put U+1F600 (a surrogate pair, 0xD83D...) before U+FF61; UTF-8 puts it after.
        List<String> keys = List.of("A", "B", "a", "b", "a b", "a-b", "a/b", "a0", "z", "é", "ü",
            "\uFF61", "\uD83D\uDE00", "~", "\u00A0", "\u0100");
        keys.forEach(key -> s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString(key)));

        List<String> expected = keys.stream().sorted(UTF8_BINARY).toList();
        assertThat(s3.listObjectsV2(request -> request.bucket(bucket)).contents()).extracting(S3Object::key)
            .containsExactlyElementsOf(expected);
        List<String> paged = s3.listObjectsV2Paginator(request -> request.bucket(bucket).maxKeys(3)).contents().stream()
            .map(S3Object::key).toList();
        assertThat(paged).containsExactlyElementsOf(expected);
        assertThat(s3.listObjects(request -> request.bucket(bucket)).contents()).extracting(S3Object::key)
            .containsExactlyElementsOf(expected);
    }

    @Test
    void encodingTypeUrl() {
        String bucket = createBucket("encoding");
        List<String> keys = List.of("plain", "with space/file", "ünïcödé/ключ", "plus+sign", "percent%25", "amp&lt<gt>",
            "control\u0001char", "tab\tkey");
        keys.forEach(key -> s3.putObject(request -> request.bucket(bucket).key(key), RequestBody.fromString(key)));
        List<String> expected = keys.stream().sorted(UTF8_BINARY).toList();

        // The SDK decodes url-encoded listings itself: the keys come back as they were written.
        ListObjectsV2Response v2 = s3.listObjectsV2(request -> request.bucket(bucket).encodingType(EncodingType.URL));
        assertThat(v2.encodingType()).isEqualTo(EncodingType.URL);
        assertThat(v2.contents()).extracting(S3Object::key).containsExactlyElementsOf(expected);

        ListObjectsResponse v1 = s3.listObjects(request -> request.bucket(bucket).encodingType(EncodingType.URL));
        assertThat(v1.encodingType()).isEqualTo(EncodingType.URL);
        assertThat(v1.contents()).extracting(S3Object::key).containsExactlyElementsOf(expected);

        ListObjectsV2Response grouped = s3.listObjectsV2(request -> request.bucket(bucket).encodingType(EncodingType.URL)
            .delimiter("/"));
        assertThat(grouped.commonPrefixes()).extracting(CommonPrefix::prefix).containsExactly("with space/", "ünïcödé/");

        // On the wire: every key is percent-encoded ASCII.
        RawS3.Response response = raw.send(raw.sign(
            raw.request(SdkHttpMethod.GET, "/" + bucket).putRawQueryParameter("list-type", "2")
                .putRawQueryParameter("encoding-type", "url").build(),
            (byte[]) null, properties -> {
            }));
        assertThat(response.status()).isEqualTo(200);
        String xml = response.bodyText();
        assertThat(xml).contains("<EncodingType>url</EncodingType>");
        List<String> wireKeys = new ArrayList<>();
        Matcher matcher = Pattern.compile("<Key>([^<]*)</Key>").matcher(xml);
        while (matcher.find()) {
            wireKeys.add(matcher.group(1));
        }
        assertThat(wireKeys).allSatisfy(key -> assertThat(key).matches("[\\x21-\\x7E]*"));
        assertThat(wireKeys).map(key -> URLDecoder.decode(key, StandardCharsets.UTF_8)).containsExactlyElementsOf(expected);
    }

    @Test
    void listingAMissingBucket() {
        String missing = newBucketName("nobucket");
        assertS3Error(() -> s3.listObjectsV2(request -> request.bucket(missing)), 404, "NoSuchBucket");
        assertS3Error(() -> s3.listObjects(request -> request.bucket(missing)), 404, "NoSuchBucket");
    }

    private List<String> listAllV2(String prefix, int maxKeys) {
        List<String> collected = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String continuation = token;
            ListObjectsV2Response page = s3.listObjectsV2(request -> request.bucket(tree).prefix(prefix)
                .maxKeys(maxKeys).continuationToken(continuation));
            pages++;
            assertThat(page.contents().size()).isLessThanOrEqualTo(maxKeys);
            assertThat(page.keyCount()).isEqualTo(page.contents().size());
            if (continuation != null) {
                assertThat(page.continuationToken()).isEqualTo(continuation);
            }
            page.contents().forEach(object -> collected.add(object.key()));
            if (page.isTruncated()) {
                assertThat(page.contents()).hasSize(maxKeys);
                assertThat(page.nextContinuationToken()).isNotBlank();
                token = page.nextContinuationToken();
            } else {
                assertThat(page.nextContinuationToken()).isNull();
                token = null;
            }
            assertThat(pages).isLessThanOrEqualTo(treeKeys.size() / maxKeys + 2);
        } while (token != null);
        return collected;
    }

    private static List<String> subPrefixes(String parent) {
        List<String> prefixes = new ArrayList<>();
        for (int s = 0; s < 30; s++) {
            prefixes.add(parent + "s" + s + "/");
        }
        prefixes.sort(UTF8_BINARY);
        return prefixes;
    }
}
