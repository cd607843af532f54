package dev.hangar.metadata.query;

import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.ServiceConfigNames;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import dev.hangar.metadata.command.RandomCommands;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Arbitrary read queries and results, from a seeded generator: every kind of query, arguments at
 * their edges (nulls where allowed, empty and unicode strings, negative and extreme numbers), and
 * results of every shape (empty and present optionals, empty lists and lists of hundreds, null
 * markers). The records inside come from {@link RandomCommands}, which makes them for the command
 * codec.
 *
 * <p>It records what it made ({@link #variants()}), so that a test can check that every kind of
 * query and every shape of result was covered.
 */
final class RandomQueries {
    /** A list this long or longer takes more than one byte to count. */
    static final int LONG_LIST = 128;
    /** The longest list of heavy records (versions, uploads with their maps). */
    private static final int HEAVY = 20;

    private static final List<Integer> SAMPLE_INTS = List.of(0, 1, -1, 63, 64, 127, 128, 10_000, 10_001,
            Integer.MAX_VALUE, Integer.MIN_VALUE);

    private final RandomGenerator random;
    private final RandomCommands records;
    private final Set<Object> variants = new HashSet<>();

    RandomQueries(RandomGenerator random) {
        this.random = random;
        this.records = new RandomCommands(random);
    }

    /** The query classes and the result shapes ("empty", "present", "no entries", "long list") made so far. */
    Set<Object> variants() {
        return Set.copyOf(variants);
    }

    /** One query made by a fresh generator on {@code random}: a property's case. */
    static ReadQuery<?> queryOf(RandomGenerator random) {
        return new RandomQueries(random).query();
    }

    ReadQuery<?> query() {
        ReadQuery<?> query = switch (random.nextInt(15)) {
            case 0 -> new ReadQuery.GetBucket(string());
            case 1 -> new ReadQuery.ListBuckets();
            case 2 -> new ReadQuery.GetObject(string(), string());
            case 3 -> new ReadQuery.GetVersion(string(), string(), string());
            case 4 -> new ReadQuery.ListObjects(string(),
                    new ListQuery(string(), nullableString(), nullableString(), count()));
            case 5 -> new ReadQuery.ListVersions(string(),
                    new VersionQuery(string(), nullableString(), nullableString(), nullableString(), count()));
            case 6 -> new ReadQuery.GetUpload(string(), string(), string());
            case 7 -> new ReadQuery.GetPart(string(), anyInt());
            case 8 -> new ReadQuery.ListParts(string(), anyInt(), anyInt());
            case 9 -> new ReadQuery.ListUploads(string(), string(), nullableString(), nullableString(),
                    nullableString(), anyInt());
            case 10 -> new ReadQuery.GetBucketConfig(string(), string());
            case 11 -> new ReadQuery.GetAccessKey(string());
            case 12 -> new ReadQuery.GetServiceConfig(string(), string());
            case 13 -> new ReadQuery.ListServiceConfigs(string());
            default -> new ReadQuery.ListAccessKeys();
        };
        variants.add(query.getClass());
        return query;
    }

    /** A result {@code query} could have: of the type it declares, of any size. */
    @SuppressWarnings("unchecked") // Each case makes the T that the matched record declares.
    <T> T result(ReadQuery<T> query) {
        Object result = switch (query) {
            case ReadQuery.GetBucket q -> optional(records::bucketRecord);
            case ReadQuery.ListBuckets q -> list(records::bucketRecord, 300);
            case ReadQuery.GetObject q -> optional(() -> records.version(q.bucket(), q.key()));
            case ReadQuery.GetVersion q -> optional(() -> records.version(string(), string()));
            case ReadQuery.ListObjects q -> new ObjectListing(list(() -> records.version(q.bucket(), string()), HEAVY),
                    strings(), random.nextBoolean(), nullableString());
            case ReadQuery.ListVersions q -> new VersionListing(
                    list(() -> new ListedVersion(records.version(string(), string()), random.nextBoolean()), HEAVY),
                    strings(), random.nextBoolean(), nullableString(), nullableString());
            case ReadQuery.GetUpload q -> optional(records::upload);
            case ReadQuery.GetPart q -> optional(() -> records.part(q.uploadId()));
            case ReadQuery.ListParts q -> new PartListing(list(() -> records.part(q.uploadId()), 300),
                    random.nextBoolean(), anyInt());
            case ReadQuery.ListUploads q -> new UploadListing(list(records::upload, HEAVY), strings(),
                    random.nextBoolean(), nullableString(), nullableString());
            case ReadQuery.GetBucketConfig q -> optional(records::bytes);
            case ReadQuery.GetAccessKey q -> optional(records::accessKey);
            case ReadQuery.ListAccessKeys q -> list(records::accessKey, 300);
            case ReadQuery.GetServiceConfig q -> optional(records::bytes);
            case ReadQuery.ListServiceConfigs q -> documentsByName();
        };
        return (T) result;
    }

    /**
     * {@code result} in a form whose {@code equals} compares values: a configuration document is
     * an array, which {@code Optional.equals} would compare by identity.
     */
    static Object comparable(Object result) {
        if (result instanceof SortedMap<?, ?> documents) {
            // Names and documents in the map's order: the order is part of the result.
            List<String> entries = new ArrayList<>();
            documents.forEach((name, document) -> entries.add(name + "=" + HexFormat.of().formatHex((byte[]) document)));
            return entries;
        }
        return result instanceof Optional<?> optional && optional.orElse(null) instanceof byte[] document
                ? Optional.of(HexFormat.of().formatHex(document))
                : result;
    }

    /** A listing of service configurations: names of any kind (the codec takes any string), sometimes many. */
    private SortedMap<String, byte[]> documentsByName() {
        SortedMap<String, byte[]> documents = ServiceConfigNames.newListing();
        list(this::string, 300).forEach(name -> documents.put(name, records.bytes()));
        return documents;
    }

    private <E> Optional<E> optional(Supplier<E> element) {
        boolean present = random.nextInt(100) >= 30;
        variants.add(present ? "present" : "empty");
        return present ? Optional.of(element.get()) : Optional.empty();
    }

    /**
     * Empty, short, or now and then long, up to {@code longest}: lists of heavy records (versions
     * carry up to 8 KiB inline) stay short, so that a case costs milliseconds; lists of light ones
     * (names, parts, keys) get long, so that their counts take more than one byte.
     */
    private <E> List<E> list(Supplier<E> element, int longest) {
        int roll = random.nextInt(100);
        int size = roll < 30 ? 0 : roll < 85 ? random.nextInt(1, 6)
                : roll < 97 || longest < LONG_LIST ? random.nextInt(6, Math.min(longest, 20) + 1)
                : random.nextInt(LONG_LIST, longest + 1);
        variants.add(size == 0 ? "no entries" : size >= LONG_LIST ? "long list" : "some entries");
        List<E> elements = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            elements.add(element.get());
        }
        return elements;
    }

    private List<String> strings() {
        return list(records::string, 300);
    }

    private String string() {
        return records.string();
    }

    private @Nullable String nullableString() {
        String text = records.nullableString();
        variants.add(text == null ? "null" : "string");
        return text;
    }

    /** Any int: the store takes any, so the codec carries any. */
    private int anyInt() {
        return random.nextInt(100) < 40 ? SAMPLE_INTS.get(random.nextInt(SAMPLE_INTS.size())) : random.nextInt();
    }

    /** A count the listing records accept: not negative. */
    private int count() {
        int value = anyInt();
        return value == Integer.MIN_VALUE ? Integer.MAX_VALUE : Math.abs(value);
    }
}
