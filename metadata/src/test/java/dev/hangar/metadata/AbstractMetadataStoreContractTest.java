package dev.hangar.metadata;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.command.AccessKeyChange;
import dev.hangar.metadata.command.LockCheck;
import dev.hangar.metadata.command.VersionChange;
import dev.hangar.metadata.command.VersionMatch;
import dev.hangar.metadata.state.CommandRefusedException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
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

    /**
     * Whether completing an upload refuses blocks no current part holds ({@link PartsChangedException}): a store
     * whose parts and completion share one lock. The leaderless store's locks are per node, so it cannot.
     */
    protected boolean refusesChangedParts() {
        return true;
    }

    @Test
    void completeRefusesBlocksAPartNoLongerHasAndChangesNothing() throws Exception {
        assumeThat(refusesChangedParts()).as("completion checks the parts under the parts' lock").isTrue();
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part first = part("u1", 1, newBlock());
        store.putPart(upload, first);
        ObjectVersion version = withBlocks("photos", "big.iso", first.blocks().getFirst());
        // Uploaded again after the completion read the parts: the first upload's block is queued.
        Part again = part("u1", 1, newBlock());
        store.putPart(upload, again);

        assertThatThrownBy(() -> store.completeUpload(upload, version)).isInstanceOf(PartsChangedException.class);

        assertThat(store.getObject("photos", "big.iso")).isEmpty();
        assertThat(store.getUpload("photos", "big.iso", "u1")).isPresent();
        assertThat(store.listParts("u1", 0, 100).parts()).containsExactly(again);
        assertThat(store.completeUpload(upload, withBlocks("photos", "big.iso", again.blocks().getFirst()))).isEmpty();
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

    // Versions

    @Test
    void versionedPutsKeepEveryVersionNewestFirst() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion first = version("photos", "cat.jpg", "v1", newBlock());
        ObjectVersion second = version("photos", "cat.jpg", "v2", newBlock());
        ObjectVersion third = version("photos", "cat.jpg", "v3", newBlock());

        assertThat(store.putObject(first)).isEmpty();
        assertThat(store.putObject(second)).isEmpty();
        assertThat(store.putObject(third)).isEmpty();

        assertThat(store.getObject("photos", "cat.jpg")).contains(third);
        assertThat(store.getVersion("photos", "cat.jpg", "v1")).contains(first);
        assertThat(store.getVersion("photos", "cat.jpg", "v2")).contains(second);
        assertThat(store.getVersion("photos", "cat.jpg", "v9")).isEmpty();
        assertThat(store.getVersion("photos", "dog.jpg", "v1")).isEmpty();
        assertThat(store.getVersion("nowhere", "cat.jpg", "v1")).isEmpty();
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, null, 100))))
                .containsExactly("cat.jpg v3 latest", "cat.jpg v2", "cat.jpg v1");
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(third);
        assertThat(store.pendingGarbage(100)).isEmpty();
    }

    @Test
    void orderIsTheOrderOfWritesNotOfIdsOrTimes() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion later = version("photos", "k", "a", newBlock());
        ObjectVersion earlierLooking = new ObjectVersion(
                "photos", "k", "z", NOW.minusSeconds(3600), 1, "\"e\"", new ObjectContent.Inline(new byte[1]),
                Map.of(), Map.of(), null, List.of());

        store.putObject(later);
        store.putObject(earlierLooking);

        assertThat(store.getObject("photos", "k")).contains(earlierLooking);
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, null, 10))))
                .containsExactly("k z latest", "k a");
    }

    @Test
    void nullVersionIsReplacedAndItsBlocksQueued() throws Exception {
        store.createBucket(bucket("photos"));
        BlockRef oldNull = newBlock();
        ObjectVersion firstNull = version("photos", "cat.jpg", "null", oldNull);
        ObjectVersion versioned = version("photos", "cat.jpg", "v1", newBlock());
        ObjectVersion secondNull = version("photos", "cat.jpg", "null", newBlock());
        store.putObject(firstNull);
        store.putObject(versioned);

        // The "null" version replaced is not the current one: it is older than v1.
        assertThat(store.putObject(secondNull)).contains(firstNull);

        assertThat(store.getObject("photos", "cat.jpg")).contains(secondNull);
        assertThat(store.getVersion("photos", "cat.jpg", "null")).contains(secondNull);
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, null, 10))))
                .containsExactly("cat.jpg null latest", "cat.jpg v1");
        assertThat(store.pendingGarbage(100)).containsExactly(oldNull.id());
    }

    @Test
    void nullVersionThatKeepsItsBlocksQueuesNone() throws Exception {
        store.createBucket(bucket("photos"));
        BlockRef kept = newBlock();
        store.putObject(version("photos", "cat.jpg", "null", kept));

        ObjectVersion rewritten = version("photos", "cat.jpg", "null", kept).withTags(Map.of("k", "v"));
        store.putObject(rewritten);

        assertThat(store.getObject("photos", "cat.jpg")).contains(rewritten);
        assertThat(store.pendingGarbage(100)).isEmpty();
    }

    @Test
    void deleteMarkerHidesTheKeyFromListingsButGetObjectReturnsIt() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion live = version("photos", "cat.jpg", "v1", newBlock());
        ObjectVersion marker = marker("photos", "cat.jpg", "m1");
        store.putObject(live);
        store.putObject(inline("photos", "dog.jpg", "woof"));

        assertThat(store.putObject(marker)).isEmpty();

        assertThat(store.getObject("photos", "cat.jpg")).contains(marker);
        assertThat(store.getObject("photos", "cat.jpg").orElseThrow().isDeleteMarker()).isTrue();
        assertThat(store.getVersion("photos", "cat.jpg", "v1")).contains(live);
        assertThat(keys(store.listObjects("photos", query("", null, null, 10)))).containsExactly("dog.jpg");
        assertThat(store.listObjects("photos", query("", "/", null, 10)).entries())
                .extracting(ObjectVersion::key)
                .containsExactly("dog.jpg");
        assertThat(listedVersions(store.listVersions("photos", versionQuery("cat", null, null, null, 10))))
                .containsExactly("cat.jpg m1 latest", "cat.jpg v1");
        assertThat(store.pendingGarbage(100)).isEmpty();
    }

    @Test
    void aLiveVersionOverADeleteMarkerIsListedAgain() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "cat.jpg", "v1", newBlock()));
        store.putObject(marker("photos", "cat.jpg", "m1"));
        store.putObject(marker("photos", "cat.jpg", "m2"));
        ObjectVersion back = version("photos", "cat.jpg", "v2", newBlock());

        store.putObject(back);

        assertThat(store.getObject("photos", "cat.jpg")).contains(back);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(back);
    }

    @Test
    void deletingTheCurrentVersionPromotesTheNextOne() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion first = version("photos", "cat.jpg", "v1", newBlock());
        ObjectVersion second = version("photos", "cat.jpg", "v2", newBlock());
        store.putObject(first);
        store.putObject(second);

        assertThat(store.deleteVersion("photos", "cat.jpg", "v2")).contains(second);
        assertThat(store.getObject("photos", "cat.jpg")).contains(first);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(first);

        // A delete marker promoted hides the key again.
        ObjectVersion marker = marker("photos", "cat.jpg", "m1");
        store.putObject(marker);
        ObjectVersion third = version("photos", "cat.jpg", "v3", newBlock());
        store.putObject(third);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(third);

        assertThat(store.deleteVersion("photos", "cat.jpg", "v3")).contains(third);
        assertThat(store.getObject("photos", "cat.jpg")).contains(marker);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).isEmpty();

        // Removing the marker brings the object back.
        assertThat(store.deleteVersion("photos", "cat.jpg", "m1")).contains(marker);
        assertThat(store.getObject("photos", "cat.jpg")).contains(first);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(first);
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, null, 10))))
                .containsExactly("cat.jpg v1 latest");
    }

    @Test
    void deletingANoncurrentVersionLeavesTheCurrentAlone() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion first = version("photos", "cat.jpg", "v1", newBlock());
        ObjectVersion second = version("photos", "cat.jpg", "v2", newBlock());
        ObjectVersion third = version("photos", "cat.jpg", "v3", newBlock());
        store.putObject(first);
        store.putObject(second);
        store.putObject(third);

        assertThat(store.deleteVersion("photos", "cat.jpg", "v2")).contains(second);

        assertThat(store.getObject("photos", "cat.jpg")).contains(third);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(third);
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, null, 10))))
                .containsExactly("cat.jpg v3 latest", "cat.jpg v1");
        assertThat(store.deleteVersion("photos", "cat.jpg", "v2")).isEmpty();
        assertThat(store.deleteVersion("photos", "cat.jpg", "nope")).isEmpty();
        assertThat(store.deleteVersion("photos", "dog.jpg", "v1")).isEmpty();
        assertThat(store.deleteVersion("nowhere", "cat.jpg", "v1")).isEmpty();
    }

    @Test
    void deletingANoncurrentVersionUnderADeleteMarkerKeepsTheKeyHidden() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "cat.jpg", "v1", newBlock()));
        ObjectVersion marker = marker("photos", "cat.jpg", "m1");
        store.putObject(marker);

        store.deleteVersion("photos", "cat.jpg", "v1");

        assertThat(store.getObject("photos", "cat.jpg")).contains(marker);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).isEmpty();
    }

    @Test
    void blocksOfRemovedVersionsAreQueuedAndBlocksOfKeptVersionsAreNot() throws Exception {
        store.createBucket(bucket("photos"));
        BlockRef onlyFirst = newBlock();
        BlockRef shared = newBlock();
        BlockRef onlySecond = newBlock();
        BlockRef onlyThird = newBlock();
        store.putObject(version("photos", "cat.jpg", "v1", onlyFirst, shared));
        store.putObject(version("photos", "cat.jpg", "v2", shared, onlySecond));
        store.putObject(version("photos", "cat.jpg", "v3", onlyThird));
        store.putObject(marker("photos", "cat.jpg", "m1"));
        assertThat(store.pendingGarbage(100)).isEmpty();

        store.deleteVersion("photos", "cat.jpg", "v1");
        assertThat(store.pendingGarbage(100)).containsExactly(onlyFirst.id());

        store.deleteVersion("photos", "cat.jpg", "m1");
        assertThat(store.pendingGarbage(100)).containsExactly(onlyFirst.id());

        store.deleteVersion("photos", "cat.jpg", "v2");
        assertThat(store.pendingGarbage(100))
                .containsExactlyInAnyOrder(onlyFirst.id(), shared.id(), onlySecond.id());
        assertThat(store.getObject("photos", "cat.jpg").orElseThrow().versionId()).isEqualTo("v3");
    }

    @Test
    void replacedNullVersionKeepsBlocksThatAnotherVersionReferences() throws Exception {
        store.createBucket(bucket("photos"));
        BlockRef shared = newBlock();
        BlockRef own = newBlock();
        store.putObject(version("photos", "cat.jpg", "null", shared, own));
        store.putObject(version("photos", "cat.jpg", "v1", shared));

        store.putObject(inline("photos", "cat.jpg", "new"));

        assertThat(store.pendingGarbage(100)).containsExactly(own.id());
    }

    @Test
    void deleteObjectRemovesOnlyTheNullVersion() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion versioned = version("photos", "cat.jpg", "v1", newBlock());
        BlockRef nullBlock = newBlock();
        ObjectVersion nullVersion = version("photos", "cat.jpg", "null", nullBlock);
        store.putObject(versioned);
        store.putObject(nullVersion);

        assertThat(store.deleteObject("photos", "cat.jpg")).contains(nullVersion);

        assertThat(store.getObject("photos", "cat.jpg")).contains(versioned);
        assertThat(store.pendingGarbage(100)).containsExactly(nullBlock.id());
        assertThat(store.deleteObject("photos", "cat.jpg")).isEmpty();
        assertThat(store.getObject("photos", "cat.jpg")).contains(versioned);
    }

    @Test
    void keyWithoutVersionsLeavesNoTrace() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "cat.jpg", "v1", newBlock()));
        store.putObject(marker("photos", "cat.jpg", "m1"));

        store.deleteVersion("photos", "cat.jpg", "m1");
        store.deleteVersion("photos", "cat.jpg", "v1");

        assertThat(store.getObject("photos", "cat.jpg")).isEmpty();
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).isEmpty();
        assertThat(store.listVersions("photos", versionQuery("", null, null, null, 10)).versions()).isEmpty();
        assertThat(store.deleteBucket("photos")).isTrue();
    }

    @Test
    void bucketWithOnlyDeleteMarkersIsNotEmpty() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(marker("photos", "gone", "m1"));

        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).isEmpty();
        assertThatThrownBy(() -> store.deleteBucket("photos")).isInstanceOf(BucketNotEmptyException.class);

        store.deleteVersion("photos", "gone", "m1");
        assertThat(store.deleteBucket("photos")).isTrue();
    }

    @Test
    void bucketWithOnlyNoncurrentVersionsIsNotEmpty() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "cat.jpg", "v1", newBlock()));
        store.putObject(marker("photos", "cat.jpg", "m1"));
        store.deleteVersion("photos", "cat.jpg", "m1");
        store.putObject(marker("photos", "cat.jpg", "m2"));

        assertThatThrownBy(() -> store.deleteBucket("photos")).isInstanceOf(BucketNotEmptyException.class);
        assertThat(store.getBucket("photos")).isPresent();
    }

    @Test
    void keysContainingNulAreRefusedByMutations() throws Exception {
        store.createBucket(bucket("photos"));

        assertThatThrownBy(() -> store.putObject(inline("photos", "bad\0key", "x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store.getObject("photos", "bad\0key")).isEmpty();
        assertThat(store.getVersion("photos", "bad\0key", "null")).isEmpty();
        assertThat(store.deleteObject("photos", "bad\0key")).isEmpty();
    }

    // Listing versions

    @Test
    void versionsAreListedByKeyThenNewestFirst() throws Exception {
        store.createBucket(bucket("photos"));
        store.createBucket(bucket("photos2"));
        store.putObject(version("photos", "b", "b1", newBlock()));
        store.putObject(version("photos", "a", "a1", newBlock()));
        store.putObject(marker("photos", "ab", "ab1"));
        store.putObject(version("photos", "a/x", "ax1", newBlock()));
        store.putObject(version("photos", "b", "b2", newBlock()));
        store.putObject(marker("photos", "a", "a2"));
        store.putObject(version("photos", "a", "a3", newBlock()));
        store.putObject(version("photos2", "a", "other", newBlock()));

        VersionListing listing = store.listVersions("photos", versionQuery("", null, null, null, 100));

        assertThat(listedVersions(listing))
                .containsExactly("a a3 latest", "a a2", "a a1", "a/x ax1 latest", "ab ab1 latest", "b b2 latest", "b b1");
        assertThat(listing.versions().get(4).version().isDeleteMarker()).isTrue();
        assertThat(listing.commonPrefixes()).isEmpty();
        assertThat(listing.truncated()).isFalse();
        assertThat(listing.nextKeyMarker()).isNull();
        assertThat(listing.nextVersionIdMarker()).isNull();
        assertThat(listedVersions(store.listVersions("photos", versionQuery("a", null, null, null, 100))))
                .containsExactly("a a3 latest", "a a2", "a a1", "a/x ax1 latest", "ab ab1 latest");
        assertThat(store.listVersions("nowhere", versionQuery("", null, null, null, 100)).versions()).isEmpty();
    }

    @Test
    void listedVersionsAreFullRecords() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion version = version("photos", "cat.jpg", "v1", newBlock())
                .withTags(Map.of("colour", "black"))
                .withAcl("public-read");
        store.putObject(version);

        assertThat(store.listVersions("photos", versionQuery("", null, null, null, 10)).versions())
                .containsExactly(new ListedVersion(version, true));
    }

    @Test
    void versionsRollUpAtTheDelimiter() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "photos/2024/jan.jpg", "j1", newBlock()));
        store.putObject(version("photos", "photos/2024/jan.jpg", "j2", newBlock()));
        store.putObject(marker("photos", "photos/2025/gone.jpg", "g1"));
        store.putObject(version("photos", "photos/index.html", "i1", newBlock()));
        store.putObject(marker("photos", "top", "t2"));
        store.putObject(version("photos", "a.txt", "a1", newBlock()));

        VersionListing top = store.listVersions("photos", versionQuery("", "/", null, null, 100));
        assertThat(listedVersions(top)).containsExactly("a.txt a1 latest", "top t2 latest");
        assertThat(top.commonPrefixes()).containsExactly("photos/");

        VersionListing nested = store.listVersions("photos", versionQuery("photos/", "/", null, null, 100));
        assertThat(listedVersions(nested)).containsExactly("photos/index.html i1 latest");
        // A folder holding only a delete marker is still a common prefix of the version listing.
        assertThat(nested.commonPrefixes()).containsExactly("photos/2024/", "photos/2025/");
    }

    @Test
    void versionListingFollowsS3Markers() throws Exception {
        store.createBucket(bucket("photos"));
        for (String id : List.of("a1", "a2", "a3")) {
            store.putObject(version("photos", "a", id, newBlock()));
        }
        store.putObject(version("photos", "a/x", "x1", newBlock()));
        store.putObject(version("photos", "b", "b1", newBlock()));
        store.putObject(version("photos", "b", "b2", newBlock()));

        // Key marker only: keys strictly after it.
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, "a", null, 100))))
                .containsExactly("a/x x1 latest", "b b2 latest", "b b1");
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, "a/", null, 100))))
                .containsExactly("a/x x1 latest", "b b2 latest", "b b1");
        // Both: the versions of the key older than the marker version, then later keys.
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, "a", "a3", 100))))
                .containsExactly("a a2", "a a1", "a/x x1 latest", "b b2 latest", "b b1");
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, "a", "a1", 100))))
                .containsExactly("a/x x1 latest", "b b2 latest", "b b1");
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, "b", "b2", 100))))
                .containsExactly("b b1");
        // A version id marker that the key does not have: resume after the key.
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, "a", "gone", 100))))
                .containsExactly("a/x x1 latest", "b b2 latest", "b b1");
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, "aa", "a2", 100))))
                .containsExactly("b b2 latest", "b b1");
        // A version id marker alone is ignored.
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, "a2", 100))))
                .hasSize(6);
        // A key marker that is a common prefix skips everything under it.
        VersionListing afterPrefix = store.listVersions("photos", versionQuery("", "/", "a/", null, 100));
        assertThat(listedVersions(afterPrefix)).containsExactly("b b2 latest", "b b1");
        assertThat(afterPrefix.commonPrefixes()).isEmpty();
    }

    @Test
    void truncatedVersionPageNamesItsLastVersionOrCommonPrefix() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "a", "a1", newBlock()));
        store.putObject(version("photos", "a", "a2", newBlock()));
        store.putObject(version("photos", "d/x", "x1", newBlock()));
        store.putObject(version("photos", "z", "z1", newBlock()));

        VersionListing first = store.listVersions("photos", versionQuery("", "/", null, null, 1));
        assertThat(listedVersions(first)).containsExactly("a a2 latest");
        assertThat(first.truncated()).isTrue();
        assertThat(first.nextKeyMarker()).isEqualTo("a");
        assertThat(first.nextVersionIdMarker()).isEqualTo("a2");

        VersionListing second = store.listVersions("photos", versionQuery("", "/", "a", "a2", 2));
        assertThat(listedVersions(second)).containsExactly("a a1");
        assertThat(second.commonPrefixes()).containsExactly("d/");
        assertThat(second.truncated()).isTrue();
        assertThat(second.nextKeyMarker()).isEqualTo("d/");
        assertThat(second.nextVersionIdMarker()).isNull();

        VersionListing third = store.listVersions("photos", versionQuery("", "/", "d/", null, 2));
        assertThat(listedVersions(third)).containsExactly("z z1 latest");
        assertThat(third.truncated()).isFalse();
        assertThat(third.nextKeyMarker()).isNull();
        assertThat(third.nextVersionIdMarker()).isNull();

        VersionListing empty = store.listVersions("photos", versionQuery("", null, null, null, 0));
        assertThat(empty.versions()).isEmpty();
        assertThat(empty.truncated()).isFalse();
    }

    @Test
    void versionPaginationReturnsEveryVersionExactlyOnce() throws Exception {
        store.createBucket(bucket("photos"));
        // 60 keys in 6 folders, 1 to 9 versions each, some of them delete markers: 300 versions.
        List<String> expected = new ArrayList<>();
        List<ObjectVersion> writes = new ArrayList<>();
        for (int key = 0; key < 60; key++) {
            String name = "dir%d/key%02d".formatted(key % 6, key);
            int count = 1 + (key * 7) % 9;
            List<String> newestFirst = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String id = "%s-v%d".formatted(name, i);
                writes.add(i % 4 == 3 ? marker("photos", name, id) : inline("photos", name, id).withVersionId(id));
                newestFirst.addFirst(name + " " + id + (i == count - 1 ? " latest" : ""));
            }
            expected.add(String.join("\n", newestFirst));
        }
        // Interleave the writes of different keys: the order among keys must not matter.
        Collections.shuffle(writes, new java.util.Random(42));
        writes.sort(Comparator.comparing(version -> Integer.parseInt(version.versionId().replaceAll(".*-v", ""))));
        for (ObjectVersion write : writes) {
            store.putObject(write);
        }
        List<String> sortedExpected = new ArrayList<>();
        expected.stream()
                .sorted(Comparator.comparing(block -> block.substring(0, block.indexOf(' ')), UTF8_ORDER))
                .forEach(block -> sortedExpected.addAll(List.of(block.split("\n"))));
        assertThat(sortedExpected).hasSize(300);

        assertThat(listAllVersions("", null, 1000)).containsExactlyElementsOf(sortedExpected);
        for (int pageSize : List.of(1, 7, 50, 299, 300)) {
            assertThat(listAllVersions("", null, pageSize)).as("page size %d", pageSize)
                    .containsExactlyElementsOf(sortedExpected);
        }
        assertThat(listAllVersions("dir3/", null, 4))
                .containsExactlyElementsOf(sortedExpected.stream().filter(line -> line.startsWith("dir3/")).toList());
        assertThat(listAllVersions("", "/", 1))
                .containsExactly("dir0/", "dir1/", "dir2/", "dir3/", "dir4/", "dir5/");
    }

    // Conditional writes

    @Test
    void ifAbsentSucceedsOnANewKeyAndOverADeleteMarker() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion first = inline("photos", "new", "one");

        assertThat(store.putObject(first, new Precondition.IfAbsent())).isEmpty();
        assertThat(store.getObject("photos", "new")).contains(first);

        store.putObject(version("photos", "gone", "v1", newBlock()));
        store.putObject(marker("photos", "gone", "m1"));
        ObjectVersion back = version("photos", "gone", "v2", newBlock());
        assertThat(store.putObject(back, new Precondition.IfAbsent())).isEmpty();
        assertThat(store.getObject("photos", "gone")).contains(back);
    }

    @Test
    void ifAbsentFailsOverALiveObjectAndWritesNothing() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion existing = withBlocks("photos", "cat.jpg", newBlock());
        store.putObject(existing);

        assertThatThrownBy(() -> store.putObject(inline("photos", "cat.jpg", "other"), new Precondition.IfAbsent()))
                .isInstanceOf(PreconditionFailedException.class);
        assertThatThrownBy(() -> store.putObject(version("photos", "cat.jpg", "v2"), new Precondition.IfAbsent()))
                .isInstanceOf(PreconditionFailedException.class);

        assertThat(store.getObject("photos", "cat.jpg")).contains(existing);
        assertThat(store.listVersions("photos", versionQuery("", null, null, null, 10)).versions()).hasSize(1);
        assertThat(store.pendingGarbage(100)).isEmpty();
    }

    @Test
    void missingBucketIsReportedBeforeThePrecondition() {
        assertThatThrownBy(() -> store.putObject(inline("nowhere", "k", "x"), new Precondition.IfEtagMatches("x")))
                .isInstanceOf(NoSuchBucketException.class);
    }

    @Test
    void ifEtagMatchesComparesTheCurrentEtagIgnoringQuotes() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion existing = inline("photos", "note.txt", "one");
        store.putObject(existing);
        ObjectVersion second = inline("photos", "note.txt", "two");
        ObjectVersion third = inline("photos", "note.txt", "three");

        assertThat(store.putObject(second, new Precondition.IfEtagMatches("\"etag-one\""))).contains(existing);
        assertThat(store.putObject(third, new Precondition.IfEtagMatches("etag-two"))).contains(second);
        assertThatThrownBy(() -> store.putObject(existing, new Precondition.IfEtagMatches("\"etag-two\"")))
                .isInstanceOf(PreconditionFailedException.class);
        assertThatThrownBy(() -> store.putObject(existing, new Precondition.IfEtagMatches("etag-thre")))
                .isInstanceOf(PreconditionFailedException.class);
        assertThat(store.getObject("photos", "note.txt")).contains(third);

        assertThat(store.putObject(inline("photos", "any", "x"), new Precondition.None())).isEmpty();
    }

    @Test
    void ifEtagMatchesFailsWithoutALiveCurrentVersion() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion live = version("photos", "gone", "v1", newBlock());
        store.putObject(live);
        store.putObject(marker("photos", "gone", "m1"));

        // The marker is current: the older version's ETag does not count.
        assertThatThrownBy(() -> store.putObject(inline("photos", "gone", "x"), new Precondition.IfEtagMatches(live.etag())))
                .isInstanceOf(PreconditionFailedException.class);
        assertThatThrownBy(() -> store.putObject(inline("photos", "never", "x"), new Precondition.IfEtagMatches("\"e\"")))
                .isInstanceOf(PreconditionFailedException.class);
        assertThat(store.getObject("photos", "never")).isEmpty();
    }

    @Test
    void completeUploadChecksItsPrecondition() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part part = part("u1", 1, newBlock());
        store.putPart(upload, part);
        ObjectVersion existing = inline("photos", "big.iso", "small");
        store.putObject(existing);
        ObjectVersion completed = withBlocks("photos", "big.iso", part.blocks().getFirst());

        assertThatThrownBy(() -> store.completeUpload(upload, completed, new Precondition.IfAbsent()))
                .isInstanceOf(PreconditionFailedException.class);
        assertThatThrownBy(() -> store.completeUpload(upload, completed, new Precondition.IfEtagMatches("nope")))
                .isInstanceOf(PreconditionFailedException.class);

        // Nothing changed: the upload and its part are still there, nothing was queued.
        assertThat(store.getObject("photos", "big.iso")).contains(existing);
        assertThat(store.getUpload("photos", "big.iso", "u1")).contains(upload);
        assertThat(store.getPart("u1", 1)).contains(part);
        assertThat(store.pendingGarbage(100)).isEmpty();

        assertThat(store.completeUpload(upload, completed, new Precondition.IfEtagMatches("etag-small")))
                .contains(existing);
        assertThat(store.getObject("photos", "big.iso")).contains(completed);
        assertThat(store.getUpload("photos", "big.iso", "u1")).isEmpty();
    }

    @Test
    void completeUploadIfAbsentSucceedsOnANewKeyAndMissingUploadComesFirst() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part part = part("u1", 1, newBlock());
        store.putPart(upload, part);
        ObjectVersion completed = version("photos", "big.iso", "v1", part.blocks().getFirst());

        assertThat(store.completeUpload(upload, completed, new Precondition.IfAbsent())).isEmpty();

        assertThat(store.getObject("photos", "big.iso")).contains(completed);
        assertThatThrownBy(() -> store.completeUpload(upload, completed, new Precondition.IfAbsent()))
                .isInstanceOf(NoSuchUploadException.class);
    }

    @Test
    void completeUploadKeepsOtherVersions() throws Exception {
        MultipartUpload upload = startUpload("photos", "big.iso", "u1");
        Part part = part("u1", 1, newBlock());
        store.putPart(upload, part);
        ObjectVersion older = version("photos", "big.iso", "v1", newBlock());
        store.putObject(older);
        ObjectVersion completed = version("photos", "big.iso", "v2", part.blocks().getFirst());

        assertThat(store.completeUpload(upload, completed)).isEmpty();

        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, null, 10))))
                .containsExactly("big.iso v2 latest", "big.iso v1");
        assertThat(store.pendingGarbage(100)).isEmpty();
    }

    @Test
    void concurrentIfAbsentWritesOfOneKeyHaveExactlyOneWinner() throws Exception {
        store.createBucket(bucket("photos"));
        int threads = 16;
        for (int round = 0; round < 5; round++) {
            String key = "lock-" + round;
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> attempts = new ArrayList<>();
            try (ExecutorService executor = Executors.newFixedThreadPool(threads)) {
                for (int thread = 0; thread < threads; thread++) {
                    ObjectVersion attempt = version("photos", key, "t" + thread, newBlock());
                    attempts.add(executor.submit(() -> {
                        start.await();
                        try {
                            store.putObject(attempt, new Precondition.IfAbsent());
                            return true;
                        } catch (PreconditionFailedException lost) {
                            return false;
                        }
                    }));
                }
                start.countDown();
                int winners = 0;
                for (Future<Boolean> attempt : attempts) {
                    winners += attempt.get() ? 1 : 0;
                }
                assertThat(winners).as("winners of round %d", round).isEqualTo(1);
            }
            assertThat(store.listVersions("photos", versionQuery(key, null, null, null, 100)).versions()).hasSize(1);
        }
    }

    @Test
    void concurrentVersionedPutsKeepEveryVersionInOrderPerWriter() throws Exception {
        store.createBucket(bucket("photos"));
        int threads = 8;
        int writesPerThread = 25;
        try (ExecutorService executor = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int writer = thread;
                futures.add(executor.submit(() -> {
                    for (int i = 0; i < writesPerThread; i++) {
                        store.putObject(version("photos", "hot", "w%d-%03d".formatted(writer, i), newBlock()));
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        }

        List<ListedVersion> versions =
                store.listVersions("photos", versionQuery("", null, null, null, 1000)).versions();
        assertThat(versions).hasSize(threads * writesPerThread);
        assertThat(versions.stream().filter(ListedVersion::latest).toList()).hasSize(1);
        assertThat(store.getObject("photos", "hot")).contains(versions.getFirst().version());
        for (int writer = 0; writer < threads; writer++) {
            String own = "w" + writer + "-";
            List<String> newestFirst = versions.stream()
                    .map(listed -> listed.version().versionId())
                    .filter(id -> id.startsWith(own))
                    .toList();
            assertThat(newestFirst).isSortedAccordingTo(Comparator.<String>reverseOrder());
        }
        assertThat(store.pendingGarbage(1000)).isEmpty();
    }

    // Metadata updates

    @Test
    void tagsChangeIsVisibleEverywhere() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion version = version("photos", "cat.jpg", "v1", newBlock());
        store.putObject(version);

        Optional<ObjectVersion> updated =
                store.changeVersion("photos", "cat.jpg", "v1", new VersionChange.SetTags(Map.of("colour", "black")));

        ObjectVersion expected = version.withTags(Map.of("colour", "black"));
        assertThat(updated).contains(expected);
        assertThat(store.getObject("photos", "cat.jpg")).contains(expected);
        assertThat(store.getVersion("photos", "cat.jpg", "v1")).contains(expected);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(expected);
        assertThat(store.pendingGarbage(100)).isEmpty();
    }

    @Test
    void updatingANoncurrentVersionLeavesTheCurrentAndTheOrderAlone() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion old = version("photos", "cat.jpg", "v1", newBlock());
        ObjectVersion current = version("photos", "cat.jpg", "v2", newBlock());
        store.putObject(old);
        store.putObject(current);
        ObjectLock lock = new ObjectLock(RetentionMode.GOVERNANCE, NOW.plusSeconds(86_400), true);

        store.changeVersion("photos", "cat.jpg", "v1",
                new VersionChange.SetRetention(RetentionMode.GOVERNANCE, NOW.plusSeconds(86_400), NOW, false));
        store.changeVersion("photos", "cat.jpg", "v1", new VersionChange.SetLegalHold(true));
        store.changeVersion("photos", "cat.jpg", "v1", new VersionChange.SetAcl("public-read"));

        assertThat(store.getObject("photos", "cat.jpg")).contains(current);
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(current);
        assertThat(store.getVersion("photos", "cat.jpg", "v1"))
                .contains(old.withLock(lock).withAcl("public-read"));
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, null, 10))))
                .containsExactly("cat.jpg v2 latest", "cat.jpg v1");
    }

    @Test
    void updatingADeleteMarkerKeepsTheKeyHidden() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(marker("photos", "gone", "m1"));

        store.changeVersion("photos", "gone", "m1", new VersionChange.SetTags(Map.of("t", "1")));

        assertThat(store.getObject("photos", "gone")).contains(marker("photos", "gone", "m1").withTags(Map.of("t", "1")));
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).isEmpty();
    }

    @Test
    void anActiveComplianceRetentionCanBeNeitherShortenedNorRemoved() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion version = version("photos", "cat.jpg", "v1", newBlock());
        store.putObject(version);
        Instant until = NOW.plusSeconds(86_400);
        store.changeVersion("photos", "cat.jpg", "v1",
                new VersionChange.SetRetention(RetentionMode.COMPLIANCE, until, NOW, false));

        for (VersionChange refused : List.<VersionChange>of(
                new VersionChange.SetRetention(RetentionMode.COMPLIANCE, until.minusSeconds(1), NOW, true),
                new VersionChange.SetRetention(null, null, NOW, true),
                new VersionChange.SetRetention(RetentionMode.GOVERNANCE, until, NOW, true))) {
            assertThatThrownBy(() -> store.changeVersion("photos", "cat.jpg", "v1", refused))
                    .isInstanceOf(ObjectLockedException.class);
        }
        ObjectLock kept = new ObjectLock(RetentionMode.COMPLIANCE, until, false);
        assertThat(store.getVersion("photos", "cat.jpg", "v1")).contains(version.withLock(kept));

        // Lengthening is allowed; once the date has passed (judged at the command's instant), anything is.
        ObjectVersion longer = store.changeVersion("photos", "cat.jpg", "v1",
                new VersionChange.SetRetention(RetentionMode.COMPLIANCE, until.plusSeconds(1), NOW, false)).orElseThrow();
        assertThat(longer.lock()).isEqualTo(new ObjectLock(RetentionMode.COMPLIANCE, until.plusSeconds(1), false));
        assertThat(store.changeVersion("photos", "cat.jpg", "v1",
                new VersionChange.SetRetention(null, null, until.plusSeconds(2), false)).orElseThrow().lock())
                .isEqualTo(new ObjectLock(null, null, false));
    }

    @Test
    void aLockedVersionIsNotRemovedAndNothingChanges() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion held = version("photos", "cat.jpg", "v1", newBlock())
                .withLock(new ObjectLock(null, null, true));
        ObjectVersion governed = version("photos", "cat.jpg", "v2", newBlock())
                .withLock(new ObjectLock(RetentionMode.GOVERNANCE, NOW.plusSeconds(60), false));
        store.putObject(held);
        store.putObject(governed);

        assertThatThrownBy(() -> store.deleteVersion("photos", "cat.jpg", "v1", LockCheck.at(NOW, true), null))
                .isInstanceOf(ObjectLockedException.class);
        assertThatThrownBy(() -> store.deleteVersion("photos", "cat.jpg", "v2", LockCheck.at(NOW, false), null))
                .isInstanceOf(ObjectLockedException.class);
        assertThat(store.getVersion("photos", "cat.jpg", "v1")).contains(held);
        assertThat(store.getObject("photos", "cat.jpg")).contains(governed);
        assertThat(store.pendingGarbage(100)).isEmpty();

        // A bypass removes a GOVERNANCE retention's version; a retention that has run out protects nothing.
        assertThat(store.deleteVersion("photos", "cat.jpg", "v2", LockCheck.at(NOW, true), null)).contains(governed);
        store.putObject(governed);
        assertThat(store.deleteVersion("photos", "cat.jpg", "v2", LockCheck.at(NOW.plusSeconds(61), false), null))
                .contains(governed);
        // Without a check (a bucket without Object Lock), the lock is not consulted.
        assertThat(store.deleteVersion("photos", "cat.jpg", "v1")).contains(held);
    }

    @Test
    void aNullVersionThatIsLockedIsNotReplaced() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion held = inline("photos", "k", "held").withLock(new ObjectLock(null, null, true));
        store.putObject(held);

        assertThatThrownBy(() -> store.putObject(inline("photos", "k", "new"), new Precondition.None(),
                        LockCheck.at(NOW, false)))
                .isInstanceOf(ObjectLockedException.class);
        assertThatThrownBy(() -> store.putObject(marker("photos", "k", ObjectVersion.NULL_VERSION),
                        new Precondition.None(), LockCheck.at(NOW, true)))
                .isInstanceOf(ObjectLockedException.class);
        assertThat(store.getObject("photos", "k")).contains(held);
    }

    @Test
    void aRemovalOfAVersionThatChangedSinceItWasJudgedDoesNothing() throws Exception {
        store.createBucket(bucket("photos"));
        ObjectVersion judged = inline("photos", "k", "judged");
        store.putObject(judged);
        ObjectVersion rewritten = inline("photos", "k", "rewritten");
        store.putObject(rewritten);

        assertThat(store.deleteVersion("photos", "k", ObjectVersion.NULL_VERSION, LockCheck.NONE,
                VersionMatch.of(judged))).isEmpty();
        assertThat(store.getObject("photos", "k")).contains(rewritten);
        assertThat(store.deleteVersion("photos", "k", ObjectVersion.NULL_VERSION, LockCheck.NONE,
                VersionMatch.of(rewritten))).contains(rewritten);
    }

    @Test
    void aLegalHoldSetWhileADeleteIsInFlightIsNeverLost() throws Exception {
        store.createBucket(bucket("photos"));
        for (int round = 0; round < 200; round++) {
            String versionId = "v" + round;
            ObjectVersion version = inline("photos", "k", "round " + round).withVersionId(versionId);
            store.putObject(version);
            CountDownLatch start = new CountDownLatch(1);
            try (ExecutorService executor = Executors.newFixedThreadPool(2)) {
                Future<Optional<ObjectVersion>> hold = executor.submit(() -> {
                    start.await();
                    return store.changeVersion("photos", "k", versionId, new VersionChange.SetLegalHold(true));
                });
                Future<Optional<ObjectVersion>> delete = executor.submit(() -> {
                    start.await();
                    try {
                        return store.deleteVersion("photos", "k", versionId, LockCheck.at(NOW, true), null);
                    } catch (ObjectLockedException refused) {
                        return Optional.<ObjectVersion>empty();
                    }
                });
                start.countDown();
                boolean held = hold.get().isPresent();
                boolean deleted = delete.get().isPresent();
                // Exactly one wins: a hold that was set is on a version still there.
                assertThat(held).as("round %d: hold set %s, version deleted %s", round, held, deleted)
                        .isNotEqualTo(deleted);
                assertThat(store.getVersion("photos", "k", versionId).isPresent()).isEqualTo(held);
            }
        }
    }

    @Test
    void aSecretIsReplacedOnlyIfItIsStillTheOneExpected() {
        store.putAccessKey(new AccessKey("GK1", "plain", NOW));

        assertThatThrownBy(() -> store.changeAccessKey("GK1", new AccessKeyChange.ReplaceSecret("other", "sealed")))
                .isInstanceOf(CommandRefusedException.class);
        assertThat(store.getAccessKey("GK1").orElseThrow().secretKey()).isEqualTo("plain");
        assertThat(store.changeAccessKey("GK1", new AccessKeyChange.ReplaceSecret("plain", "sealed")).orElseThrow()
                .secretKey()).isEqualTo("sealed");
    }

    @Test
    void changingAMissingVersionChangesNothing() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "cat.jpg", "v1", newBlock()));
        VersionChange change = new VersionChange.SetTags(Map.of("t", "1"));

        assertThat(store.changeVersion("photos", "cat.jpg", "v2", change)).isEmpty();
        assertThat(store.changeVersion("photos", "dog.jpg", "v1", change)).isEmpty();
        assertThat(store.changeVersion("nowhere", "cat.jpg", "v1", change)).isEmpty();
    }

    @Test
    void concurrentChangesOfDifferentFieldsOfOneVersionAreAllKept() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(version("photos", "cat.jpg", "v1", newBlock()));
        List<VersionChange> changes = List.of(new VersionChange.SetTags(Map.of("colour", "black")),
                new VersionChange.SetLegalHold(true), new VersionChange.SetAcl("public-read"),
                new VersionChange.SetRetention(RetentionMode.GOVERNANCE, NOW.plusSeconds(60), NOW, false));
        for (int round = 0; round < 20; round++) {
            try (ExecutorService executor = Executors.newFixedThreadPool(changes.size())) {
                List<Future<?>> futures = new ArrayList<>();
                for (VersionChange change : changes) {
                    futures.add(executor.submit(() -> store.changeVersion("photos", "cat.jpg", "v1", change)));
                }
                for (Future<?> future : futures) {
                    future.get();
                }
            }
            ObjectVersion changed = store.getObject("photos", "cat.jpg").orElseThrow();
            assertThat(changed.tags()).containsEntry("colour", "black");
            assertThat(changed.acl()).isEqualTo("public-read");
            assertThat(changed.lock()).isEqualTo(new ObjectLock(RetentionMode.GOVERNANCE, NOW.plusSeconds(60), true));
        }
    }

    // Bucket configurations

    @Test
    void bucketConfigurationsArePutReadAndDeleted() throws Exception {
        store.createBucket(bucket("photos"));
        store.createBucket(bucket("photos2"));
        byte[] versioning = "<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>".getBytes(UTF_8);
        byte[] cors = {0, 1, 2, (byte) 0xFF};

        store.putBucketConfig("photos", "versioning", versioning);
        store.putBucketConfig("photos", "cors", cors);

        assertThat(store.getBucketConfig("photos", "versioning")).hasValueSatisfying(
                document -> assertThat(document).isEqualTo(versioning));
        assertThat(store.getBucketConfig("photos", "cors")).hasValueSatisfying(
                document -> assertThat(document).isEqualTo(cors));
        assertThat(store.getBucketConfig("photos", "website")).isEmpty();
        assertThat(store.getBucketConfig("photos2", "versioning")).isEmpty();
        assertThat(store.getBucketConfig("nowhere", "versioning")).isEmpty();

        byte[] suspended = "<VersioningConfiguration><Status>Suspended</Status></VersioningConfiguration>".getBytes(UTF_8);
        store.putBucketConfig("photos", "versioning", suspended);
        assertThat(store.getBucketConfig("photos", "versioning")).hasValueSatisfying(
                document -> assertThat(document).isEqualTo(suspended));

        assertThat(store.deleteBucketConfig("photos", "cors")).isTrue();
        assertThat(store.deleteBucketConfig("photos", "cors")).isFalse();
        assertThat(store.deleteBucketConfig("nowhere", "cors")).isFalse();
        assertThat(store.getBucketConfig("photos", "cors")).isEmpty();
        assertThat(store.getBucketConfig("photos", "versioning")).isPresent();
    }

    @Test
    void emptyBucketConfigurationIsKept() throws Exception {
        store.createBucket(bucket("photos"));

        store.putBucketConfig("photos", "policy", new byte[0]);

        assertThat(store.getBucketConfig("photos", "policy")).hasValueSatisfying(
                document -> assertThat(document).isEmpty());
    }

    @Test
    void bucketConfigurationOfAMissingBucketIsRefused() {
        assertThatThrownBy(() -> store.putBucketConfig("nowhere", "cors", new byte[] {1}))
                .isInstanceOf(NoSuchBucketException.class);
        assertThat(store.getBucketConfig("nowhere", "cors")).isEmpty();
    }

    @Test
    void bucketConfigurationsGoWithTheBucket() throws Exception {
        store.createBucket(bucket("photos"));
        store.createBucket(bucket("photos2"));
        store.putBucketConfig("photos", "versioning", new byte[] {1});
        store.putBucketConfig("photos", "lifecycle", new byte[] {2});
        store.putBucketConfig("photos2", "versioning", new byte[] {3});

        assertThat(store.deleteBucket("photos")).isTrue();

        assertThat(store.getBucketConfig("photos", "versioning")).isEmpty();
        assertThat(store.getBucketConfig("photos", "lifecycle")).isEmpty();
        assertThat(store.getBucketConfig("photos2", "versioning")).isPresent();
        store.createBucket(bucket("photos"));
        assertThat(store.getBucketConfig("photos", "versioning")).isEmpty();
    }

    @Test
    void bucketThatIsNotEmptyKeepsItsConfigurations() throws Exception {
        store.createBucket(bucket("photos"));
        store.putBucketConfig("photos", "versioning", new byte[] {1});
        store.putObject(marker("photos", "gone", "m1"));

        assertThatThrownBy(() -> store.deleteBucket("photos")).isInstanceOf(BucketNotEmptyException.class);

        assertThat(store.getBucketConfig("photos", "versioning")).isPresent();
    }

    // Service configurations

    @Test
    void serviceConfigurationsArePutReadReplacedAndDeleted() {
        byte[] wrapped = {0, 1, 2, (byte) 0xFF};
        assertThat(store.getServiceConfig("kms-key", "key-1")).isEmpty();

        store.putServiceConfig("kms-key", "key-1", wrapped);

        assertThat(store.getServiceConfig("kms-key", "key-1")).hasValueSatisfying(
                document -> assertThat(document).isEqualTo(wrapped));
        assertThat(store.getServiceConfig("kms-key", "key-2")).isEmpty();
        assertThat(store.getServiceConfig("account", "key-1")).isEmpty();

        byte[] rewrapped = "rewrapped".getBytes(UTF_8);
        store.putServiceConfig("kms-key", "key-1", rewrapped);
        assertThat(store.getServiceConfig("kms-key", "key-1")).hasValueSatisfying(
                document -> assertThat(document).isEqualTo(rewrapped));
        assertThat(store.listServiceConfigs("kms-key")).containsOnlyKeys("key-1");

        assertThat(store.deleteServiceConfig("kms-key", "key-1")).isTrue();
        assertThat(store.deleteServiceConfig("kms-key", "key-1")).isFalse();
        assertThat(store.deleteServiceConfig("kms-key", "never")).isFalse();
        assertThat(store.getServiceConfig("kms-key", "key-1")).isEmpty();
        assertThat(store.listServiceConfigs("kms-key")).isEmpty();

        // Put again after a delete: a tombstone does not hide a later write.
        store.putServiceConfig("kms-key", "key-1", wrapped);
        assertThat(store.getServiceConfig("kms-key", "key-1")).isPresent();
    }

    @Test
    void serviceConfigurationsListByKindInNameOrder() {
        // Written out of order, with names whose UTF-8 order is not their UTF-16 order (U+E000 sorts before
        // U+1D11E in UTF-16, after it in UTF-8), and one name in two kinds.
        List<String> names = List.of("key-b", "key-a", "\uE000", "𝄞", "a/b/c", "a", "ä", "Z");
        for (String name : names) {
            store.putServiceConfig("kms-key", name, name.getBytes(UTF_8));
        }
        store.putServiceConfig("account", "key-a", new byte[] {42});
        store.putServiceConfig("kms-keys", "key-c", new byte[] {43});

        Map<String, byte[]> listed = store.listServiceConfigs("kms-key");

        assertThat(new ArrayList<>(listed.keySet())).isEqualTo(names.stream().sorted(UTF8_ORDER).toList());
        listed.forEach((name, document) -> assertThat(document).as(name).isEqualTo(name.getBytes(UTF_8)));
        assertThat(store.listServiceConfigs("account")).containsOnlyKeys("key-a");
        assertThat(store.listServiceConfigs("account").get("key-a")).containsExactly(42);
        assertThat(store.listServiceConfigs("kms-keys")).containsOnlyKeys("key-c");
        assertThat(store.listServiceConfigs("kms")).isEmpty();
        assertThat(store.listServiceConfigs("nothing")).isEmpty();
    }

    @Test
    void serviceConfigurationNamesTakeAnyCharacterButNoneOrUPlus0000() {
        List<String> odd = List.of("a/b", "/", "ünï 日本 😀", " ", "..", "%2F", "tab\there");
        for (String kind : odd) {
            for (String name : odd) {
                store.putServiceConfig(kind, name, (kind + "|" + name).getBytes(UTF_8));
            }
        }
        for (String kind : odd) {
            assertThat(store.listServiceConfigs(kind)).as(kind).hasSize(odd.size());
            for (String name : odd) {
                assertThat(store.getServiceConfig(kind, name)).as(kind + "|" + name).hasValueSatisfying(
                        document -> assertThat(new String(document, UTF_8)).isEqualTo(kind + "|" + name));
            }
        }

        // Refused alike by every store, for every operation, before anything is written.
        for (String bad : List.of("", "a\0b", "\0", "lone \uD800 surrogate")) {
            assertThatThrownBy(() -> store.putServiceConfig(bad, "name", new byte[] {1}))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.putServiceConfig("kind", bad, new byte[] {1}))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.getServiceConfig(bad, "name")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.getServiceConfig("kind", bad)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.deleteServiceConfig(bad, "name"))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.deleteServiceConfig("kind", bad))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.listServiceConfigs(bad)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(store.listServiceConfigs("kind")).isEmpty();
    }

    @Test
    void serviceConfigurationsShareNothingWithBuckets() throws Exception {
        // A bucket named as the kind, with a configuration named as the document: each stays apart.
        store.createBucket(bucket("kms-key"));
        store.putBucketConfig("kms-key", "key-1", new byte[] {1});
        store.putServiceConfig("kms-key", "key-1", new byte[] {2});

        assertThat(store.getBucketConfig("kms-key", "key-1")).hasValueSatisfying(
                document -> assertThat(document).containsExactly(1));
        assertThat(store.getServiceConfig("kms-key", "key-1")).hasValueSatisfying(
                document -> assertThat(document).containsExactly(2));
        assertThat(store.listServiceConfigs("kms-key")).containsOnlyKeys("key-1");

        assertThat(store.deleteBucketConfig("kms-key", "key-1")).isTrue();
        assertThat(store.deleteBucket("kms-key")).isTrue();
        assertThat(store.getServiceConfig("kms-key", "key-1")).isPresent();
        assertThat(store.listBuckets()).isEmpty();
        assertThat(store.statistics().buckets()).isZero();
    }

    @Test
    void largeAndEmptyServiceConfigurationDocumentsAreKeptWhole() {
        byte[] large = new byte[64 * 1024];
        new java.util.Random(7).nextBytes(large);

        store.putServiceConfig("kms-key", "large", large);
        store.putServiceConfig("kms-key", "empty", new byte[0]);

        assertThat(store.getServiceConfig("kms-key", "large")).hasValueSatisfying(
                document -> assertThat(document).isEqualTo(large));
        assertThat(store.getServiceConfig("kms-key", "empty")).hasValueSatisfying(
                document -> assertThat(document).isEmpty());
        Map<String, byte[]> listed = store.listServiceConfigs("kms-key");
        assertThat(listed).containsOnlyKeys("empty", "large");
        assertThat(listed.get("large")).isEqualTo(large);
        assertThat(listed.get("empty")).isEmpty();
    }

    @Test
    void aCallerChangingItsArraysChangesNothingStored() {
        byte[] given = {1, 2, 3};
        store.putServiceConfig("kms-key", "key-1", given);
        given[0] = 9;

        store.getServiceConfig("kms-key", "key-1").orElseThrow()[1] = 9;
        store.listServiceConfigs("kms-key").get("key-1")[2] = 9;

        assertThat(store.getServiceConfig("kms-key", "key-1")).hasValueSatisfying(
                document -> assertThat(document).containsExactly(1, 2, 3));
        assertThat(store.listServiceConfigs("kms-key").get("key-1")).containsExactly(1, 2, 3);
    }

    @Test
    void serviceConfigurationsSurviveCloseAndReopen() {
        assumeThat(isDurable()).as("store keeps data across reopen").isTrue();
        store.putServiceConfig("kms-key", "key-1", new byte[] {1});
        store.putServiceConfig("kms-key", "key-2", new byte[] {2});
        store.putServiceConfig("kms-key", "gone", new byte[] {3});
        assertThat(store.deleteServiceConfig("kms-key", "gone")).isTrue();

        store.close();
        store = openStore();

        assertThat(store.getServiceConfig("kms-key", "key-1")).hasValueSatisfying(
                document -> assertThat(document).containsExactly(1));
        assertThat(store.getServiceConfig("kms-key", "gone")).isEmpty();
        assertThat(store.listServiceConfigs("kms-key")).containsOnlyKeys("key-1", "key-2");
    }

    // Access key permissions

    @Test
    void keyOfThreeArgumentsIsARootKey() {
        AccessKey root = new AccessKey("GK1", "secret", NOW);
        store.putAccessKey(root);

        AccessKey read = store.getAccessKey("GK1").orElseThrow();
        assertThat(read.root()).isTrue();
        assertThat(read.buckets()).isEmpty();
    }

    @Test
    void accessKeysWithPermissionsRoundTrip() {
        AccessKey limited = new AccessKey("GK2", "secret-2", NOW, false, Map.of(
                "photos", new BucketPermission(true, false, false),
                "videos", new BucketPermission(true, true, true)));
        store.putAccessKey(limited);
        store.putAccessKey(new AccessKey("GK1", "secret-1", NOW));

        assertThat(store.getAccessKey("GK2")).contains(limited);
        assertThat(store.listAccessKeys()).extracting(AccessKey::accessKeyId).containsExactly("GK1", "GK2");
        assertThat(store.listAccessKeys().get(1)).isEqualTo(limited);
    }

    @Test
    void theBucketCreationPermissionIsStoredAndUpdated() {
        store.putAccessKey(new AccessKey("GK1", "secret", NOW, false, Map.of(), true));
        store.putAccessKey(new AccessKey("GK2", "secret", NOW, false, Map.of()));

        assertThat(store.getAccessKey("GK1").orElseThrow().createBuckets()).isTrue();
        assertThat(store.getAccessKey("GK2").orElseThrow().createBuckets()).isFalse();

        assertThat(store.changeAccessKey("GK1", new AccessKeyChange.SetCreateBuckets(false)).orElseThrow()
                .createBuckets()).isFalse();
        assertThat(store.getAccessKey("GK1").orElseThrow().createBuckets()).isFalse();
        AccessKey granted = store.changeAccessKey("GK2", new AccessKeyChange.All(List.of(
                new AccessKeyChange.SetCreateBuckets(true),
                new AccessKeyChange.SetBucketPermission("photos", new BucketPermission(true, false, false)))))
                .orElseThrow();
        assertThat(store.getAccessKey("GK2")).contains(granted);
        assertThat(granted.createBuckets()).isTrue();
    }

    @Test
    void accessKeysAreUpdated() {
        store.putAccessKey(new AccessKey("GK1", "secret", NOW, false, Map.of()));

        Optional<AccessKey> granted = store.changeAccessKey(
                "GK1", new AccessKeyChange.SetBucketPermission("photos", new BucketPermission(true, true, false)));
        assertThat(granted.orElseThrow().buckets()).containsEntry("photos", new BucketPermission(true, true, false));
        assertThat(store.getAccessKey("GK1")).isEqualTo(granted);

        Optional<AccessKey> revoked = store.changeAccessKey("GK1", new AccessKeyChange.SetBucketPermission("photos", null));
        assertThat(revoked.orElseThrow().buckets()).isEmpty();
        assertThat(store.getAccessKey("GK1")).isEqualTo(revoked);

        AccessKey rotated = new AccessKey("GK1", "rotated", NOW, false, Map.of());
        assertThat(store.changeAccessKey("GK1", new AccessKeyChange.ReplaceSecret("secret", "rotated")))
                .contains(rotated);
        assertThat(store.getAccessKey("GK1")).contains(rotated);
    }

    @Test
    void changingAMissingAccessKeyChangesNothing() {
        assertThat(store.changeAccessKey("GK9", new AccessKeyChange.SetCreateBuckets(true))).isEmpty();
        assertThat(store.listAccessKeys()).isEmpty();
    }

    @Test
    void concurrentAccessKeyUpdatesAreNotLost() throws Exception {
        store.putAccessKey(new AccessKey("GK1", "secret", NOW, false, Map.of()));
        int threads = 8;
        try (ExecutorService executor = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                String granted = "bucket-" + thread;
                futures.add(executor.submit(() -> store.changeAccessKey("GK1",
                        new AccessKeyChange.SetBucketPermission(granted, new BucketPermission(true, false, false)))));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        }

        assertThat(store.getAccessKey("GK1").orElseThrow().buckets()).hasSize(threads);
    }

    @Test
    void accessKeysAreDeleted() {
        store.putAccessKey(new AccessKey("GK1", "secret-1", NOW));
        store.putAccessKey(new AccessKey("GK2", "secret-2", NOW));

        assertThat(store.deleteAccessKey("GK1")).isTrue();
        assertThat(store.deleteAccessKey("GK1")).isFalse();
        assertThat(store.deleteAccessKey("GK3")).isFalse();

        assertThat(store.getAccessKey("GK1")).isEmpty();
        assertThat(store.listAccessKeys()).extracting(AccessKey::accessKeyId).containsExactly("GK2");
    }

    // Durability of versions

    @Test
    void versionsConfigurationsAndPermissionsSurviveCloseAndReopen() throws Exception {
        assumeThat(isDurable()).as("store keeps data across reopen").isTrue();
        store.createBucket(bucket("photos"));
        ObjectVersion first = version("photos", "cat.jpg", "v1", newBlock())
                .withLock(new ObjectLock(RetentionMode.COMPLIANCE, NOW.plusSeconds(60), false));
        ObjectVersion marker = marker("photos", "cat.jpg", "m1");
        store.putObject(first);
        store.putObject(marker);
        store.putBucketConfig("photos", "versioning", new byte[] {7});
        AccessKey limited = new AccessKey("GK2", "secret", NOW, false, Map.of("photos", new BucketPermission(true, false, false)));
        store.putAccessKey(limited);

        store.close();
        store = openStore();

        assertThat(store.getObject("photos", "cat.jpg")).contains(marker);
        assertThat(store.getVersion("photos", "cat.jpg", "v1")).contains(first);
        assertThat(store.getBucketConfig("photos", "versioning")).hasValueSatisfying(
                document -> assertThat(document).containsExactly(7));
        assertThat(store.getAccessKey("GK2")).contains(limited);
        // Versions written after the reopen are newer than those written before.
        ObjectVersion after = version("photos", "cat.jpg", "v2", newBlock());
        store.putObject(after);
        assertThat(listedVersions(store.listVersions("photos", versionQuery("", null, null, null, 10))))
                .containsExactly("cat.jpg v2 latest", "cat.jpg m1", "cat.jpg v1");
        assertThat(store.listObjects("photos", query("", null, null, 10)).entries()).containsExactly(after);
    }

    // Statistics

    @Test
    void statisticsOfANewStoreAreZero() {
        assertThat(store.statistics()).isEqualTo(StoreStatistics.EMPTY);
    }

    @Test
    void statisticsCountEveryStoredVersionExactly() throws Exception {
        store.createBucket(bucket("plain"));
        store.createBucket(bucket("photos"));
        assertThat(store.createBucket(bucket("photos"))).isFalse();
        store.createBucket(bucket("empty"));
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(0, 0, 0, 3, 0));
        assertThat(store.statistics()).isEqualTo(countedByListing());

        // Unversioned: every id is "null", so a PUT replaces and a DELETE removes.
        store.putObject(inline("plain", "a", "four"));
        store.putObject(withBlocks("plain", "b", newBlock(), newBlock()));
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(2, 4 + (2L << 20), 0, 3, 0));
        store.putObject(inline("plain", "a", "longer text"));
        store.deleteObject("plain", "b");
        store.deleteObject("plain", "never-there");
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(1, 11, 0, 3, 0));
        assertThat(store.statistics()).isEqualTo(countedByListing());

        // Versioned: versions pile up, markers count apart, a version delete removes one.
        store.putObject(version("photos", "k", "v1", newBlock()));
        store.putObject(version("photos", "k", "v2", newBlock(), newBlock()));
        store.putObject(marker("photos", "k", "m3"));
        store.putObject(marker("photos", "gone", "m4"));
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(3, 11 + (3L << 20), 2, 3, 0));
        assertThat(store.statistics()).isEqualTo(countedByListing());
        store.deleteVersion("photos", "k", "v2");
        store.deleteVersion("photos", "k", "m3");
        store.deleteVersion("photos", "k", "no-such-version");
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(2, 11 + (1L << 20), 1, 3, 0));
        assertThat(store.statistics()).isEqualTo(countedByListing());

        // Suspended versioning: "null" versions replace each other, a "null" marker replaces one.
        store.putObject(inline("photos", "k", "null one"));
        store.putObject(inline("photos", "k", "null two!"));
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(3, 20 + (1L << 20), 1, 3, 0));
        store.putObject(marker("photos", "k", ObjectVersion.NULL_VERSION));
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(2, 11 + (1L << 20), 2, 3, 0));
        assertThat(store.statistics()).isEqualTo(countedByListing());

        // A refused conditional write and a metadata update change nothing.
        assertThatThrownBy(() -> store.putObject(inline("plain", "a", "x"), new Precondition.IfAbsent()))
                .isInstanceOf(PreconditionFailedException.class);
        store.changeVersion("photos", "k", "v1", new VersionChange.SetTags(Map.of("t", "1")));
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(2, 11 + (1L << 20), 2, 3, 0));

        // Uploads count while in progress; completing one stores its object.
        MultipartUpload completed = upload("plain", "big", "u1");
        store.createUpload(completed);
        store.createUpload(upload("plain", "other", "u2"));
        Part threeBlocks = part("u1", 1, newBlock(), newBlock(), newBlock());
        store.putPart(completed, threeBlocks);
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(2, 11 + (1L << 20), 2, 3, 2));
        store.completeUpload(completed, withBlocks("plain", "big", threeBlocks.blocks().toArray(BlockRef[]::new)));
        assertThat(store.abortUpload(upload("plain", "other", "u2"))).isTrue();
        assertThat(store.abortUpload(upload("plain", "other", "u2"))).isFalse();
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(3, 11 + (4L << 20), 2, 3, 0));
        assertThat(store.statistics()).isEqualTo(countedByListing());

        // Buckets: a refused delete changes nothing.
        assertThatThrownBy(() -> store.deleteBucket("plain")).isInstanceOf(BucketNotEmptyException.class);
        assertThat(store.deleteBucket("empty")).isTrue();
        assertThat(store.deleteBucket("empty")).isFalse();
        StoreStatistics before = store.statistics();
        assertThat(before).isEqualTo(new StoreStatistics(3, 11 + (4L << 20), 2, 2, 0));
        assertThat(before).isEqualTo(countedByListing());

        if (isDurable()) {
            store.close();
            store = openStore();
            assertThat(store.statistics()).isEqualTo(before);
        }
        // Emptied, every counter is back to zero but the buckets'.
        for (String bucket : List.of("plain", "photos")) {
            for (ListedVersion listed : store.listVersions(bucket, versionQuery("", null, null, null, 100)).versions()) {
                store.deleteVersion(bucket, listed.version().key(), listed.version().versionId());
            }
        }
        assertThat(store.statistics()).isEqualTo(new StoreStatistics(0, 0, 0, 2, 0));
    }

    @Test
    void statisticsStayExactUnderConcurrentWriters() throws Exception {
        store.createBucket(bucket("photos"));
        int threads = 8;
        int rounds = 300;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        // Few keys, shared by all threads: overwrites, markers and deletes collide.
                        String key = "k" + (i % 7);
                        switch ((i + thread) % 4) {
                            case 0 -> store.putObject(inline("photos", key, "v" + i));
                            case 1 -> store.putObject(version("photos", key, "t" + thread + "-" + i, newBlock()));
                            case 2 -> store.putObject(marker("photos", key, "m" + thread + "-" + i));
                            default -> store.deleteObject("photos", key);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdown();
        }

        assertThat(store.statistics()).isEqualTo(countedByListing());
    }

    // Block references

    @Test
    void everyReferencedBlockIsVisitedOnce() throws Exception {
        store.createBucket(bucket("photos"));
        BlockRef plain = newBlock();
        BlockRef old = newBlock();
        BlockRef newer = newBlock();
        BlockRef replaced = newBlock();
        BlockRef pendingPart = newBlock();
        BlockRef abortedPart = newBlock();
        store.putObject(withBlocks("photos", "plain", plain));
        store.putObject(inline("photos", "small", "inline bytes are no block"));
        store.putObject(version("photos", "k", "v1", old));
        store.putObject(version("photos", "k", "v2", newer));
        store.putObject(marker("photos", "k", "m3"));
        store.putObject(withBlocks("photos", "replaced", replaced));
        store.putObject(withBlocks("photos", "replaced", plain));
        MultipartUpload pending = startUpload("photos", "pending", "u1");
        store.putPart(pending, part("u1", 1, pendingPart));
        MultipartUpload aborted = upload("photos", "aborted", "u2");
        store.createUpload(aborted);
        store.putPart(aborted, part("u2", 1, abortedPart));
        store.abortUpload(aborted);
        store.queueGarbage(List.of(BlockId.random()));

        List<BlockRef> visited = new ArrayList<>();
        store.forEachBlockReference(visited::add);

        // Noncurrent versions count; "plain" is referenced by two keys, so visited twice.
        assertThat(visited).containsExactlyInAnyOrder(plain, plain, old, newer, pendingPart);
    }

    @Test
    void completingAnUploadMovesItsReferencesFromPartsToTheObject() throws Exception {
        MultipartUpload upload = startUpload("photos", "big", "u1");
        BlockRef first = newBlock();
        BlockRef second = newBlock();
        BlockRef unused = newBlock();
        store.putPart(upload, part("u1", 1, first));
        store.putPart(upload, part("u1", 2, second));
        store.putPart(upload, part("u1", 3, unused));
        List<BlockRef> before = new ArrayList<>();
        store.forEachBlockReference(before::add);

        store.completeUpload(upload, withBlocks("photos", "big", first, second));
        List<BlockRef> after = new ArrayList<>();
        store.forEachBlockReference(after::add);

        assertThat(before).containsExactlyInAnyOrder(first, second, unused);
        assertThat(after).containsExactlyInAnyOrder(first, second);
    }

    @Test
    void theWalkSeesTheStoreAsItWasWhenItStarted() throws Exception {
        store.createBucket(bucket("photos"));
        List<BlockRef> stored = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            BlockRef block = newBlock();
            stored.add(block);
            store.putObject(withBlocks("photos", "k%02d".formatted(i), block));
        }
        BlockRef added = newBlock();

        List<BlockRef> visited = new ArrayList<>();
        store.forEachBlockReference(block -> {
            if (visited.isEmpty()) {
                // Mutations while the walk runs: neither seen nor in the way.
                try {
                    store.deleteObject("photos", "k49");
                    store.putObject(withBlocks("photos", "new", added));
                } catch (NoSuchBucketException e) {
                    throw new AssertionError(e);
                }
            }
            visited.add(block);
        });

        assertThat(visited).containsExactlyInAnyOrderElementsOf(stored);
        List<BlockRef> now = new ArrayList<>();
        store.forEachBlockReference(now::add);
        assertThat(now).contains(added).doesNotContain(stored.getLast()).hasSize(50);
    }

    @Test
    void aFailingVisitorStopsTheWalk() throws Exception {
        store.createBucket(bucket("photos"));
        store.putObject(withBlocks("photos", "a", newBlock()));
        store.putObject(withBlocks("photos", "b", newBlock()));

        List<BlockRef> visited = new ArrayList<>();
        assertThatThrownBy(() -> store.forEachBlockReference(block -> {
                    visited.add(block);
                    throw new IllegalStateException("scrub gave up");
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("scrub gave up");
        assertThat(visited).hasSize(1);
        // The store is still usable.
        assertThat(store.getObject("photos", "b")).isPresent();
    }

    /**
     * The statistics counted the slow way: every version of every bucket through {@link
     * MetadataStore#listVersions}, every upload through {@link MetadataStore#listUploads}.
     */
    protected StoreStatistics countedByListing() {
        long objects = 0;
        long bytes = 0;
        long markers = 0;
        long uploads = 0;
        List<BucketRecord> buckets = store.listBuckets();
        for (BucketRecord bucket : buckets) {
            String keyMarker = null;
            String versionIdMarker = null;
            VersionListing page;
            do {
                page = store.listVersions(bucket.name(), versionQuery("", null, keyMarker, versionIdMarker, 1000));
                for (ListedVersion listed : page.versions()) {
                    if (listed.version().isDeleteMarker()) {
                        markers++;
                    } else {
                        objects++;
                        bytes += listed.version().size();
                    }
                }
                keyMarker = page.nextKeyMarker();
                versionIdMarker = page.nextVersionIdMarker();
            } while (page.truncated());
            String uploadKeyMarker = null;
            String uploadIdMarker = null;
            UploadListing uploadPage;
            do {
                uploadPage = store.listUploads(bucket.name(), "", null, uploadKeyMarker, uploadIdMarker, 1000);
                uploads += uploadPage.uploads().size();
                uploadKeyMarker = uploadPage.nextKeyMarker();
                uploadIdMarker = uploadPage.nextUploadIdMarker();
            } while (uploadPage.truncated());
        }
        return new StoreStatistics(objects, bytes, markers, buckets.size(), uploads);
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

    protected static ObjectVersion version(String bucket, String key, String versionId, BlockRef... blocks) {
        return withBlocks(bucket, key, blocks).withVersionId(versionId);
    }

    protected static ObjectVersion marker(String bucket, String key, String versionId) {
        return new ObjectVersion(
                bucket, key, versionId, NOW, 0, "\"\"", new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null,
                List.of());
    }

    protected static VersionQuery versionQuery(
            String prefix,
            @Nullable String delimiter,
            @Nullable String keyMarker,
            @Nullable String versionIdMarker,
            int maxKeys) {
        return new VersionQuery(prefix, delimiter, keyMarker, versionIdMarker, maxKeys);
    }

    /** "key versionId", with " latest" on the newest version of each key. */
    private static List<String> listedVersions(VersionListing listing) {
        return listing.versions().stream()
                .map(listed -> listed.version().key() + " " + listed.version().versionId()
                        + (listed.latest() ? " latest" : ""))
                .toList();
    }

    /**
     * Pages through a version listing and returns its versions (as {@link #listedVersions} spells
     * them) and common prefixes in the order listed, checking on the way that truncated pages are
     * full and that their markers name their last item.
     */
    private List<String> listAllVersions(String prefix, @Nullable String delimiter, int pageSize) {
        List<String> all = new ArrayList<>();
        String keyMarker = null;
        String versionIdMarker = null;
        VersionListing page;
        do {
            page = store.listVersions("photos", versionQuery(prefix, delimiter, keyMarker, versionIdMarker, pageSize));
            int items = page.versions().size() + page.commonPrefixes().size();
            assertThat(items).isLessThanOrEqualTo(pageSize);
            if (page.truncated()) {
                assertThat(items).isEqualTo(pageSize);
                if (page.nextVersionIdMarker() == null) {
                    assertThat(page.nextKeyMarker()).isEqualTo(page.commonPrefixes().getLast());
                } else {
                    ObjectVersion last = page.versions().getLast().version();
                    assertThat(page.nextKeyMarker()).isEqualTo(last.key());
                    assertThat(page.nextVersionIdMarker()).isEqualTo(last.versionId());
                }
            }
            all.addAll(listedVersions(page));
            all.addAll(page.commonPrefixes());
            keyMarker = page.nextKeyMarker();
            versionIdMarker = page.nextVersionIdMarker();
        } while (page.truncated());
        return all;
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
