package dev.hangar.metadata.command;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectLock;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.Refusal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Arbitrary metadata commands and outcomes, from a seeded generator: every command, every variant
 * of the values inside them, and the edges a codec gets wrong (empty and unicode strings, empty
 * maps, nulls where a field allows them, instants at both ends of time, sizes at {@code
 * Long.MAX_VALUE}, inline, block and delete-marker content, nested access key changes).
 *
 * <p>It records the variants it made ({@link #variants()}), so that a test can check that it
 * covers every permitted subclass: a command added to the sealed set without a generator here is
 * noticed.
 */
public final class RandomCommands {
    private static final List<String> SAMPLE_STRINGS = List.of(
            "", "a", "photos", "null", "ünïcödé", "日本語のキー", "emoji 😀🚀", "a/b/c/", "with space", "\u0000",
            "\"9e107d9d372bb6826bd81d3542a419d6\"", "e\u0301", "tab\tnew\nline", "%2F+&?", "\uFFFF", "𝄞");
    private static final List<Instant> SAMPLE_INSTANTS = List.of(
            Instant.EPOCH, Instant.MIN, Instant.MAX, Instant.parse("1969-12-31T23:59:59.999999999Z"),
            Instant.parse("2026-03-04T05:06:07.123456789Z"), Instant.ofEpochSecond(-1));
    private static final List<Long> SAMPLE_SIZES = List.of(0L, 1L, 127L, 128L, 16_383L, 16_384L, 5L << 30,
            Long.MAX_VALUE);

    private final RandomGenerator random;
    private final Set<Object> variants = new HashSet<>();

    public RandomCommands(RandomGenerator random) {
        this.random = random;
    }

    /** The classes (and {@link Refusal}s) of the variants made so far. */
    public Set<Object> variants() {
        return Set.copyOf(variants);
    }

    public MetadataCommand<?> command() {
        MetadataCommand<?> command = switch (random.nextInt(16)) {
            case 0 -> new MetadataCommand.CreateBucket(bucketRecord());
            case 1 -> new MetadataCommand.DeleteBucket(string());
            case 2 -> new MetadataCommand.PutBucketConfig(string(), nonEmptyString(), bytes());
            case 3 -> new MetadataCommand.DeleteBucketConfig(string(), nonEmptyString());
            case 4 -> new MetadataCommand.PutVersion(version(string(), string()), precondition(), lockCheck());
            case 5 -> new MetadataCommand.DeleteVersion(string(), string(), versionId(), lockCheck(),
                    chance(50) ? new VersionMatch(instant(), string(), random.nextBoolean()) : null);
            case 6 -> new MetadataCommand.ChangeVersion(string(), string(), versionId(), versionChange());
            case 7 -> new MetadataCommand.CreateUpload(upload());
            case 8 -> {
                MultipartUpload upload = upload();
                yield new MetadataCommand.PutPart(upload, part(upload.uploadId()));
            }
            case 9 -> {
                MultipartUpload upload = upload();
                ObjectVersion version = version(upload.bucket(), upload.key());
                yield new MetadataCommand.CompleteUpload(upload, version, precondition());
            }
            case 10 -> new MetadataCommand.AbortUpload(upload());
            case 11 -> new MetadataCommand.PutAccessKey(accessKey());
            case 12 -> new MetadataCommand.DeleteAccessKey(string());
            case 13 -> new MetadataCommand.PutServiceConfig(serviceConfigName(), serviceConfigName(), bytes());
            case 14 -> new MetadataCommand.DeleteServiceConfig(serviceConfigName(), serviceConfigName());
            default -> new MetadataCommand.ChangeAccessKey(string(), accessKeyChange(3));
        };
        return saw(command);
    }

    /** An outcome {@code command} could have: refused for any reason, or done with a value of its type. */
    @SuppressWarnings("unchecked") // result(command) gives the result type the command's record declares.
    public <R> Outcome<R> outcome(MetadataCommand<R> command) {
        if (chance(30)) {
            Refusal reason = oneOf(List.of(Refusal.values()));
            variants.add(reason);
            return saw(Outcome.refused(reason, string()));
        }
        return saw(Outcome.done((R) result(command)));
    }

    private Object result(MetadataCommand<?> command) {
        return switch (command) {
            case MetadataCommand.PutVersion c -> optionalVersion();
            case MetadataCommand.DeleteVersion c -> optionalVersion();
            case MetadataCommand.ChangeVersion c -> optionalVersion();
            case MetadataCommand.CompleteUpload c -> optionalVersion();
            case MetadataCommand.ChangeAccessKey c -> chance(30) ? Optional.empty() : Optional.of(accessKey());
            case MetadataCommand.CreateBucket c -> random.nextBoolean();
            case MetadataCommand.DeleteBucket c -> random.nextBoolean();
            case MetadataCommand.PutBucketConfig c -> random.nextBoolean();
            case MetadataCommand.DeleteBucketConfig c -> random.nextBoolean();
            case MetadataCommand.CreateUpload c -> random.nextBoolean();
            case MetadataCommand.PutPart c -> random.nextBoolean();
            case MetadataCommand.AbortUpload c -> random.nextBoolean();
            case MetadataCommand.PutAccessKey c -> random.nextBoolean();
            case MetadataCommand.DeleteAccessKey c -> random.nextBoolean();
            case MetadataCommand.PutServiceConfig c -> random.nextBoolean();
            case MetadataCommand.DeleteServiceConfig c -> random.nextBoolean();
        };
    }

    private Optional<ObjectVersion> optionalVersion() {
        return chance(30) ? Optional.empty() : Optional.of(version(string(), string()));
    }

    public BucketRecord bucketRecord() {
        return new BucketRecord(nonEmptyString(), instant(), string());
    }

    public ObjectVersion version(String bucket, String key) {
        return new ObjectVersion(bucket, key, versionId(), instant(), size(), string(), content(), map(), map(),
                chance(50) ? checksum() : null, partSizes(), map(), chance(50) ? lock() : null, nullableString(),
                nullableString());
    }

    public ObjectContent content() {
        ObjectContent content = switch (random.nextInt(3)) {
            case 0 -> new ObjectContent.Inline(bytes());
            case 1 -> new ObjectContent.Blocks(blocks());
            default -> new ObjectContent.DeleteMarker();
        };
        return saw(content);
    }

    public MultipartUpload upload() {
        return new MultipartUpload(string(), string(), string(), instant(), map(), map(), nullableString());
    }

    public Part part(String uploadId) {
        int partNumber = chance(20) ? oneOf(List.of(1, 10_000)) : random.nextInt(1, 10_001);
        return new Part(uploadId, partNumber, instant(), size(), string(), blocks(), chance(50) ? checksum() : null);
    }

    public AccessKey accessKey() {
        Map<String, BucketPermission> buckets = new HashMap<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            buckets.put(string(), permission());
        }
        return new AccessKey(nonEmptyString(), nonEmptyString(), instant(), random.nextBoolean(), buckets,
                random.nextBoolean());
    }

    public Precondition precondition() {
        Precondition precondition = switch (random.nextInt(3)) {
            case 0 -> new Precondition.None();
            case 1 -> new Precondition.IfAbsent();
            default -> new Precondition.IfEtagMatches(string());
        };
        return saw(precondition);
    }

    public LockCheck lockCheck() {
        return chance(30) ? LockCheck.NONE : LockCheck.at(instant(), random.nextBoolean());
    }

    public VersionChange versionChange() {
        VersionChange change = switch (random.nextInt(4)) {
            case 0 -> new VersionChange.SetTags(map());
            case 1 -> new VersionChange.SetAcl(nullableString());
            case 2 -> new VersionChange.SetLegalHold(random.nextBoolean());
            default -> {
                RetentionMode mode = chance(30) ? null : oneOf(List.of(RetentionMode.values()));
                yield new VersionChange.SetRetention(mode, mode == null ? null : instant(), instant(),
                        random.nextBoolean());
            }
        };
        return saw(change);
    }

    /** @param depth how many more levels of {@link AccessKeyChange.All} may nest inside this one */
    public AccessKeyChange accessKeyChange(int depth) {
        AccessKeyChange change = switch (random.nextInt(depth > 0 ? 4 : 3)) {
            case 0 -> new AccessKeyChange.SetBucketPermission(string(), chance(30) ? null : permission());
            case 1 -> new AccessKeyChange.SetCreateBuckets(random.nextBoolean());
            case 2 -> new AccessKeyChange.ReplaceSecret(string(), string());
            default -> {
                List<AccessKeyChange> changes = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    changes.add(accessKeyChange(depth - 1));
                }
                yield new AccessKeyChange.All(changes);
            }
        };
        return saw(change);
    }

    public String string() {
        return switch (random.nextInt(5)) {
            case 0, 1 -> oneOf(SAMPLE_STRINGS);
            case 2 -> ascii(random.nextInt(0, 17));
            case 3 -> unicode(random.nextInt(0, 13));
            default -> unicode(random.nextInt(100, 300));
        };
    }

    private String nonEmptyString() {
        String text = string();
        return text.isEmpty() ? "k" : text;
    }

    /** A kind or name of a service configuration: any string but an empty one or one with U+0000. */
    public String serviceConfigName() {
        String text = string().replace('\0', '_');
        return text.isEmpty() ? "k" : text;
    }

    public @Nullable String nullableString() {
        return chance(40) ? null : string();
    }

    private String versionId() {
        return chance(30) ? ObjectVersion.NULL_VERSION : string();
    }

    private String ascii(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) random.nextInt(0x20, 0x7F));
        }
        return text.toString();
    }

    /** Any code point but a lone surrogate (which UTF-8 cannot hold), often outside the BMP. */
    private String unicode(int codePoints) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < codePoints; i++) {
            int codePoint = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(0, 0x80);
                case 1 -> random.nextInt(0x80, 0x800);
                case 2 -> random.nextInt(0x10000, 0x110000);
                default -> random.nextInt(0, 0x110000);
            };
            if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
                codePoint = 0xFFFD;
            }
            text.appendCodePoint(codePoint);
        }
        return text.toString();
    }

    private Instant instant() {
        return switch (random.nextInt(4)) {
            case 0 -> oneOf(SAMPLE_INSTANTS);
            case 1 -> Instant.ofEpochSecond(
                    random.nextLong(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond() + 1),
                    random.nextInt(1_000_000_000));
            default -> Instant.ofEpochSecond(random.nextLong(1_500_000_000L, 2_500_000_000L),
                    random.nextInt(1_000_000) * 1_000L);
        };
    }

    private long size() {
        return chance(40) ? oneOf(SAMPLE_SIZES) : random.nextLong(0, Long.MAX_VALUE);
    }

    public byte[] bytes() {
        int length = switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1, 2 -> random.nextInt(1, 64);
            case 3 -> random.nextInt(64, 3_073);
            default -> random.nextInt(3_073, 8_193);
        };
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private Map<String, String> map() {
        Map<String, String> map = new HashMap<>();
        for (int i = chance(40) ? 0 : random.nextInt(1, 6); i > 0; i--) {
            map.put(string(), string());
        }
        return map;
    }

    private List<BlockRef> blocks() {
        List<BlockRef> blocks = new ArrayList<>();
        for (int i = chance(20) ? 0 : random.nextInt(1, 6); i > 0; i--) {
            byte[] id = new byte[16];
            random.nextBytes(id);
            blocks.add(new BlockRef(new BlockId(HexFormat.of().formatHex(id)), size(), random.nextInt()));
        }
        return blocks;
    }

    private List<Long> partSizes() {
        List<Long> sizes = new ArrayList<>();
        for (int i = chance(60) ? 0 : random.nextInt(1, 6); i > 0; i--) {
            sizes.add(size());
        }
        return sizes;
    }

    private Checksum checksum() {
        return new Checksum(oneOf(List.of("CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256", "")), string());
    }

    private ObjectLock lock() {
        RetentionMode mode = chance(30) ? null : oneOf(List.of(RetentionMode.values()));
        return new ObjectLock(mode, mode == null ? null : instant(), random.nextBoolean());
    }

    private BucketPermission permission() {
        return new BucketPermission(random.nextBoolean(), random.nextBoolean(), random.nextBoolean());
    }

    private boolean chance(int percent) {
        return random.nextInt(100) < percent;
    }

    private <T> T oneOf(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    private <T> T saw(T variant) {
        variants.add(variant.getClass());
        return variant;
    }
}
