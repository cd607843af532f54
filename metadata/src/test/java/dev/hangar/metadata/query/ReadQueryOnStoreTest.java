package dev.hangar.metadata.query;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.blockstore.SyncPolicy;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.MetadataStore;
import dev.hangar.metadata.MetadataStores;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.rocksdb.RocksDbConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of query, run as a node outside the Raft group would run it: encoded, decoded by a
 * member, run there with {@link ReadQuery#runOn} on a real {@code RocksDbMetadataStore}, its result
 * encoded, and decoded by the sender; what comes back must equal what the store's own method gives
 * when called directly. Each read comes with that direct call written out, so a query that called
 * another method (which the cast in {@code runOn} would not notice) fails here.
 */
class ReadQueryOnStoreTest {
    private static final Instant WHEN = Instant.parse("2026-03-04T05:06:07.123456789Z");
    private static final MultipartUpload BIG = new MultipartUpload("photos", "big.iso", "u1", WHEN,
            Map.of("content-type", "application/octet-stream"), Map.of("camera", "x100"), "SHA256");
    private static final MultipartUpload MOVIE = new MultipartUpload("photos", "日本/動画.mp4", "u2", WHEN, Map.of(),
            Map.of(), null);

    private static MetadataStore store;

    @BeforeAll
    static void fillAStore(@TempDir Path directory) throws Exception {
        store = MetadataStores.rocksDb(new RocksDbConfig(directory, SyncPolicy.NONE, 8L << 20));
        for (String bucket : List.of("photos", "日本", "empty")) {
            store.createBucket(new BucketRecord(bucket, WHEN, "eu-west-3"));
        }
        store.putObject(version("cat.jpg", "null", new ObjectContent.Inline("meow".getBytes(UTF_8))));
        store.putObject(version("cats/ünï.jpg", "v1", blocks(1)));
        store.putObject(version("cats/ünï.jpg", "v2", new ObjectContent.Inline(new byte[0]))
                .withTags(Map.of("project", "hangar"))
                .withLock(new ObjectLock(RetentionMode.GOVERNANCE, WHEN.plusSeconds(86_400), true))
                .withAcl("public-read")
                .withOwnerKeyId("GK1"));
        store.putObject(version("cats/ünï.jpg", "v3", new ObjectContent.DeleteMarker()));
        store.putObject(new ObjectVersion("photos", "dogs/rex.jpg", "null", WHEN, 10 << 20, "\"rex-2\"", blocks(2),
                Map.of("content-type", "image/jpeg"), Map.of("breed", "collie"), new Checksum("CRC32C", "AAAA-2"),
                List.of(5L << 20, 5L << 20)));
        store.putObject(version("a/b/c.txt", "null", new ObjectContent.Inline("c".getBytes(UTF_8))));
        store.createUpload(BIG);
        store.createUpload(MOVIE);
        for (int number = 1; number <= 3; number++) {
            store.putPart(BIG, new Part("u1", number, WHEN, 5 << 20, "\"p" + number + "\"", List.of(block(number)),
                    number == 2 ? new Checksum("SHA256", "c2hh") : null));
        }
        store.putBucketConfig("photos", "versioning", "<Status>Enabled</Status>".getBytes(UTF_8));
        store.putBucketConfig("photos", "cors", "<CORSConfiguration/>".getBytes(UTF_8));
        store.putServiceConfig("kms-key", "key-2", new byte[] {2});
        store.putServiceConfig("kms-key", "key-1", new byte[] {1});
        store.putServiceConfig("account", "settings", new byte[0]);
        store.putAccessKey(new AccessKey("GK0", "sealed:root", WHEN));
        store.putAccessKey(new AccessKey("GK1", "sealed:one", WHEN, false,
                Map.of("photos", new BucketPermission(true, true, false), "日本", new BucketPermission(true, false,
                        false)), true));
    }

    @AfterAll
    static void closeTheStore() {
        store.close();
    }

    static Stream<Arguments> reads() {
        return Stream.of(
                read(new ReadQuery.GetBucket("photos"), s -> s.getBucket("photos")),
                read(new ReadQuery.GetBucket("none"), s -> s.getBucket("none")),
                read(new ReadQuery.ListBuckets(), MetadataStore::listBuckets),
                read(new ReadQuery.GetObject("photos", "cat.jpg"), s -> s.getObject("photos", "cat.jpg")),
                read(new ReadQuery.GetObject("photos", "cats/ünï.jpg"), s -> s.getObject("photos", "cats/ünï.jpg")),
                read(new ReadQuery.GetObject("photos", "none"), s -> s.getObject("photos", "none")),
                read(new ReadQuery.GetVersion("photos", "cats/ünï.jpg", "v2"),
                        s -> s.getVersion("photos", "cats/ünï.jpg", "v2")),
                read(new ReadQuery.GetVersion("photos", "cats/ünï.jpg", "v9"),
                        s -> s.getVersion("photos", "cats/ünï.jpg", "v9")),
                read(new ReadQuery.GetVersion("photos", "dogs/rex.jpg", "null"),
                        s -> s.getVersion("photos", "dogs/rex.jpg", "null")),
                read(new ReadQuery.ListObjects("photos", new ListQuery("", null, null, 1000)),
                        s -> s.listObjects("photos", new ListQuery("", null, null, 1000))),
                read(new ReadQuery.ListObjects("photos", new ListQuery("", "/", null, 2)),
                        s -> s.listObjects("photos", new ListQuery("", "/", null, 2))),
                read(new ReadQuery.ListObjects("photos", new ListQuery("cat", "/", "cat.jpg", 0)),
                        s -> s.listObjects("photos", new ListQuery("cat", "/", "cat.jpg", 0))),
                read(new ReadQuery.ListObjects("none", new ListQuery("", null, null, 10)),
                        s -> s.listObjects("none", new ListQuery("", null, null, 10))),
                read(new ReadQuery.ListVersions("photos", new VersionQuery("", null, null, null, 1000)),
                        s -> s.listVersions("photos", new VersionQuery("", null, null, null, 1000))),
                read(new ReadQuery.ListVersions("photos", new VersionQuery("", "/", null, null, 2)),
                        s -> s.listVersions("photos", new VersionQuery("", "/", null, null, 2))),
                read(new ReadQuery.ListVersions("photos", new VersionQuery("cats/", null, "cats/ünï.jpg", "v3", 1)),
                        s -> s.listVersions("photos", new VersionQuery("cats/", null, "cats/ünï.jpg", "v3", 1))),
                read(new ReadQuery.GetUpload("photos", "big.iso", "u1"), s -> s.getUpload("photos", "big.iso", "u1")),
                read(new ReadQuery.GetUpload("photos", "big.iso", "u9"), s -> s.getUpload("photos", "big.iso", "u9")),
                read(new ReadQuery.GetPart("u1", 2), s -> s.getPart("u1", 2)),
                read(new ReadQuery.GetPart("u1", 4), s -> s.getPart("u1", 4)),
                read(new ReadQuery.GetPart("u1", -1), s -> s.getPart("u1", -1)),
                read(new ReadQuery.ListParts("u1", 0, 1000), s -> s.listParts("u1", 0, 1000)),
                read(new ReadQuery.ListParts("u1", 1, 1), s -> s.listParts("u1", 1, 1)),
                read(new ReadQuery.ListParts("u1", -5, 0), s -> s.listParts("u1", -5, 0)),
                read(new ReadQuery.ListParts("u2", 0, 1000), s -> s.listParts("u2", 0, 1000)),
                read(new ReadQuery.ListUploads("photos", "", null, null, null, 1000),
                        s -> s.listUploads("photos", "", null, null, null, 1000)),
                read(new ReadQuery.ListUploads("photos", "", "/", null, null, 10),
                        s -> s.listUploads("photos", "", "/", null, null, 10)),
                read(new ReadQuery.ListUploads("photos", "", null, null, null, 1),
                        s -> s.listUploads("photos", "", null, null, null, 1)),
                read(new ReadQuery.ListUploads("photos", "", null, "big.iso", "u1", 10),
                        s -> s.listUploads("photos", "", null, "big.iso", "u1", 10)),
                read(new ReadQuery.ListUploads("empty", "a", "", "", "", 10),
                        s -> s.listUploads("empty", "a", "", "", "", 10)),
                read(new ReadQuery.GetBucketConfig("photos", "versioning"),
                        s -> s.getBucketConfig("photos", "versioning")),
                read(new ReadQuery.GetBucketConfig("photos", "website"), s -> s.getBucketConfig("photos", "website")),
                read(new ReadQuery.GetAccessKey("GK0"), s -> s.getAccessKey("GK0")),
                read(new ReadQuery.GetAccessKey("GK1"), s -> s.getAccessKey("GK1")),
                read(new ReadQuery.GetAccessKey("GK9"), s -> s.getAccessKey("GK9")),
                read(new ReadQuery.ListAccessKeys(), MetadataStore::listAccessKeys),
                read(new ReadQuery.GetServiceConfig("kms-key", "key-1"), s -> s.getServiceConfig("kms-key", "key-1")),
                read(new ReadQuery.GetServiceConfig("kms-key", "key-9"), s -> s.getServiceConfig("kms-key", "key-9")),
                read(new ReadQuery.ListServiceConfigs("kms-key"), s -> s.listServiceConfigs("kms-key")),
                read(new ReadQuery.ListServiceConfigs("none"), s -> s.listServiceConfigs("none")));
    }

    @ParameterizedTest
    @MethodSource("reads")
    void aQueryAnsweredByAnotherNodeGivesWhatTheStoreGives(ReadQuery<?> query, Function<MetadataStore, ?> direct) {
        Object expected = RandomQueries.comparable(direct.apply(store));

        byte[] answer = QueryCodec.answer(QueryCodec.encode(query), store);

        assertThat(RandomQueries.comparable(QueryCodec.decodeResult(query, answer))).isEqualTo(expected);
        assertThat(RandomQueries.comparable(query.runOn(store))).isEqualTo(expected);
    }

    /** Each kind of query is read above, and each gives a non-empty result at least once. */
    @Test
    void theReadsCoverEveryKindWithSomethingFound() {
        Set<Class<?>> found = new HashSet<>();
        reads().forEach(arguments -> {
            ReadQuery<?> query = (ReadQuery<?>) arguments.get()[0];
            if (holdsSomething(query.runOn(store))) {
                found.add(query.getClass());
            }
        });

        assertThat(found).containsExactlyInAnyOrder(ReadQuery.class.getPermittedSubclasses());
    }

    @Test
    void anAnswerToBytesThatAreNoQueryIsRefused() {
        assertThatThrownBy(() -> QueryCodec.answer(new byte[] {1, 99}, store))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid encoded query: unknown query tag 99");
    }

    private static <T> Arguments read(ReadQuery<T> query, Function<MetadataStore, T> direct) {
        return Arguments.argumentSet(query.toString(), query, direct);
    }

    private static boolean holdsSomething(Object result) {
        return switch (result) {
            case Optional<?> optional -> optional.isPresent();
            case List<?> list -> !list.isEmpty();
            case SortedMap<?, ?> documents -> !documents.isEmpty();
            case ObjectListing listing -> !listing.entries().isEmpty() && !listing.commonPrefixes().isEmpty();
            case VersionListing listing -> !listing.versions().isEmpty() && !listing.commonPrefixes().isEmpty();
            case PartListing listing -> !listing.parts().isEmpty();
            case UploadListing listing -> !listing.uploads().isEmpty() && !listing.commonPrefixes().isEmpty();
            default -> throw new AssertionError("a result of an unknown type: " + result);
        };
    }

    private static ObjectVersion version(String key, String versionId, ObjectContent content) {
        long size = content instanceof ObjectContent.Inline inline ? inline.data().length : 0;
        return new ObjectVersion("photos", key, versionId, WHEN, size, "\"" + key.hashCode() + "\"", content, Map.of(),
                Map.of(), null, List.of());
    }

    private static ObjectContent blocks(int count) {
        return new ObjectContent.Blocks(Stream.iterate(1, i -> i + 1).limit(count).map(i -> block(10 + i)).toList());
    }

    private static BlockRef block(int number) {
        return new BlockRef(new BlockId("%032x".formatted(number)), 5 << 20, number);
    }
}
