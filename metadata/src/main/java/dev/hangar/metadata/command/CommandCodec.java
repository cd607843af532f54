package dev.hangar.metadata.command;

import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Precondition;
import dev.hangar.metadata.RetentionMode;
import dev.hangar.metadata.command.MetadataCommand.AbortUpload;
import dev.hangar.metadata.command.MetadataCommand.ChangeAccessKey;
import dev.hangar.metadata.command.MetadataCommand.ChangeVersion;
import dev.hangar.metadata.command.MetadataCommand.CompleteUpload;
import dev.hangar.metadata.command.MetadataCommand.CreateBucket;
import dev.hangar.metadata.command.MetadataCommand.CreateUpload;
import dev.hangar.metadata.command.MetadataCommand.DeleteAccessKey;
import dev.hangar.metadata.command.MetadataCommand.DeleteBucket;
import dev.hangar.metadata.command.MetadataCommand.DeleteBucketConfig;
import dev.hangar.metadata.command.MetadataCommand.DeleteServiceConfig;
import dev.hangar.metadata.command.MetadataCommand.DeleteVersion;
import dev.hangar.metadata.command.MetadataCommand.PutAccessKey;
import dev.hangar.metadata.command.MetadataCommand.PutBucketConfig;
import dev.hangar.metadata.command.MetadataCommand.PutPart;
import dev.hangar.metadata.command.MetadataCommand.PutServiceConfig;
import dev.hangar.metadata.command.MetadataCommand.PutVersion;
import dev.hangar.metadata.rocksdb.RecordFormat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary encoding of a {@link MetadataCommand}: what a Raft log entry or a command forwarded to
 * another node carries. {@code decode(encode(c))} equals {@code c}, for every command; decoding
 * bytes that no encoder wrote throws {@link IllegalArgumentException}, and nothing else.
 *
 * <h2>Format 1</h2>
 *
 * One format byte ({@code 1}), one tag byte naming the command, then its fields in order, and
 * nothing after them. Conventions are those of {@link RecordFormat}: varint is unsigned LEB128;
 * string is a varint length and UTF-8 (a string with an unpaired surrogate is refused when
 * encoding); bytes are a varint length and the bytes; instant is zigzag varint seconds and varint
 * nanoseconds; map is a varint count and name/value strings in ascending name order; boolean is
 * one byte 0 or 1; a nullable field is a presence boolean, then the value if present. A record is
 * the fields its {@link RecordFormat} body leaves to the RocksDB key, then that body as bytes (it
 * starts with its own format byte):
 *
 * <ul>
 *   <li>bucket record: name, body; version: bucket, key, body; upload: bucket, key, uploadId,
 *       body; access key: accessKeyId, body
 * </ul>
 *
 * Commands, by tag (tag 0 is never a command, so that zeroed bytes are refused):
 *
 * <ol>
 *   <li>{@code CreateBucket}: bucket record
 *   <li>{@code DeleteBucket}: bucket
 *   <li>{@code PutBucketConfig}: bucket, kind, document (bytes)
 *   <li>{@code DeleteBucketConfig}: bucket, kind
 *   <li>{@code PutVersion}: version, precondition, lock check
 *   <li>{@code DeleteVersion}: bucket, key, versionId, lock check, nullable version match
 *   <li>{@code ChangeVersion}: bucket, key, versionId, version change
 *   <li>{@code CreateUpload}: upload
 *   <li>{@code PutPart}: upload, partNumber (varint), the part's body (its uploadId is the upload's)
 *   <li>{@code CompleteUpload}: upload, the version's body (its bucket and key are the upload's),
 *       precondition
 *   <li>{@code AbortUpload}: upload
 *   <li>{@code PutAccessKey}: access key
 *   <li>{@code DeleteAccessKey}: accessKeyId
 *   <li>{@code ChangeAccessKey}: accessKeyId, access key change
 *   <li>{@code PutServiceConfig}: kind, name, document (bytes)
 *   <li>{@code DeleteServiceConfig}: kind, name
 * </ol>
 *
 * Values inside commands, each variant by a tag byte counted from 0 as in {@link RecordFormat}:
 *
 * <ul>
 *   <li>precondition: 0 {@code None} | 1 {@code IfAbsent} | 2 {@code IfEtagMatches}: etag
 *   <li>lock check: nullable instant {@code at}, boolean {@code bypassGovernance}
 *   <li>version match: lastModified, etag, boolean deleteMarker
 *   <li>version change: 0 {@code SetTags}: map | 1 {@code SetAcl}: nullable string | 2 {@code
 *       SetLegalHold}: boolean | 3 {@code SetRetention}: mode byte (0 none, 1 GOVERNANCE, 2
 *       COMPLIANCE), retainUntil if there is a mode, at, boolean bypassGovernance
 *   <li>access key change: 0 {@code SetBucketPermission}: bucket, nullable permission as one byte
 *       of flags (1 read, 2 write, 4 owner) | 1 {@code SetCreateBuckets}: boolean | 2 {@code
 *       ReplaceSecret}: expected, secret | 3 {@code All}: varint count, changes. {@code All}s nest at
 *       most 16 deep (deeper is refused both ways), so that bytes cannot make
 *       the decoder recurse without bound
 * </ul>
 *
 * <h2>Compatibility</h2>
 *
 * A log keeps entries across releases and a cluster runs two releases during an upgrade, so:
 *
 * <ul>
 *   <li>A decoder reads every format up to the newest it knows, for as long as any log or snapshot
 *       may hold one; it refuses a newer format, an unknown tag and trailing bytes rather than
 *       guess (a field appended without a new format is noticed, not dropped).
 *   <li>Tags are never reused nor renumbered. A new command, or a new variant of a value, takes
 *       the next free tag in the current format: an older reader refuses it as unknown.
 *   <li>Any change to the fields of an existing tag takes a new format number; its decoder reads
 *       the older formats with the new fields at their defaults. An encoder writes the oldest
 *       format that can express the command (as {@link RecordFormat} does for access keys), so
 *       commands that use nothing new stay readable by a release that is not upgraded yet.
 *       Sending what a peer cannot read at all is the caller's business: gate it on the release
 *       every member runs.
 *   <li>Record bodies carry their own format byte and evolve by {@link RecordFormat}'s rule,
 *       independently of this one.
 * </ul>
 *
 * {@code CommandCodecGoldenTest} keeps the bytes of format 1, so that a change is noticed.
 */
public final class CommandCodec {
    /** The format this release writes, and the newest it reads. */
    static final int FORMAT_1 = 1;

    /** How deep {@link AccessKeyChange.All}s may nest. */
    static final int MAX_NESTING = 16;

    private static final int CREATE_BUCKET = 1;
    private static final int DELETE_BUCKET = 2;
    private static final int PUT_BUCKET_CONFIG = 3;
    private static final int DELETE_BUCKET_CONFIG = 4;
    private static final int PUT_VERSION = 5;
    private static final int DELETE_VERSION = 6;
    private static final int CHANGE_VERSION = 7;
    private static final int CREATE_UPLOAD = 8;
    private static final int PUT_PART = 9;
    private static final int COMPLETE_UPLOAD = 10;
    private static final int ABORT_UPLOAD = 11;
    private static final int PUT_ACCESS_KEY = 12;
    private static final int DELETE_ACCESS_KEY = 13;
    private static final int CHANGE_ACCESS_KEY = 14;
    private static final int PUT_SERVICE_CONFIG = 15;
    private static final int DELETE_SERVICE_CONFIG = 16;

    private static final int NONE = 0;
    private static final int IF_ABSENT = 1;
    private static final int IF_ETAG_MATCHES = 2;

    private static final int SET_TAGS = 0;
    private static final int SET_ACL = 1;
    private static final int SET_LEGAL_HOLD = 2;
    private static final int SET_RETENTION = 3;

    private static final int NO_RETENTION = 0;
    private static final int GOVERNANCE = 1;
    private static final int COMPLIANCE = 2;

    private static final int SET_BUCKET_PERMISSION = 0;
    private static final int SET_CREATE_BUCKETS = 1;
    private static final int REPLACE_SECRET = 2;
    private static final int ALL = 3;

    private static final int READ = 1;
    private static final int WRITE = 2;
    private static final int OWNER = 4;

    private CommandCodec() {}

    /**
     * The bytes of {@code command}.
     *
     * @throws IllegalArgumentException if a string has an unpaired surrogate, or {@link
     *     AccessKeyChange.All}s nest deeper than 16
     */
    public static byte[] encode(MetadataCommand<?> command) {
        CodecWriter writer = new CodecWriter();
        writer.writeByte(FORMAT_1);
        switch (command) {
            case CreateBucket create -> {
                writer.writeByte(CREATE_BUCKET);
                writer.writeBucketRecord(create.record());
            }
            case DeleteBucket delete -> {
                writer.writeByte(DELETE_BUCKET);
                writer.writeString(delete.bucket());
            }
            case PutBucketConfig put -> {
                writer.writeByte(PUT_BUCKET_CONFIG);
                writer.writeString(put.bucket());
                writer.writeString(put.kind());
                writer.writeBytes(put.document());
            }
            case DeleteBucketConfig delete -> {
                writer.writeByte(DELETE_BUCKET_CONFIG);
                writer.writeString(delete.bucket());
                writer.writeString(delete.kind());
            }
            case PutVersion put -> {
                writer.writeByte(PUT_VERSION);
                writer.writeVersion(put.version());
                writePrecondition(writer, put.precondition());
                writeLockCheck(writer, put.replacing());
            }
            case DeleteVersion delete -> {
                writer.writeByte(DELETE_VERSION);
                writer.writeString(delete.bucket());
                writer.writeString(delete.key());
                writer.writeString(delete.versionId());
                writeLockCheck(writer, delete.lock());
                VersionMatch expected = delete.expected();
                writer.writeBoolean(expected != null);
                if (expected != null) {
                    writer.writeInstant(expected.lastModified());
                    writer.writeString(expected.etag());
                    writer.writeBoolean(expected.deleteMarker());
                }
            }
            case ChangeVersion change -> {
                writer.writeByte(CHANGE_VERSION);
                writer.writeString(change.bucket());
                writer.writeString(change.key());
                writer.writeString(change.versionId());
                writeVersionChange(writer, change.change());
            }
            case CreateUpload create -> {
                writer.writeByte(CREATE_UPLOAD);
                writer.writeUpload(create.upload());
            }
            case PutPart put -> {
                writer.writeByte(PUT_PART);
                writer.writeUpload(put.upload());
                writer.writePart(put.part());
            }
            case CompleteUpload complete -> {
                writer.writeByte(COMPLETE_UPLOAD);
                writer.writeUpload(complete.upload());
                writer.writeBytes(RecordFormat.encodeObject(complete.version()));
                writePrecondition(writer, complete.precondition());
            }
            case AbortUpload abort -> {
                writer.writeByte(ABORT_UPLOAD);
                writer.writeUpload(abort.upload());
            }
            case PutAccessKey put -> {
                writer.writeByte(PUT_ACCESS_KEY);
                writer.writeAccessKey(put.key());
            }
            case DeleteAccessKey delete -> {
                writer.writeByte(DELETE_ACCESS_KEY);
                writer.writeString(delete.accessKeyId());
            }
            case ChangeAccessKey change -> {
                writer.writeByte(CHANGE_ACCESS_KEY);
                writer.writeString(change.accessKeyId());
                writeAccessKeyChange(writer, change.change(), 1);
            }
            case PutServiceConfig put -> {
                writer.writeByte(PUT_SERVICE_CONFIG);
                writer.writeString(put.kind());
                writer.writeString(put.name());
                writer.writeBytes(put.document());
            }
            case DeleteServiceConfig delete -> {
                writer.writeByte(DELETE_SERVICE_CONFIG);
                writer.writeString(delete.kind());
                writer.writeString(delete.name());
            }
        }
        return writer.toByteArray();
    }

    /**
     * The command {@code bytes} encode.
     *
     * @throws IllegalArgumentException if they are not a command this release can read: an unknown
     *     format or tag, truncated, trailing bytes, a field out of range or inconsistent
     */
    public static MetadataCommand<?> decode(byte[] bytes) {
        return CodecReader.read(bytes, "command", FORMAT_1, CommandCodec::readCommand);
    }

    private static MetadataCommand<?> readCommand(CodecReader reader) {
        int tag = reader.readByte();
        return switch (tag) {
            case CREATE_BUCKET -> new CreateBucket(reader.readBucketRecord());
            case DELETE_BUCKET -> new DeleteBucket(reader.readString());
            case PUT_BUCKET_CONFIG -> new PutBucketConfig(reader.readString(), reader.readString(), reader.readBytes());
            case DELETE_BUCKET_CONFIG -> new DeleteBucketConfig(reader.readString(), reader.readString());
            case PUT_VERSION -> new PutVersion(reader.readVersion(), readPrecondition(reader), readLockCheck(reader));
            case DELETE_VERSION -> new DeleteVersion(reader.readString(), reader.readString(), reader.readString(),
                    readLockCheck(reader),
                    reader.readBoolean()
                            ? new VersionMatch(reader.readInstant(), reader.readString(), reader.readBoolean())
                            : null);
            case CHANGE_VERSION -> new ChangeVersion(reader.readString(), reader.readString(), reader.readString(),
                    readVersionChange(reader));
            case CREATE_UPLOAD -> new CreateUpload(reader.readUpload());
            case PUT_PART -> {
                MultipartUpload upload = reader.readUpload();
                yield new PutPart(upload, reader.readPart(upload.uploadId()));
            }
            case COMPLETE_UPLOAD -> {
                MultipartUpload upload = reader.readUpload();
                byte[] body = reader.readBytes();
                ObjectVersion version = reader.record("object version",
                        () -> RecordFormat.decodeObject(upload.bucket(), upload.key(), body));
                yield new CompleteUpload(upload, version, readPrecondition(reader));
            }
            case ABORT_UPLOAD -> new AbortUpload(reader.readUpload());
            case PUT_ACCESS_KEY -> new PutAccessKey(reader.readAccessKey());
            case DELETE_ACCESS_KEY -> new DeleteAccessKey(reader.readString());
            case CHANGE_ACCESS_KEY -> new ChangeAccessKey(reader.readString(), readAccessKeyChange(reader, 1));
            case PUT_SERVICE_CONFIG -> new PutServiceConfig(reader.readString(), reader.readString(), reader.readBytes());
            case DELETE_SERVICE_CONFIG -> new DeleteServiceConfig(reader.readString(), reader.readString());
            default -> throw reader.invalid("unknown command tag " + tag + " (a later release wrote it?)");
        };
    }

    private static void writePrecondition(CodecWriter writer, Precondition precondition) {
        switch (precondition) {
            case Precondition.None none -> writer.writeByte(NONE);
            case Precondition.IfAbsent absent -> writer.writeByte(IF_ABSENT);
            case Precondition.IfEtagMatches matches -> {
                writer.writeByte(IF_ETAG_MATCHES);
                writer.writeString(matches.etag());
            }
        }
    }

    private static Precondition readPrecondition(CodecReader reader) {
        int tag = reader.readByte();
        return switch (tag) {
            case NONE -> new Precondition.None();
            case IF_ABSENT -> new Precondition.IfAbsent();
            case IF_ETAG_MATCHES -> new Precondition.IfEtagMatches(reader.readString());
            default -> throw reader.invalid("unknown precondition tag " + tag);
        };
    }

    private static void writeLockCheck(CodecWriter writer, LockCheck check) {
        writer.writeNullableInstant(check.at());
        writer.writeBoolean(check.bypassGovernance());
    }

    private static LockCheck readLockCheck(CodecReader reader) {
        Instant at = reader.readNullableInstant();
        return new LockCheck(at, reader.readBoolean());
    }

    private static void writeVersionChange(CodecWriter writer, VersionChange change) {
        switch (change) {
            case VersionChange.SetTags tags -> {
                writer.writeByte(SET_TAGS);
                writer.writeMap(tags.tags());
            }
            case VersionChange.SetAcl acl -> {
                writer.writeByte(SET_ACL);
                writer.writeNullableString(acl.acl());
            }
            case VersionChange.SetLegalHold hold -> {
                writer.writeByte(SET_LEGAL_HOLD);
                writer.writeBoolean(hold.on());
            }
            case VersionChange.SetRetention retention -> {
                writer.writeByte(SET_RETENTION);
                RetentionMode mode = retention.mode();
                Instant retainUntil = retention.retainUntil();
                if (mode == null || retainUntil == null) {
                    writer.writeByte(NO_RETENTION);
                } else {
                    writer.writeByte(switch (mode) {
                        case GOVERNANCE -> GOVERNANCE;
                        case COMPLIANCE -> COMPLIANCE;
                    });
                    writer.writeInstant(retainUntil);
                }
                writer.writeInstant(retention.at());
                writer.writeBoolean(retention.bypassGovernance());
            }
        }
    }

    private static VersionChange readVersionChange(CodecReader reader) {
        int tag = reader.readByte();
        return switch (tag) {
            case SET_TAGS -> new VersionChange.SetTags(reader.readMap());
            case SET_ACL -> new VersionChange.SetAcl(reader.readNullableString());
            case SET_LEGAL_HOLD -> new VersionChange.SetLegalHold(reader.readBoolean());
            case SET_RETENTION -> {
                int modeTag = reader.readByte();
                RetentionMode mode = switch (modeTag) {
                    case NO_RETENTION -> null;
                    case GOVERNANCE -> RetentionMode.GOVERNANCE;
                    case COMPLIANCE -> RetentionMode.COMPLIANCE;
                    default -> throw reader.invalid("unknown retention mode " + modeTag);
                };
                Instant retainUntil = mode == null ? null : reader.readInstant();
                yield new VersionChange.SetRetention(mode, retainUntil, reader.readInstant(), reader.readBoolean());
            }
            default -> throw reader.invalid("unknown version change tag " + tag);
        };
    }

    private static void writeAccessKeyChange(CodecWriter writer, AccessKeyChange change, int depth) {
        switch (change) {
            case AccessKeyChange.SetBucketPermission set -> {
                writer.writeByte(SET_BUCKET_PERMISSION);
                writer.writeString(set.bucket());
                BucketPermission permission = set.permission();
                writer.writeBoolean(permission != null);
                if (permission != null) {
                    writer.writeByte((permission.read() ? READ : 0) | (permission.write() ? WRITE : 0)
                            | (permission.owner() ? OWNER : 0));
                }
            }
            case AccessKeyChange.SetCreateBuckets set -> {
                writer.writeByte(SET_CREATE_BUCKETS);
                writer.writeBoolean(set.allowed());
            }
            case AccessKeyChange.ReplaceSecret replace -> {
                writer.writeByte(REPLACE_SECRET);
                writer.writeString(replace.expected());
                writer.writeString(replace.secret());
            }
            case AccessKeyChange.All all -> {
                if (depth > MAX_NESTING) {
                    throw new IllegalArgumentException("access key changes nest deeper than " + MAX_NESTING);
                }
                writer.writeByte(ALL);
                writer.writeVarLong(all.changes().size());
                for (AccessKeyChange each : all.changes()) {
                    writeAccessKeyChange(writer, each, depth + 1);
                }
            }
        }
    }

    private static AccessKeyChange readAccessKeyChange(CodecReader reader, int depth) {
        int tag = reader.readByte();
        return switch (tag) {
            case SET_BUCKET_PERMISSION -> {
                String bucket = reader.readString();
                BucketPermission permission = null;
                if (reader.readBoolean()) {
                    int flags = reader.readByte();
                    if ((flags & ~(READ | WRITE | OWNER)) != 0) {
                        throw reader.invalid("unknown permission flags " + flags);
                    }
                    permission = new BucketPermission((flags & READ) != 0, (flags & WRITE) != 0, (flags & OWNER) != 0);
                }
                yield new AccessKeyChange.SetBucketPermission(bucket, permission);
            }
            case SET_CREATE_BUCKETS -> new AccessKeyChange.SetCreateBuckets(reader.readBoolean());
            case REPLACE_SECRET -> new AccessKeyChange.ReplaceSecret(reader.readString(), reader.readString());
            case ALL -> {
                if (depth > MAX_NESTING) {
                    throw reader.invalid("access key changes nest deeper than " + MAX_NESTING);
                }
                int count = reader.readCount();
                List<AccessKeyChange> changes = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    changes.add(readAccessKeyChange(reader, depth + 1));
                }
                yield new AccessKeyChange.All(changes);
            }
            default -> throw reader.invalid("unknown access key change tag " + tag);
        };
    }
}
