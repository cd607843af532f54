package dev.hangar.metadata.listing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.command.PropertyRunner;
import dev.hangar.metadata.listing.ListingModel.Item;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * {@link ListingRules} against {@link ListingModel} on random buckets, queries and markers
 * ({@link PropertyRunner}: 1,000 cases a property, {@code -Dhangar.property.seed} replays a
 * failure). Keys are made of a few tokens that are also delimiters, prefixes and markers, so that
 * roll-ups, markers that name common prefixes and keys that extend other keys are common; the
 * records are laid out as the single node lays them out, and objects also as the cluster does
 * (several records a key, some keys deleted).
 */
class ListingRulesPropertiesTest {
    private static final String BUCKET = "photos";
    private static final byte[] SCOPE = ByteKeys.utf8(BUCKET + "\0");
    private static final List<String> TOKENS = List.of("a", "b", "/", "é", "\u0001", "ab/", "\uD83D\uDE00", "\uFFFD");
    private static final List<String> DELIMITERS = List.of("/", "a", "é", "b/", "\u0001", "//", "\uD83D\uDE00");
    private static final byte[] DELETED = {'D'};
    private static final byte[] LIVE = {'L'};

    /** A bucket's keys (each with its version or upload ids, in listing order), a query, its markers. */
    record Case(SortedMap<String, List<String>> idsByKey, Set<String> deleted, String prefix,
            @Nullable String delimiter, @Nullable String keyMarker, @Nullable String idMarker, int maxKeys) {}

    @Test
    void objectPagesOfTheSingleNodeLayoutAreTheModels() {
        PropertyRunner.check("objects, one record a key", ListingRulesPropertiesTest::randomCase, (c, random) -> {
            ObjectListing listed = singleNodeObjects(c, objectQuery(c, c.maxKeys()));
            assertSameObjects(listed, c, c.maxKeys());
        });
    }

    @Test
    void objectPagesOfTheClusterLayoutAreTheModels() {
        PropertyRunner.check("objects, several records a key", ListingRulesPropertiesTest::randomCase, (c, random) -> {
            ObjectListing listed = clusterObjects(c, random, objectQuery(c, c.maxKeys()));
            assertSameObjects(listed, c, c.maxKeys());
        });
    }

    @Test
    void followingNextMarkersListsEveryObjectAndCommonPrefixOnce() {
        PropertyRunner.check("object pages", ListingRulesPropertiesTest::randomCase, (c, random) -> {
            int pageSize = 1 + random.nextInt(4);
            List<Item> listed = new ArrayList<>();
            String marker = null;
            for (int page = 0; page <= c.idsByKey().size() + 1; page++) {
                ObjectListing listing =
                        singleNodeObjects(c, new ListQuery(c.prefix(), c.delimiter(), marker, pageSize));
                listing.entries().forEach(entry -> listed.add(new Item.Listed(entry.key(), "", true)));
                listing.commonPrefixes().forEach(common -> listed.add(new Item.CommonPrefix(common)));
                if (!listing.truncated()) {
                    break;
                }
                marker = listing.nextMarker();
            }
            List<Item> whole = objectModel(c, null, Integer.MAX_VALUE).items();
            assertThat(listed).containsExactlyInAnyOrderElementsOf(whole);
        });
    }

    @Test
    void versionPagesAreTheModels() {
        PropertyRunner.check("versions", ListingRulesPropertiesTest::randomCase, (c, random) -> {
            VersionListing listed = singleNodeVersions(c, versionQuery(c, c.keyMarker(), c.idMarker(), c.maxKeys()));
            ListingModel.Page expected = versionModel(c, c.keyMarker(), c.idMarker(), c.maxKeys());
            assertThat(versionItems(listed)).containsExactlyElementsOf(expected.items());
            assertThat(listed.truncated()).isEqualTo(expected.truncated());
            assertThat(listed.nextKeyMarker()).isEqualTo(expected.nextKeyMarker());
            assertThat(listed.nextVersionIdMarker()).isEqualTo(expected.nextIdMarker());
        });
    }

    @Test
    void followingNextVersionMarkersListsEveryVersionAndCommonPrefixOnce() {
        PropertyRunner.check("version pages", ListingRulesPropertiesTest::randomCase, (c, random) -> {
            int pageSize = 1 + random.nextInt(4);
            List<Item> listed = new ArrayList<>();
            String keyMarker = null;
            String idMarker = null;
            int versions = c.idsByKey().values().stream().mapToInt(List::size).sum();
            for (int page = 0; page <= versions + 1; page++) {
                VersionListing listing = singleNodeVersions(c, versionQuery(c, keyMarker, idMarker, pageSize));
                listed.addAll(versionItems(listing));
                if (!listing.truncated()) {
                    break;
                }
                keyMarker = listing.nextKeyMarker();
                idMarker = listing.nextVersionIdMarker();
            }
            assertThat(listed).containsExactlyElementsOf(versionModel(c, null, null, Integer.MAX_VALUE).items());
        });
    }

    @Test
    void uploadPagesAreTheModels() {
        PropertyRunner.check("uploads", ListingRulesPropertiesTest::randomCase, (c, random) -> {
            UploadListing listed = uploads(c);
            ListingModel.Page expected = uploadModel(c);
            List<Item> items = new ArrayList<>();
            listed.uploads().forEach(upload -> items.add(new Item.Listed(upload.key(), upload.uploadId(), false)));
            listed.commonPrefixes().forEach(common -> items.add(new Item.CommonPrefix(common)));
            assertThat(items).containsExactlyInAnyOrderElementsOf(expected.items());
            assertThat(listed.truncated()).isEqualTo(expected.truncated());
            assertThat(listed.nextKeyMarker()).isEqualTo(expected.nextKeyMarker());
            assertThat(listed.nextUploadIdMarker()).isEqualTo(expected.nextIdMarker());
        });
    }

    @Test
    void partPagesAreTheModels() {
        PropertyRunner.check("parts", random -> random, (ignored, random) -> {
            byte[] scope = ByteKeys.utf8("upload\0");
            TreeSet<Integer> numbers = new TreeSet<>();
            for (int i = random.nextInt(12); i > 0; i--) {
                numbers.add(1 + random.nextInt(20));
            }
            MemoryCursor cursor = new MemoryCursor();
            numbers.forEach(number -> cursor.put(ByteKeys.concat(scope, ByteKeys.int32(number)), new byte[0]));
            int after = random.nextInt(24) - 2;
            int max = random.nextInt(24) - 1;

            PartListing listed = ListingRules.parts(after, max, cursor, scope, ListingRulesPropertiesTest::part);

            List<Integer> following = List.copyOf(numbers.tailSet(after, false));
            List<Integer> expected = max <= 0 ? List.of() : following.subList(0, Math.min(max, following.size()));
            boolean truncated = max > 0 && following.size() > max;
            assertThat(listed.parts()).extracting(Part::partNumber).containsExactlyElementsOf(expected);
            assertThat(listed.truncated()).isEqualTo(truncated);
            assertThat(listed.nextPartNumberMarker()).isEqualTo(truncated ? expected.getLast() : 0);
        });
    }

    // Generation

    static Case randomCase(RandomGenerator random) {
        Map<String, List<String>> idsByKey = new HashMap<>();
        Set<String> deleted = new LinkedHashSet<>();
        for (int i = random.nextInt(16); i > 0; i--) {
            String key = name(random, 1, 4);
            Set<String> ids = new TreeSet<>(ListingModel.KEY_ORDER);
            for (int j = 1 + random.nextInt(3); j > 0; j--) {
                ids.add(random.nextInt(4) == 0 ? ObjectVersion.NULL_VERSION : "v" + random.nextInt(6));
            }
            List<String> inOrder = new ArrayList<>(ids);
            if (random.nextBoolean()) {
                // Versions list by the store's order, which is not the ids' order.
                Collections.shuffle(inOrder, new Random(random.nextLong()));
            }
            idsByKey.put(key, inOrder);
            if (random.nextInt(4) == 0) {
                deleted.add(key);
            }
        }
        List<String> keys = new ArrayList<>(idsByKey.keySet());
        String delimiter = random.nextInt(4) == 0 ? null : DELIMITERS.get(random.nextInt(DELIMITERS.size()));
        String prefix = switch (random.nextInt(3)) {
            case 0 -> "";
            case 1 -> keys.isEmpty() ? "" : startOf(random, keys.get(random.nextInt(keys.size())));
            default -> name(random, 0, 2);
        };
        String keyMarker = switch (random.nextInt(6)) {
            case 0 -> null;
            case 1 -> keys.isEmpty() ? null : keys.get(random.nextInt(keys.size()));
            case 2 -> keys.isEmpty() ? null : startOf(random, keys.get(random.nextInt(keys.size())));
            case 3 -> delimiter == null ? null : prefix + name(random, 0, 2) + delimiter;
            default -> name(random, 1, 3);
        };
        String idMarker = switch (random.nextInt(3)) {
            case 0 -> null;
            case 1 -> keyMarker == null || !idsByKey.containsKey(keyMarker) ? null
                    : idsByKey.get(keyMarker).get(random.nextInt(idsByKey.get(keyMarker).size()));
            default -> random.nextInt(4) == 0 ? ObjectVersion.NULL_VERSION : "v" + random.nextInt(6);
        };
        return new Case(ListingModel.inKeyOrder(idsByKey), deleted, prefix, delimiter,
                keyMarker == null || keyMarker.isEmpty() ? null : keyMarker, idMarker, random.nextInt(idsByKey.size() + 4));
    }

    private static String name(RandomGenerator random, int minTokens, int maxTokens) {
        StringBuilder name = new StringBuilder();
        for (int i = minTokens + random.nextInt(maxTokens - minTokens + 1); i > 0; i--) {
            name.append(TOKENS.get(random.nextInt(TOKENS.size())));
        }
        return name.toString();
    }

    /** A prefix of {@code key} that ends between two code points. */
    private static String startOf(RandomGenerator random, String key) {
        return key.substring(0, key.offsetByCodePoints(0, random.nextInt(key.codePointCount(0, key.length()) + 1)));
    }

    // The stores, as their layouts put them

    /** The single node's objects family: {@code bucket 0 key}, only the keys that are not deleted. */
    private static ObjectListing singleNodeObjects(Case c, ListQuery query) {
        MemoryCursor cursor = new MemoryCursor();
        KeyRange range = new KeyRange(cursor, KeyLayout.keyIsRecord(SCOPE));
        c.idsByKey().keySet().stream().filter(key -> !c.deleted().contains(key))
                .forEach(key -> cursor.put(range.layout().at(ByteKeys.utf8(key)), LIVE));
        return ListingRules.objects(query, range,
                KeyReader.ofRecords(range, (key, recordKey, value) -> version(key, "current")));
    }

    /**
     * The cluster's objects partition: several records {@code key 0 n} a key, the first of which
     * says whether the key's current version is a delete marker; such a key has no items.
     */
    private static ObjectListing clusterObjects(Case c, RandomGenerator random, ListQuery query) {
        MemoryCursor cursor = new MemoryCursor();
        KeyRange range = new KeyRange(cursor, KeyLayout.keyThenSeparator(new byte[0]));
        for (String key : c.idsByKey().keySet()) {
            byte[] keyBytes = ByteKeys.utf8(key);
            cursor.put(ByteKeys.concat(keyBytes, new byte[] {0}), c.deleted().contains(key) ? DELETED : LIVE);
            for (int n = random.nextInt(3); n > 0; n--) {
                cursor.put(ByteKeys.concat(keyBytes, new byte[] {0, 1, (byte) n}), LIVE);
            }
        }
        return ListingRules.objects(query, range, (key, keyBytes) -> new KeyItems<>() {
            private boolean taken = !Arrays.equals(cursor.value(), LIVE);

            @Override
            public @Nullable ObjectVersion next() {
                if (taken) {
                    return null;
                }
                taken = true;
                return version(key, "current");
            }

            @Override
            public void skipRest() {
                cursor.seek(range.layout().pastKey(keyBytes));
            }
        });
    }

    /** The single node's versions family: {@code bucket 0 key 0 ~sequence}, the id in the value. */
    private static VersionListing singleNodeVersions(Case c, VersionQuery query) {
        MemoryCursor cursor = new MemoryCursor();
        KeyRange range = new KeyRange(cursor, KeyLayout.keyThenSeparator(SCOPE));
        c.idsByKey().forEach((key, ids) -> {
            for (int i = 0; i < ids.size(); i++) {
                byte[] sequence = ByteBuffer.allocate(Long.BYTES).putLong(~(1_000L - i)).array();
                cursor.put(ByteKeys.concat(range.layout().at(ByteKeys.utf8(key)), new byte[] {0}, sequence),
                        ByteKeys.utf8(ids.get(i)));
            }
        });
        return ListingRules.versions(query, range, VersionReader.ofRecords(range,
                (key, recordKey, value) -> version(key, ByteKeys.string(value, 0, value.length)),
                value -> ByteKeys.string(value, 0, value.length)));
    }

    /** The uploads of both stores: {@code scope key 0 uploadId}, the ids of a key in byte order. */
    private static UploadListing uploads(Case c) {
        MemoryCursor cursor = new MemoryCursor();
        KeyLayout layout = KeyLayout.keyThenSeparator(SCOPE);
        KeyRange range = new KeyRange(cursor, layout);
        c.idsByKey().forEach((key, ids) -> ids.forEach(id -> cursor.put(
                ByteKeys.concat(layout.at(ByteKeys.utf8(key)), new byte[] {0}, ByteKeys.utf8(id)), new byte[0])));
        return ListingRules.uploads(c.prefix(), c.delimiter(), c.keyMarker(), c.idMarker(), c.maxKeys(), range,
                KeyReader.ofRecords(range, (key, recordKey, value) -> new MultipartUpload(BUCKET, key,
                        ByteKeys.string(recordKey, layout.keyEnd(recordKey) + 1, recordKey.length), Instant.EPOCH,
                        Map.of(), Map.of(), null)));
    }

    private static ObjectVersion version(String key, String versionId) {
        return new ObjectVersion(BUCKET, key, versionId, Instant.EPOCH, 0, "\"\"", new ObjectContent.DeleteMarker(),
                Map.of(), Map.of(), null, List.of());
    }

    private static Part part(int partNumber, byte[] value) {
        return new Part("upload", partNumber, Instant.EPOCH, 0, "\"\"", List.of(), null);
    }

    // The model's answers

    private static ListQuery objectQuery(Case c, int maxKeys) {
        return new ListQuery(c.prefix(), c.delimiter(), c.keyMarker(), maxKeys);
    }

    private static ListingModel.Page objectModel(Case c, @Nullable String marker, int maxKeys) {
        SortedMap<String, List<Item.Listed>> items = ListingModel.inKeyOrder(Map.of());
        c.idsByKey().keySet().stream()
                .filter(key -> !c.deleted().contains(key))
                .filter(key -> ListingModel.afterMarker(key, marker, c.prefix(), c.delimiter()))
                .forEach(key -> items.put(key, List.of(new Item.Listed(key, "", true))));
        return ListingModel.list(items, c.prefix(), c.delimiter(), maxKeys);
    }

    private static void assertSameObjects(ObjectListing listed, Case c, int maxKeys) {
        ListingModel.Page expected = objectModel(c, c.keyMarker(), maxKeys);
        List<Item> items = new ArrayList<>();
        listed.entries().forEach(entry -> items.add(new Item.Listed(entry.key(), "", true)));
        listed.commonPrefixes().forEach(common -> items.add(new Item.CommonPrefix(common)));
        assertThat(items).containsExactlyInAnyOrderElementsOf(expected.items());
        assertThat(listed.entries()).extracting(ObjectVersion::key).isSortedAccordingTo(ListingModel.KEY_ORDER);
        assertThat(listed.truncated()).isEqualTo(expected.truncated());
        assertThat(listed.nextMarker()).isEqualTo(expected.nextKeyMarker());
    }

    private static VersionQuery versionQuery(Case c, @Nullable String keyMarker, @Nullable String idMarker, int maxKeys) {
        return new VersionQuery(c.prefix(), c.delimiter(), keyMarker, idMarker, maxKeys);
    }

    /**
     * Versions after the markers: a key marker alone resumes after the key (or the common prefix it
     * names), with a version id after that version of the key, or after the key if it has no such
     * version; a version id alone is ignored.
     */
    private static ListingModel.Page versionModel(Case c, @Nullable String keyMarker, @Nullable String idMarker,
            int maxKeys) {
        SortedMap<String, List<Item.Listed>> items = ListingModel.inKeyOrder(Map.of());
        boolean resumes = keyMarker != null && idMarker != null
                && !ListingModel.namesCommonPrefix(keyMarker, c.prefix(), c.delimiter());
        c.idsByKey().forEach((key, ids) -> {
            List<Item.Listed> versions = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                versions.add(new Item.Listed(key, ids.get(i), i == 0));
            }
            if (resumes && key.equals(keyMarker)) {
                int marker = ids.indexOf(idMarker);
                items.put(key, marker < 0 ? List.of() : versions.subList(marker + 1, versions.size()));
            } else if (ListingModel.afterMarker(key, keyMarker, c.prefix(), c.delimiter())) {
                items.put(key, versions);
            }
        });
        return ListingModel.list(items, c.prefix(), c.delimiter(), maxKeys);
    }

    /** In the model's terms, in the listing's order (versions and common prefixes interleaved by key). */
    private static List<Item> versionItems(VersionListing listing) {
        List<Item> items = new ArrayList<>();
        for (ListedVersion version : listing.versions()) {
            items.add(new Item.Listed(version.version().key(), version.version().versionId(), version.latest()));
        }
        for (String common : listing.commonPrefixes()) {
            items.add(new Item.CommonPrefix(common));
        }
        items.sort(Comparator.comparing(Item::name, ListingModel.KEY_ORDER));
        return items;
    }

    /** Uploads after the markers: with both, the key's uploads of greater ids, then later keys. */
    private static ListingModel.Page uploadModel(Case c) {
        SortedMap<String, List<Item.Listed>> items = ListingModel.inKeyOrder(Map.of());
        String keyMarker = c.keyMarker();
        String idMarker = c.idMarker();
        boolean resumes = keyMarker != null && idMarker != null
                && !ListingModel.namesCommonPrefix(keyMarker, c.prefix(), c.delimiter());
        c.idsByKey().forEach((key, ids) -> {
            List<Item.Listed> uploads = new ArrayList<>();
            for (String id : ids.stream().sorted(ListingModel.KEY_ORDER).toList()) {
                if (!(resumes && key.equals(keyMarker)) || ListingModel.KEY_ORDER.compare(id, idMarker) > 0) {
                    uploads.add(new Item.Listed(key, id, false));
                }
            }
            if ((resumes && key.equals(keyMarker))
                    || ListingModel.afterMarker(key, keyMarker, c.prefix(), c.delimiter())) {
                items.put(key, uploads);
            }
        });
        return ListingModel.list(items, c.prefix(), c.delimiter(), c.maxKeys());
    }
}
