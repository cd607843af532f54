package dev.hangar.metadata;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every behaviour of {@link MetadataStore}. A backend's test only says how to open the store; each
 * test starts from an empty one.
 */
public abstract class AbstractMetadataStoreContractTest {
    protected static final Instant NOW = Instant.parse("2026-03-04T05:06:07.123456789Z");
    /** Keys sort by UTF-8 bytes in S3, not by UTF-16 code units as {@link String#compareTo} does. */
    protected static final Comparator<String> UTF8_ORDER =
            (first, second) -> Arrays.compareUnsigned(first.getBytes(UTF_8), second.getBytes(UTF_8));

    protected MetadataStore store;

    /**
     * Opens the store under test on this test's storage. Called again after {@link
     * MetadataStore#close}, it must open the same storage, so that a durable store shows the data
     * written before.
     */
    protected abstract MetadataStore openStore();

    /** Whether data outlives close and reopen; a memory-only store would say no. */
    protected boolean isDurable() {
        return true;
    }

    @BeforeEach
    void openTheStore() {
        store = openStore();
    }

    @AfterEach
    void closeTheStore() {
        store.close();
    }

    // Buckets

    @Test
    void createdBucketCanBeRead() {
        assertThat(store.createBucket(bucket("photos"))).isTrue();

        assertThat(store.getBucket("photos")).contains(bucket("photos"));
        assertThat(store.getBucket("videos")).isEmpty();
    }

    @Test
    void creatingAnExistingBucketChangesNothing() {
        store.createBucket(new BucketRecord("photos", NOW, "eu-west-1"));

        assertThat(store.createBucket(new BucketRecord("photos", NOW.plusSeconds(9), "us-east-1")))
                .isFalse();
        assertThat(store.getBucket("photos")).contains(new BucketRecord("photos", NOW, "eu-west-1"));
    }

    @Test
    void bucketsAreListedByName() {
        for (String name : List.of("zebra", "alpha", "alpha-2", "mid.dle", "alpha.1")) {
            store.createBucket(bucket(name));
        }

        assertThat(store.listBuckets())
                .extracting(BucketRecord::name)
                .containsExactly("alpha", "alpha-2", "alpha.1", "mid.dle", "zebra");
    }

    @Test
    void emptyBucketIsDeleted() throws Exception {
        store.createBucket(bucket("photos"));

        assertThat(store.deleteBucket("photos")).isTrue();
        assertThat(store.getBucket("photos")).isEmpty();
        assertThat(store.deleteBucket("photos")).isFalse();
        assertThat(store.createBucket(bucket("photos"))).isTrue();
    }

    @Test
    void bucketWithAnObjectIsNotDeleted() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(inline("photos", "cat.jpg", "meow"));

        assertThatThrownBy(() -> store.deleteBucket("photos")).isInstanceOf(BucketNotEmptyException.class);
        assertThat(store.getBucket("photos")).isPresent();

        store.deleteObject("photos", "cat.jpg");
        assertThat(store.deleteBucket("photos")).isTrue();
    }

    @Test
    void bucketWithAnUploadIsNotDeleted() throws Exception {
        store.createBucket(bucket("photos"));
        MultipartUpload upload = upload("photos", "big.iso", "u1");
        store.createUpload(upload);

        assertThatThrownBy(() -> store.deleteBucket("photos")).isInstanceOf(BucketNotEmptyException.class);

        store.abortUpload(upload);
        assertThat(store.deleteBucket("photos")).isTrue();
    }

    @Test
    void objectsOfABucketWhoseNameExtendsAnotherDoNotCount() throws Exception {
        store.createBucket(bucket("a"));
        store.createBucket(bucket("ab"));
        store.putObject(inline("ab", "key", "x"));
        store.createUpload(upload("ab", "key", "u1"));

        assertThat(store.listObjects("a", query("", null, null, 10)).entries()).isEmpty();
        assertThat(store.deleteBucket("a")).isTrue();
        assertThat(store.getObject("ab", "key")).isPresent();
    }

    // Objects

    @Test
    void putIntoMissingBucketFails() {
        assertThatThrownBy(() -> store.putObject(inline("nowhere", "key", "x")))
                .isInstanceOf(NoSuchBucketException.class);
        assertThat(store.getObject("nowhere", "key")).isEmpty();
    }

    @Test
    void putObjectCanBeRead() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion version = inline("photos", "cat.jpg", "meow");

        assertThat(store.putObject(version)).isEmpty();

        assertThat(store.getObject("photos", "cat.jpg")).contains(version);
        assertThat(store.getObject("photos", "dog.jpg")).isEmpty();
        assertThat(store.getObject("other", "cat.jpg")).isEmpty();
    }

    @Test
    void inlineContentRoundTripsEveryField() throws Exception {
        store.createBucket(bucket("photos"));
        byte[] data = new byte[3 * 1024];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        ObjectVersion version = new ObjectVersion(
                "photos",
                "dir/ünïcødé 日本.bin",
                ObjectVersion.NULL_VERSION,
                NOW,
                data.length,
                "\"0123456789abcdef0123456789abcdef\"",
                new ObjectContent.Inline(data),
                Map.of("content-type", "application/octet-stream", "cache-control", "no-cache"),
                Map.of("owner", "ünïcødé", "empty", ""),
                null,
                List.of());
        store.putObject(version);

        ObjectVersion read = store.getObject("photos", "dir/ünïcødé 日本.bin").orElseThrow();

        assertThat(read).isEqualTo(version);
        assertThat(((ObjectContent.Inline) read.content()).data()).isEqualTo(data);
        assertThat(read.checksum()).isNull();
        assertThat(read.lastModified()).isEqualTo(NOW);
    }

    @Test
    void blockContentRoundTripsEveryField() throws Exception {
        store.createBucket(bucket("photos"));
        List<BlockRef> blocks = List.of(
                new BlockRef(BlockId.random(), 5L << 30, 0xCAFEBABE), new BlockRef(BlockId.random(), 17, -1));
        ObjectVersion version = new ObjectVersion(
                "photos",
                "big.iso",
                ObjectVersion.NULL_VERSION,
                NOW,
                (5L << 30) + 17,
                "\"aaaabbbbccccddddeeeeffff00001111-2\"",
                new ObjectContent.Blocks(blocks),
                Map.of(),
                Map.of(),
                new Checksum("CRC32C", "yZRlqg==-2"),
                List.of(5L << 30, 17L));
        store.putObject(version);

        ObjectVersion read = store.getObject("photos", "big.iso").orElseThrow();

        assertThat(read).isEqualTo(version);
        assertThat(read.partSizes()).containsExactly(5L << 30, 17L);
        assertThat(((ObjectContent.Blocks) read.content()).blocks()).isEqualTo(blocks);
    }

    @Test
    void deleteMarkerRoundTrips() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion marker = new ObjectVersion(
                "photos", "gone", "v1", NOW, 0, "\"\"", new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null,
                List.of());
        store.putObject(marker);

        assertThat(store.getObject("photos", "gone")).contains(marker);
    }

    @Test
    void overwriteReturnsThePreviousVersionAndQueuesItsBlocks() throws Exception {
        store.createBucket(bucket("photos"));
        BlockRef first = newBlock();
        BlockRef second = newBlock();
        ObjectVersion old = withBlocks("photos", "cat.jpg", first, second);
        store.putObject(old);
        assertThat(store.pendingGarbage(100)).isEmpty();

        ObjectVersion replacement = withBlocks("photos", "cat.jpg", newBlock());

        assertThat(store.putObject(replacement)).contains(old);
        assertThat(store.getObject("photos", "cat.jpg")).contains(replacement);
        assertThat(store.pendingGarbage(100)).containsExactlyInAnyOrder(first.id(), second.id());
    }

    @Test
    void overwriteThatKeepsTheBlocksQueuesNone() throws Exception {
        store.createBucket(bucket("photos"));
        BlockRef kept = newBlock();
        BlockRef dropped = newBlock();
        store.putObject(withBlocks("photos", "cat.jpg", kept, dropped));

        store.putObject(withBlocks("photos", "cat.jpg", kept));

        assertThat(store.pendingGarbage(100)).containsExactly(dropped.id());
    }

    @Test
    void overwritingInlineContentQueuesNothing() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(inline("photos", "note.txt", "one"));

        assertThat(store.putObject(inline("photos", "note.txt", "two")))
                .map(ObjectVersion::content)
                .contains(new ObjectContent.Inline("one".getBytes(UTF_8)));
        assertThat(store.pendingGarbage(100)).isEmpty();
    }

    @Test
    void deleteRemovesTheObjectAndQueuesItsBlocks() throws Exception {
        store.createBucket(bucket("photos"));
        BlockRef block = newBlock();
        ObjectVersion version = withBlocks("photos", "cat.jpg", block);
        store.putObject(version);

        assertThat(store.deleteObject("photos", "cat.jpg")).contains(version);

        assertThat(store.getObject("photos", "cat.jpg")).isEmpty();
        assertThat(store.pendingGarbage(100)).containsExactly(block.id());
        assertThat(store.deleteObject("photos", "cat.jpg")).isEmpty();
        assertThat(store.deleteObject("nowhere", "cat.jpg")).isEmpty();
    }

    // Listing objects

    @Test
    void listingFiltersByPrefix() throws Exception {
        putKeys("photos", "a", "ab", "abc", "abd", "b", "ab/x");

        ObjectListing listing = store.listObjects("photos", query("ab", null, null, 100));

        assertThat(keys(listing)).containsExactly("ab", "ab/x", "abc", "abd");
        assertThat(listing.commonPrefixes()).isEmpty();
        assertThat(listing.truncated()).isFalse();
        assertThat(listing.nextMarker()).isNull();
    }

    @Test
    void listingReturnsFullRecords() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion version = withBlocks("photos", "cat.jpg", newBlock());
        store.putObject(version);

        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(version);
    }

    @Test
    void delimiterRollsNestedKeysUpOnce() throws Exception {
        putKeys(
                "photos",
                "a.txt",
                "photos/2024/jan.jpg",
                "photos/2024/feb.jpg",
                "photos/2025/mar.jpg",
                "photos/index.html",
                "videos/clip.mp4",
                "zeta");

        ObjectListing top = store.listObjects("photos", query("", "/", null, 100));
        assertThat(keys(top)).containsExactly("a.txt", "zeta");
        assertThat(top.commonPrefixes()).containsExactly("photos/", "videos/");
        assertThat(top.truncated()).isFalse();

        ObjectListing nested = store.listObjects("photos", query("photos/", "/", null, 100));
        assertThat(keys(nested)).containsExactly("photos/index.html");
        assertThat(nested.commonPrefixes()).containsExactly("photos/2024/", "photos/2025/");

        ObjectListing partialPrefix = store.listObjects("photos", query("photos/20", "/", null, 100));
        assertThat(keys(partialPrefix)).isEmpty();
        assertThat(partialPrefix.commonPrefixes()).containsExactly("photos/2024/", "photos/2025/");
    }

    @Test
    void multiCharacterDelimiter() throws Exception {
        putKeys("photos", "a--b--c", "a--d", "a-e", "f");

        ObjectListing listing = store.listObjects("photos", query("", "--", null, 100));

        assertThat(keys(listing)).containsExactly("a-e", "f");
        assertThat(listing.commonPrefixes()).containsExactly("a--");
    }

    @Test
    void keyEqualToPrefixIsAnEntryNotACommonPrefix() throws Exception {
        putKeys("photos", "dir/", "dir/a", "dir/b/c");

        ObjectListing listing = store.listObjects("photos", query("dir/", "/", null, 100));

        assertThat(keys(listing)).containsExactly("dir/", "dir/a");
        assertThat(listing.commonPrefixes()).containsExactly("dir/b/");
    }

    @Test
    void afterIsExclusive() throws Exception {
        putKeys("photos", "a", "b", "c", "d");

        assertThat(keys(store.listObjects("photos", query("", null, "b", 100)))).containsExactly("c", "d");
        assertThat(keys(store.listObjects("photos", query("", null, "bb", 100)))).containsExactly("c", "d");
        assertThat(keys(store.listObjects("photos", query("", null, "", 100)))).containsExactly("a", "b", "c", "d");
        assertThat(keys(store.listObjects("photos", query("", null, "z", 100)))).isEmpty();
    }

    @Test
    void afterACommonPrefixSkipsEverythingUnderIt() throws Exception {
        putKeys("photos", "a/1", "a/2", "a/b/3", "b/1", "c");

        ObjectListing rolled = store.listObjects("photos", query("", "/", "a/", 100));
        assertThat(rolled.commonPrefixes()).containsExactly("b/");
        assertThat(keys(rolled)).containsExactly("c");

        // Without a delimiter "a/" is only a key: what sorts after it is listed.
        ObjectListing flat = store.listObjects("photos", query("", null, "a/", 100));
        assertThat(keys(flat)).containsExactly("a/1", "a/2", "a/b/3", "b/1", "c");
    }

    @Test
    void afterBeforeThePrefixStartsAtThePrefix() throws Exception {
        putKeys("photos", "a", "m/1", "m/2", "z");

        assertThat(keys(store.listObjects("photos", query("m/", null, "b", 100)))).containsExactly("m/1", "m/2");
    }

    @Test
    void keysSortByUtf8Bytes() throws Exception {
        // By UTF-16 code units "😀" (a surrogate pair, 0xD83D...) would sort before "Ａ" (0xFF21).
        putKeys("photos", "😀", "Ａ", "日本", "é", "z", "a");

        ObjectListing listing = store.listObjects("photos", query("", null, null, 100));

        assertThat(keys(listing)).containsExactly("a", "z", "é", "日本", "Ａ", "😀");
        assertThat(keys(store.listObjects("photos", query("", null, "日本", 100)))).containsExactly("Ａ", "😀");
        assertThat(keys(store.listObjects("photos", query("日", null, null, 100)))).containsExactly("日本");
    }

    @Test
    void nonAsciiDelimiterAndPrefixes() throws Exception {
        putKeys("photos", "été→juin→1", "été→juin→2", "été→août", "hiver");

        ObjectListing listing = store.listObjects("photos", query("été→", "→", null, 100));

        assertThat(keys(listing)).containsExactly("été→août");
        assertThat(listing.commonPrefixes()).containsExactly("été→juin→");
    }

    @Test
    void maxKeysZeroGivesAnEmptyPageThatIsNotTruncated() throws Exception {
        putKeys("photos", "a", "b/c");

        ObjectListing listing = store.listObjects("photos", query("", "/", null, 0));

        assertThat(listing.entries()).isEmpty();
        assertThat(listing.commonPrefixes()).isEmpty();
        assertThat(listing.truncated()).isFalse();
        assertThat(listing.nextMarker()).isNull();
    }

    @Test
    void pageThatEndsExactlyAtTheEndIsNotTruncated() throws Exception {
        putKeys("photos", "a", "b", "c/1", "c/2");

        ObjectListing listing = store.listObjects("photos", query("", "/", null, 3));

        assertThat(keys(listing)).containsExactly("a", "b");
        assertThat(listing.commonPrefixes()).containsExactly("c/");
        assertThat(listing.truncated()).isFalse();
        assertThat(listing.nextMarker()).isNull();
    }

    @Test
    void truncatedPageNamesItsLastKeyOrCommonPrefix() throws Exception {
        putKeys("photos", "a", "b/1", "b/2", "c");

        ObjectListing first = store.listObjects("photos", query("", "/", null, 1));
        assertThat(keys(first)).containsExactly("a");
        assertThat(first.truncated()).isTrue();
        assertThat(first.nextMarker()).isEqualTo("a");

        ObjectListing second = store.listObjects("photos", query("", "/", "a", 1));
        assertThat(second.commonPrefixes()).containsExactly("b/");
        assertThat(second.truncated()).isTrue();
        assertThat(second.nextMarker()).isEqualTo("b/");

        ObjectListing third = store.listObjects("photos", query("", "/", "b/", 1));
        assertThat(keys(third)).containsExactly("c");
        assertThat(third.truncated()).isFalse();
    }

    @Test
    void paginationReturnsEveryKeyOnceInOrder() throws Exception {
        List<String> keys = manyKeys();
        putKeys("photos", keys.toArray(String[]::new));
        List<String> expected = keys.stream().sorted(UTF8_ORDER).toList();

        assertThat(listAll("photos", "", null, 13)).containsExactlyElementsOf(expected);
        assertThat(listAll("photos", "dir07/", null, 4))
                .containsExactlyElementsOf(expected.stream().filter(key -> key.startsWith("dir07/")).toList());
    }

    @Test
    void paginationWithDelimiterReturnsEveryEntryAndPrefixOnce() throws Exception {
        putKeys("photos", manyKeys().toArray(String[]::new));
        List<String> expected = new ArrayList<>();
        IntStream.range(0, 60).forEach(dir -> expected.add("dir%02d/".formatted(dir)));
        IntStream.range(0, 1000).forEach(file -> expected.add("top%04d".formatted(file)));

        assertThat(listAll("photos", "", "/", 7)).containsExactlyElementsOf(expected);
        List<String> nested = new ArrayList<>();
        IntStream.range(0, 30).forEach(file -> nested.add("dir05/file%02d".formatted(file)));
        nested.add("dir05/sub/");
        assertThat(listAll("photos", "dir05/", "/", 3)).containsExactlyElementsOf(nested);
    }

    @Test
    void listingAMissingBucketIsEmpty() {
        ObjectListing listing = store.listObjects("nowhere", query("", "/", null, 10));

        assertThat(listing.entries()).isEmpty();
        assertThat(listing.truncated()).isFalse();
    }

    // Multipart uploads

    @Test
    void uploadIntoMissingBucketFails() {
        assertThatThrownBy(() -> store.createUpload(upload("nowhere", "key", "u1")))
                .isInstanceOf(NoSuchBucketException.class);
    }

    @Test
    void createdUploadCanBeRead() throws Exception {
        store.createBucket(bucket("photos"));
        MultipartUpload upload = new MultipartUpload(
                "photos", "big.iso", "u1", NOW, Map.of("content-type", "application/x-iso9660-image"),
                Map.of("owner", "me"), "CRC32C");
        store.createUpload(upload);

        assertThat(store.getUpload("photos", "big.iso", "u1")).contains(upload);
        assertThat(store.getUpload("photos", "big.iso", "u2")).isEmpty();
        assertThat(store.getUpload("photos", "other", "u1")).isEmpty();
        MultipartUpload withoutAlgorithm = upload("photos", "small", "u2");
        store.createUpload(withoutAlgorithm);
        assertThat(store.getUpload("photos", "small", "u2")).contains(withoutAlgorithm);
    }

    @Test
    void uploadsAreListedByKeyThenUploadId() throws Exception {
        createUploads();

        UploadListing listing = store.listUploads("photos", "", null, null, null, 100);

        assertThat(names(listing)).containsExactly("a u2", "a/x u4", "ab u5", "b u1", "b u3");
        assertThat(listing.truncated()).isFalse();
        assertThat(listing.nextKeyMarker()).isNull();
        assertThat(listing.uploads().getFirst()).isEqualTo(upload("photos", "a", "u2"));
    }

    @Test
    void uploadListingFollowsS3Markers() throws Exception {
        createUploads();

        assertThat(names(store.listUploads("photos", "", null, "a", null, 100)))
                .containsExactly("a/x u4", "ab u5", "b u1", "b u3");
        assertThat(names(store.listUploads("photos", "", null, "b", "u1", 100))).containsExactly("b u3");
        assertThat(names(store.listUploads("photos", "", null, "a", "u1", 100)))
                .containsExactly("a u2", "a/x u4", "ab u5", "b u1", "b u3");
        assertThat(names(store.listUploads("photos", "", null, "a", "u2", 100)))
                .containsExactly("a/x u4", "ab u5", "b u1", "b u3");
        // An upload id marker without a key marker is ignored, as in S3.
        assertThat(names(store.listUploads("photos", "", null, null, "u9", 100))).hasSize(5);
        assertThat(names(store.listUploads("photos", "a", null, null, null, 100)))
                .containsExactly("a u2", "a/x u4", "ab u5");
    }

    @Test
    void uploadsRollUpAtTheDelimiter() throws Exception {
        createUploads();

        UploadListing listing = store.listUploads("photos", "", "/", null, null, 100);

        assertThat(names(listing)).containsExactly("a u2", "ab u5", "b u1", "b u3");
        assertThat(listing.commonPrefixes()).containsExactly("a/");
    }

    @Test
    void uploadPagesResumeFromTheirMarkers() throws Exception {
        createUploads();

        UploadListing first = store.listUploads("photos", "", null, null, null, 2);
        assertThat(names(first)).containsExactly("a u2", "a/x u4");
        assertThat(first.truncated()).isTrue();
        assertThat(first.nextKeyMarker()).isEqualTo("a/x");
        assertThat(first.nextUploadIdMarker()).isEqualTo("u4");

        UploadListing second = store.listUploads("photos", "", null, "a/x", "u4", 2);
        assertThat(names(second)).containsExactly("ab u5", "b u1");
        assertThat(second.nextKeyMarker()).isEqualTo("b");
        assertThat(second.nextUploadIdMarker()).isEqualTo("u1");

        UploadListing third = store.listUploads("photos", "", null, "b", "u1", 2);
        assertThat(names(third)).containsExactly("b u3");
        assertThat(third.truncated()).isFalse();
        assertThat(third.nextKeyMarker()).isNull();
        assertThat(third.nextUploadIdMarker()).isNull();
    }

    @Test
    void uploadPagesWithDelimiterReturnEachCommonPrefixOnce() throws Exception {
        createUploads();
        List<String> seen = new ArrayList<>();
        String keyMarker = null;
        String uploadIdMarker = null;
        UploadListing page;
        do {
            page = store.listUploads("photos", "", "/", keyMarker, uploadIdMarker, 1);
            assertThat(page.uploads().size() + page.commonPrefixes().size()).isEqualTo(1);
            seen.addAll(names(page));
            seen.addAll(page.commonPrefixes());
            keyMarker = page.nextKeyMarker();
            uploadIdMarker = page.nextUploadIdMarker();
        } while (page.truncated());

        assertThat(seen).containsExactly("a u2", "a/", "ab u5", "b u1", "b u3");
    }

    @Test
    void maxUploadsZeroGivesAnEmptyPage() throws Exception {
        createUploads();

        UploadListing listing = store.listUploads("photos", "", null, null, null, 0);

        assertThat(listing.uploads()).isEmpty();
        assertThat(listing.truncated()).isFalse();
    }

    // Parts

    @Test
    void partCanBeRead() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part part = new Part(
                "u1", 3, NOW, 1234, "\"etag\"", List.of(newBlock(), newBlock()), new Checksum("SHA256", "abc="));
        store.putPart(upload, part);

        assertThat(store.getPart("u1", 3)).contains(part);
        assertThat(store.getPart("u1", 4)).isEmpty();
        assertThat(store.getPart("u2", 3)).isEmpty();
    }

    @Test
    void replacingAPartQueuesTheOldBlocks() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part old = part("u1", 1, newBlock(), newBlock());
        store.putPart(upload, old);
        Part replacement = part("u1", 1, newBlock());

        store.putPart(upload, replacement);

        assertThat(store.getPart("u1", 1)).contains(replacement);
        assertThat(store.pendingGarbage(100)).containsExactlyInAnyOrderElementsOf(blockIds(old));
    }

    @Test
    void partOfAMissingUploadIsRefusedAndItsBlocksQueued() {
        store.createBucket(bucket("photos"));
        MultipartUpload missing = upload("photos", "big.iso", "u1");
        Part part = part("u1", 1, newBlock());

        assertThatThrownBy(() -> store.putPart(missing, part)).isInstanceOf(NoSuchUploadException.class);

        assertThat(store.getPart("u1", 1)).isEmpty();
        assertThat(store.pendingGarbage(100)).containsExactlyElementsOf(blockIds(part));
    }

    @Test
    void partsArePagedByNumber() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        MultipartUpload neighbour = startUpload("photos", "other.iso", "u10");
        for (int number = 25; number >= 1; number--) {
            store.putPart(upload, part("u1", number, newBlock()));
        }
        store.putPart(neighbour, part("u10", 1, newBlock()));

        PartListing first = store.listParts("u1", 0, 10);
        PartListing second = store.listParts("u1", first.nextPartNumberMarker(), 10);
        PartListing third = store.listParts("u1", second.nextPartNumberMarker(), 10);

        assertThat(first.parts()).extracting(Part::partNumber).containsExactlyElementsOf(range(1, 10));
        assertThat(first.truncated()).isTrue();
        assertThat(first.nextPartNumberMarker()).isEqualTo(10);
        assertThat(second.parts()).extracting(Part::partNumber).containsExactlyElementsOf(range(11, 20));
        assertThat(second.nextPartNumberMarker()).isEqualTo(20);
        assertThat(third.parts()).extracting(Part::partNumber).containsExactlyElementsOf(range(21, 25));
        assertThat(third.truncated()).isFalse();
        assertThat(third.nextPartNumberMarker()).isZero();
        assertThat(store.listParts("u1", 20, 5).truncated()).isFalse();
        assertThat(store.listParts("u1", 25, 5).parts()).isEmpty();
        assertThat(store.listParts("u1", 0, 0).parts()).isEmpty();
        assertThat(store.listParts("u2", 0, 10).parts()).isEmpty();
    }

    // Completing and aborting

    @Test
    void completeQueuesTheBlocksOfUnusedPartsOnly() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part one = part("u1", 1, newBlock(), newBlock());
        Part two = part("u1", 2, newBlock());
        Part unused = part("u1", 3, newBlock());
        for (Part part : List.of(one, two, unused)) {
            store.putPart(upload, part);
        }
        List<BlockRef> used = new ArrayList<>(one.blocks());
        used.addAll(two.blocks());
        ObjectVersion version = withBlocks("photos", "big.iso", used.toArray(BlockRef[]::new));

        assertThat(store.completeUpload(upload, version)).isEmpty();

        assertThat(store.getObject("photos", "big.iso")).contains(version);
        assertThat(store.pendingGarbage(100)).containsExactlyElementsOf(blockIds(unused));
        assertThat(store.getUpload("photos", "big.iso", "u1")).isEmpty();
        assertThat(store.listParts("u1", 0, 100).parts()).isEmpty();
        assertThat(store.listUploads("photos", "", null, null, null, 100).uploads()).isEmpty();
        assertThatThrownBy(() -> store.completeUpload(upload, version)).isInstanceOf(NoSuchUploadException.class);
        assertThat(store.getObject("photos", "big.iso")).contains(version);
    }

    @Test
    void completeReplacesTheCurrentVersionAndQueuesItsBlocks() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        BlockRef oldBlock = newBlock();
        ObjectVersion old = withBlocks("photos", "big.iso", oldBlock);
        store.putObject(old);
        Part part = part("u1", 1, newBlock());
        store.putPart(upload, part);

        assertThat(store.completeUpload(upload, withBlocks("photos", "big.iso", part.blocks().getFirst())))
                .contains(old);

        assertThat(store.pendingGarbage(100)).containsExactly(oldBlock.id());
    }

    @Test
    void partAfterCompletionIsRefusedAndItsBlocksQueued() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part part = part("u1", 1, newBlock());
        store.putPart(upload, part);
        store.completeUpload(upload, withBlocks("photos", "big.iso", part.blocks().getFirst()));
        Part late = part("u1", 2, newBlock());

        assertThatThrownBy(() -> store.putPart(upload, late)).isInstanceOf(NoSuchUploadException.class);

        assertThat(store.pendingGarbage(100)).containsExactlyElementsOf(blockIds(late));
    }

    @Test
    void abortRemovesTheUploadAndQueuesEveryPart() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part one = part("u1", 1, newBlock(), newBlock());
        Part two = part("u1", 2, newBlock());
        store.putPart(upload, one);
        store.putPart(upload, two);

        assertThat(store.abortUpload(upload)).isTrue();

        assertThat(store.getUpload("photos", "big.iso", "u1")).isEmpty();
        assertThat(store.listParts("u1", 0, 100).parts()).isEmpty();
        List<BlockId> all = new ArrayList<>(blockIds(one));
        all.addAll(blockIds(two));
        assertThat(store.pendingGarbage(100)).containsExactlyInAnyOrderElementsOf(all);
        assertThat(store.abortUpload(upload)).isFalse();
        assertThatThrownBy(() -> store.completeUpload(upload, withBlocks("photos", "big.iso")))
                .isInstanceOf(NoSuchUploadException.class);
    }

    // Garbage queue

    @Test
    void garbageDrainsInBatches() {
        Set<BlockId> queued = randomIds(25);
        store.queueGarbage(queued);
        store.queueGarbage(List.of());

        Set<BlockId> drained = new HashSet<>();
        List<BlockId> batch;
        while (!(batch = store.pendingGarbage(10)).isEmpty()) {
            assertThat(batch).hasSizeLessThanOrEqualTo(10);
            assertThat(drained).doesNotContainAnyElementsOf(batch);
            drained.addAll(batch);
            store.forgetGarbage(batch);
        }

        assertThat(drained).isEqualTo(queued);
        assertThat(store.pendingGarbage(0)).isEmpty();
    }

    @Test
    void garbageQueuedDuringADrainIsFound() {
        Set<BlockId> queued = randomIds(20);
        store.queueGarbage(queued);
        Set<BlockId> drained = new HashSet<>();
        List<BlockId> first = store.pendingGarbage(10);
        drained.addAll(first);
        store.forgetGarbage(first);
        Set<BlockId> later = randomIds(20);
        store.queueGarbage(later);
        queued.addAll(later);

        List<BlockId> batch;
        while (!(batch = store.pendingGarbage(7)).isEmpty()) {
            drained.addAll(batch);
            store.forgetGarbage(batch);
        }

        assertThat(drained).isEqualTo(queued);
    }

    @Test
    void aDrainThatForgetsNothingStillSeesEveryId() {
        Set<BlockId> queued = randomIds(12);
        store.queueGarbage(queued);

        Set<BlockId> seen = new HashSet<>();
        for (int call = 0; call < 12; call++) {
            List<BlockId> batch = store.pendingGarbage(1);
            assertThat(batch).hasSize(1);
            seen.addAll(batch);
        }

        // An id whose block cannot be freed yet does not hide the others.
        assertThat(seen).isEqualTo(queued);
    }

    @Test
    void queuingTheSameBlockTwiceKeepsOneEntry() {
        BlockId id = BlockId.random();

        store.queueGarbage(List.of(id));
        store.queueGarbage(List.of(id));

        assertThat(store.pendingGarbage(10)).containsExactly(id);
        store.forgetGarbage(List.of(id, BlockId.random()));
        assertThat(store.pendingGarbage(10)).isEmpty();
    }

    // Access keys

    @Test
    void accessKeysAreStoredAndListedById() {
        AccessKey second = new AccessKey("GK2", "secret-2", NOW);
        AccessKey first = new AccessKey("GK1", "secret-1", NOW.plusSeconds(1));
        store.putAccessKey(second);
        store.putAccessKey(first);

        assertThat(store.getAccessKey("GK1")).contains(first);
        assertThat(store.getAccessKey("GK3")).isEmpty();
        assertThat(store.listAccessKeys()).containsExactly(first, second);

        AccessKey rotated = new AccessKey("GK1", "secret-rotated", NOW.plusSeconds(2));
        store.putAccessKey(rotated);
        assertThat(store.getAccessKey("GK1")).contains(rotated);
    }

    // Durability

    @Test
    void dataSurvivesCloseAndReopen() throws Exception {
        assumeThat(isDurable()).as("store keeps data across reopen").isTrue();
        store.createBucket(bucket("photos"));
        ObjectVersion small = inline("photos", "note.txt", "hello");
        ObjectVersion large = withBlocks("photos", "big.iso", newBlock());
        store.putObject(small);
        store.putObject(large);
        MultipartUpload upload = startUpload("photos", "next.iso", "u1");
        Part part = part("u1", 1, newBlock());
        store.putPart(upload, part);
        BlockId garbage = BlockId.random();
        store.queueGarbage(List.of(garbage));
        AccessKey key = new AccessKey("GK1", "secret", NOW);
        store.putAccessKey(key);

        store.close();
        store = openStore();

        assertThat(store.listBuckets()).containsExactly(bucket("photos"));
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(large, small);
        assertThat(store.getUpload("photos", "next.iso", "u1")).contains(upload);
        assertThat(store.getPart("u1", 1)).contains(part);
        assertThat(store.pendingGarbage(10)).containsExactly(garbage);
        assertThat(store.listAccessKeys()).containsExactly(key);
    }

    @Test
    void closedStoreRefusesCalls() {
        store.close();

        assertThatThrownBy(() -> store.getBucket("photos")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.createBucket(bucket("photos"))).isInstanceOf(IllegalStateException.class);
        store.close();
    }

    // Atomicity under concurrency

    @Test
    void concurrentOverwritesQueueEveryReplacedBlockExactlyOnce() throws Exception {
        store.createBucket(bucket("photos"));
        int threads = 8;
        int writesPerThread = 50;
        List<BlockId> written = Collections.synchronizedList(new ArrayList<>());
        try (ExecutorService executor = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                futures.add(executor.submit(() -> {
                    for (int i = 0; i < writesPerThread; i++) {
                        BlockRef block = newBlock();
                        written.add(block.id());
                        store.putObject(withBlocks("photos", "hot", block));
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        }

        BlockId current = ((ObjectContent.Blocks) store.getObject("photos", "hot").orElseThrow().content())
                .blocks()
                .getFirst()
                .id();
        List<BlockId> garbage = store.pendingGarbage(threads * writesPerThread);
        assertThat(garbage).hasSize(threads * writesPerThread - 1).doesNotContain(current);
        assertThat(new HashSet<>(garbage)).containsAll(written.stream().filter(id -> !id.equals(current)).toList());
    }

    @Test
    void noObjectIsCommittedIntoABucketBeingDeleted() throws Exception {
        for (int round = 0; round < 10; round++) {
            String name = "race-" + round;
            store.createBucket(bucket(name));
            try (ExecutorService executor = Executors.newFixedThreadPool(5)) {
                List<Future<?>> writers = new ArrayList<>();
                for (int thread = 0; thread < 4; thread++) {
                    int writer = thread;
                    writers.add(executor.submit(() -> {
                        for (int i = 0; i < 200; i++) {
                            try {
                                store.putObject(inline(name, "k" + writer + "-" + i, "x"));
                            } catch (NoSuchBucketException gone) {
                                return null;
                            }
                        }
                        return null;
                    }));
                }
                Future<?> deleter = executor.submit(() -> {
                    while (true) {
                        for (ObjectVersion version : store.listObjects(name, query("", null, null, 1000)).entries()) {
                            store.deleteObject(name, version.key());
                        }
                        try {
                            if (store.deleteBucket(name)) {
                                return null;
                            }
                        } catch (BucketNotEmptyException notYet) {
                            // A writer got in; empty it again.
                        }
                    }
                });
                deleter.get();
                for (Future<?> writer : writers) {
                    writer.get();
                }
            }

            assertThat(store.getBucket(name)).isEmpty();
            assertThat(store.listObjects(name, query("", null, null, 10)).entries())
                    .as("objects left in deleted bucket %s", name)
                    .isEmpty();
        }
    }

    // Helpers

    protected static BucketRecord bucket(String name) {
        return new BucketRecord(name, NOW, "us-east-1");
    }

    protected static BlockRef newBlock() {
        return new BlockRef(BlockId.random(), 1 << 20, 42);
    }

    protected static ObjectVersion inline(String bucket, String key, String text) {
        byte[] data = text.getBytes(UTF_8);
        return new ObjectVersion(
                bucket, key, ObjectVersion.NULL_VERSION, NOW, data.length, "\"etag-" + text + "\"",
                new ObjectContent.Inline(data), Map.of("content-type", "text/plain"), Map.of(), null, List.of());
    }

    protected static ObjectVersion withBlocks(String bucket, String key, BlockRef... blocks) {
        long size = Arrays.stream(blocks).mapToLong(BlockRef::size).sum();
        return new ObjectVersion(
                bucket, key, ObjectVersion.NULL_VERSION, NOW, size, "\"etag\"",
                new ObjectContent.Blocks(List.of(blocks)), Map.of(), Map.of(), null, List.of());
    }

    protected static MultipartUpload upload(String bucket, String key, String uploadId) {
        return new MultipartUpload(bucket, key, uploadId, NOW, Map.of(), Map.of(), null);
    }

    protected static Part part(String uploadId, int number, BlockRef... blocks) {
        long size = Arrays.stream(blocks).mapToLong(BlockRef::size).sum();
        return new Part(uploadId, number, NOW, size, "\"part-" + number + "\"", List.of(blocks), null);
    }

    protected static ListQuery query(String prefix, @Nullable String delimiter, @Nullable String after, int maxKeys) {
        return new ListQuery(prefix, delimiter, after, maxKeys);
    }

    private MultipartUpload startUpload(String bucket, String key, String uploadId) throws NoSuchBucketException {
        store.createBucket(bucket(bucket));
        MultipartUpload upload = upload(bucket, key, uploadId);
        store.createUpload(upload);
        return upload;
    }

    private void putKeys(String bucket, String... keys) throws NoSuchBucketException {
        store.createBucket(bucket(bucket));
        for (String key : keys) {
            store.putObject(inline(bucket, key, key));
        }
    }

    /** The uploads of {@link #uploadsAreListedByKeyThenUploadId}, created out of order. */
    private void createUploads() throws NoSuchBucketException {
        store.createBucket(bucket("photos"));
        store.createBucket(bucket("photos2"));
        store.createUpload(upload("photos", "b", "u3"));
        store.createUpload(upload("photos", "a", "u2"));
        store.createUpload(upload("photos", "b", "u1"));
        store.createUpload(upload("photos", "a/x", "u4"));
        store.createUpload(upload("photos", "ab", "u5"));
        store.createUpload(upload("photos2", "a", "u6"));
    }

    /** 1,800 keys in 60 folders, 1,000 at the top, a few nested deeper: 2,806 in all. */
    private static List<String> manyKeys() {
        List<String> keys = new ArrayList<>();
        for (int dir = 59; dir >= 0; dir--) {
            for (int file = 0; file < 30; file++) {
                keys.add("dir%02d/file%02d".formatted(dir, file));
            }
        }
        for (int file = 0; file < 1000; file++) {
            keys.add("top%04d".formatted(file));
        }
        for (int deep = 0; deep < 3; deep++) {
            keys.add("dir05/sub/deep" + deep);
            keys.add("dir07/sub/deep" + deep);
        }
        return keys;
    }

    /**
     * Pages through a listing and returns its entries and common prefixes in the order listed,
     * checking on the way that pages are full when truncated and markers name their last item.
     */
    private List<String> listAll(String bucket, String prefix, @Nullable String delimiter, int pageSize) {
        List<String> all = new ArrayList<>();
        String after = null;
        ObjectListing page;
        do {
            page = store.listObjects(bucket, query(prefix, delimiter, after, pageSize));
            List<String> items = new ArrayList<>(keys(page));
            items.addAll(page.commonPrefixes());
            items.sort(UTF8_ORDER);
            assertThat(items).hasSizeLessThanOrEqualTo(pageSize);
            if (page.truncated()) {
                assertThat(items).hasSize(pageSize);
                assertThat(page.nextMarker()).isEqualTo(items.getLast());
            }
            all.addAll(items);
            after = page.nextMarker();
        } while (page.truncated());
        return all;
    }

    private static List<String> keys(ObjectListing listing) {
        return listing.entries().stream().map(ObjectVersion::key).toList();
    }

    private static List<String> names(UploadListing listing) {
        return listing.uploads().stream().map(upload -> upload.key() + " " + upload.uploadId()).toList();
    }

    private static List<BlockId> blockIds(Part part) {
        return part.blocks().stream().map(BlockRef::id).toList();
    }

    private static Set<BlockId> randomIds(int count) {
        Set<BlockId> ids = new HashSet<>();
        while (ids.size() < count) {
            ids.add(BlockId.random());
        }
        return ids;
    }

    private static List<Integer> range(int first, int last) {
        return IntStream.rangeClosed(first, last).boxed().toList();
    }
}
