package dev.hangar.metadata.command;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.Refusal;
import java.util.Optional;

/**
 * The binary encoding of the {@link Outcome} of a command: the answer that travels back from the
 * node that applied it. The bytes do not say which result type they hold; the command they answer
 * does, so both ends name it.
 *
 * <p>Format 1, in the conventions of {@link CommandCodec}: a format byte ({@code 1}), then
 *
 * <ul>
 *   <li>0 {@code Done}, then the value: for a {@code Boolean} result one boolean byte; for an
 *       {@code Optional<ObjectVersion>} a presence boolean, then the version (bucket, key, body);
 *       for an {@code Optional<AccessKey>} a presence boolean, then the key (accessKeyId, body)
 *   <li>1 {@code Refused}, then the refusal as one byte (0 NO_SUCH_BUCKET, 1 BUCKET_NOT_EMPTY, 2
 *       PRECONDITION_FAILED, 3 NO_SUCH_UPLOAD, 4 PARTS_CHANGED, 5 OBJECT_LOCKED, 6 CONFLICT), and
 *       the message
 * </ul>
 *
 * It evolves by {@link CommandCodec}'s rule: a new refusal takes the next free number, and an
 * older reader refuses it as unknown.
 */
public final class OutcomeCodec {
    static final int FORMAT_1 = 1;

    private static final int DONE = 0;
    private static final int REFUSED = 1;

    private OutcomeCodec() {}

    /** What a command gives when it is done: fixed by its record's declaration. */
    private enum Result {
        FLAG,
        VERSION,
        ACCESS_KEY;

        static Result of(MetadataCommand<?> command) {
            return switch (command) {
                case MetadataCommand.CreateBucket c -> FLAG;
                case MetadataCommand.DeleteBucket c -> FLAG;
                case MetadataCommand.PutBucketConfig c -> FLAG;
                case MetadataCommand.DeleteBucketConfig c -> FLAG;
                case MetadataCommand.PutVersion c -> VERSION;
                case MetadataCommand.DeleteVersion c -> VERSION;
                case MetadataCommand.ChangeVersion c -> VERSION;
                case MetadataCommand.CreateUpload c -> FLAG;
                case MetadataCommand.PutPart c -> FLAG;
                case MetadataCommand.CompleteUpload c -> VERSION;
                case MetadataCommand.AbortUpload c -> FLAG;
                case MetadataCommand.PutAccessKey c -> FLAG;
                case MetadataCommand.DeleteAccessKey c -> FLAG;
                case MetadataCommand.ChangeAccessKey c -> ACCESS_KEY;
                case MetadataCommand.PutServiceConfig c -> FLAG;
                case MetadataCommand.DeleteServiceConfig c -> FLAG;
            };
        }
    }

    /**
     * The bytes of {@code outcome}, an outcome of {@code command}.
     *
     * @throws IllegalArgumentException if a {@code Done} holds a value of another type than the
     *     command's result (possible through raw or unchecked types only)
     */
    public static <R> byte[] encode(MetadataCommand<R> command, Outcome<R> outcome) {
        CodecWriter writer = new CodecWriter();
        writer.writeByte(FORMAT_1);
        switch (outcome) {
            case Outcome.Done<R> done -> {
                writer.writeByte(DONE);
                writeValue(writer, Result.of(command), done.value(), command);
            }
            case Outcome.Refused<R> refused -> {
                writer.writeByte(REFUSED);
                writer.writeByte(code(refused.reason()));
                writer.writeString(refused.message());
            }
        }
        return writer.toByteArray();
    }

    /**
     * The outcome of {@code command} that {@code bytes} encode.
     *
     * @throws IllegalArgumentException if they are not an outcome this release can read
     */
    public static <R> Outcome<R> decode(MetadataCommand<R> command, byte[] bytes) {
        return CodecReader.read(bytes, "outcome", FORMAT_1, reader -> {
            int tag = reader.readByte();
            return switch (tag) {
                case DONE -> Outcome.done(readValue(reader, Result.of(command)));
                case REFUSED -> Outcome.refused(refusal(reader), reader.readString());
                default -> throw reader.invalid("unknown outcome tag " + tag);
            };
        });
    }

    private static void writeValue(CodecWriter writer, Result result, Object value, MetadataCommand<?> command) {
        switch (result) {
            case FLAG -> {
                if (!(value instanceof Boolean flag)) {
                    throw wrongValue(command, "Boolean", value);
                }
                writer.writeBoolean(flag);
            }
            case VERSION -> {
                if (!(value instanceof Optional<?> optional)
                        || !optional.map(ObjectVersion.class::isInstance).orElse(true)) {
                    throw wrongValue(command, "Optional<ObjectVersion>", value);
                }
                writer.writeBoolean(optional.isPresent());
                optional.ifPresent(version -> writer.writeVersion((ObjectVersion) version));
            }
            case ACCESS_KEY -> {
                if (!(value instanceof Optional<?> optional)
                        || !optional.map(AccessKey.class::isInstance).orElse(true)) {
                    throw wrongValue(command, "Optional<AccessKey>", value);
                }
                writer.writeBoolean(optional.isPresent());
                optional.ifPresent(key -> writer.writeAccessKey((AccessKey) key));
            }
        }
    }

    @SuppressWarnings("unchecked") // Result.of(command) names the type R of the command's record.
    private static <R> R readValue(CodecReader reader, Result result) {
        Object value = switch (result) {
            case FLAG -> reader.readBoolean();
            case VERSION -> reader.readBoolean() ? Optional.of(reader.readVersion()) : Optional.empty();
            case ACCESS_KEY -> reader.readBoolean() ? Optional.of(reader.readAccessKey()) : Optional.empty();
        };
        return (R) value;
    }

    private static IllegalArgumentException wrongValue(MetadataCommand<?> command, String expected, Object value) {
        return new IllegalArgumentException("a " + command.getClass().getSimpleName() + " gives a " + expected
                + ", not a " + value.getClass().getName());
    }

    private static int code(Refusal reason) {
        return switch (reason) {
            case NO_SUCH_BUCKET -> 0;
            case BUCKET_NOT_EMPTY -> 1;
            case PRECONDITION_FAILED -> 2;
            case NO_SUCH_UPLOAD -> 3;
            case PARTS_CHANGED -> 4;
            case OBJECT_LOCKED -> 5;
            case CONFLICT -> 6;
        };
    }

    private static Refusal refusal(CodecReader reader) {
        int code = reader.readByte();
        return switch (code) {
            case 0 -> Refusal.NO_SUCH_BUCKET;
            case 1 -> Refusal.BUCKET_NOT_EMPTY;
            case 2 -> Refusal.PRECONDITION_FAILED;
            case 3 -> Refusal.NO_SUCH_UPLOAD;
            case 4 -> Refusal.PARTS_CHANGED;
            case 5 -> Refusal.OBJECT_LOCKED;
            case 6 -> Refusal.CONFLICT;
            default -> throw reader.invalid("unknown refusal " + code + " (a later release wrote it?)");
        };
    }
}
