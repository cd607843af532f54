package dev.hangar.metadata.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.state.Outcome;
import dev.hangar.metadata.state.Refusal;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The refusals of {@link CommandCodec} and {@link OutcomeCodec}, case by case. */
class CommandCodecTest {
    private static final Instant WHEN = Instant.parse("2026-03-04T05:06:07.123456789Z");
    private static final MetadataCommand.DeleteBucket DELETE_PHOTOS = new MetadataCommand.DeleteBucket("photos");

    @Test
    void emptyBytesAreTruncated() {
        assertThatThrownBy(() -> CommandCodec.decode(new byte[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid encoded command: truncated at offset 0");
    }

    @Test
    void aFormatThisReleaseDoesNotKnowIsRefused() {
        for (int format : List.of(0, 2, 255)) {
            byte[] bytes = CommandCodec.encode(DELETE_PHOTOS);
            bytes[0] = (byte) format;

            assertThatThrownBy(() -> CommandCodec.decode(bytes))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown format " + format);
        }
    }

    @Test
    void anUnknownCommandTagIsRefused() {
        for (int tag : List.of(0, 17, 255)) {
            assertThatThrownBy(() -> CommandCodec.decode(hex("01" + "%02x".formatted(tag) + "0170")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown command tag " + tag);
        }
    }

    @Test
    void trailingBytesAreRefused() {
        byte[] bytes = CommandCodec.encode(DELETE_PHOTOS);
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);

        assertThatThrownBy(() -> CommandCodec.decode(longer))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid encoded command: 1 trailing bytes at offset " + bytes.length);
    }

    /** A length of 2^32 - 1 before a handful of bytes: refused before anything is allocated. */
    @Test
    void aLengthBeyondTheBytesLeftIsRefusedWithoutAllocating() {
        assertThatThrownBy(() -> CommandCodec.decode(hex("0103" + "0162" + "0163" + "ffffffff0f" + "00")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("length or count 4294967295 exceeds the 1 bytes left");
        assertThatThrownBy(() -> CommandCodec.decode(hex("0102" + "ffffffffffffffffff01")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("length or count 18446744073709551615 exceeds");
        assertThatThrownBy(() -> CommandCodec.decode(hex("0102" + "8080808080808080808000")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("varint longer than 64 bits");
    }

    @Test
    void malformedUtf8IsRefused() {
        assertThatThrownBy(() -> CommandCodec.decode(hex("0102" + "02c328")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("malformed UTF-8 at offset 3");
    }

    @Test
    void aStringWithAnUnpairedSurrogateCannotBeEncoded() {
        assertThatThrownBy(() -> CommandCodec.encode(new MetadataCommand.DeleteBucket("a\uD800b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired surrogate at index 1");
        assertThatThrownBy(() -> CommandCodec.encode(new MetadataCommand.DeleteBucket("\uDC00")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(CommandCodec.decode(CommandCodec.encode(new MetadataCommand.DeleteBucket("𝄞"))))
                .isEqualTo(new MetadataCommand.DeleteBucket("𝄞"));
    }

    /** A record constructor's refusal of the fields read is reported as the codec's own. */
    @Test
    void fieldsThatNoCommandHasAreRefused() {
        // DeleteVersion "b" "k" "v", then a lock check with no instant but a governance bypass.
        assertThatThrownBy(() -> CommandCodec.decode(hex("0106" + "0162" + "016b" + "0176" + "00" + "01" + "00")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid encoded command: a bypass needs an instant to judge retention at");
    }

    @Test
    void accessKeyChangesNestSixteenDeep() {
        MetadataCommand.ChangeAccessKey deepest = new MetadataCommand.ChangeAccessKey("GK1", nested(16));
        MetadataCommand.ChangeAccessKey tooDeep = new MetadataCommand.ChangeAccessKey("GK1", nested(17));

        assertThat(CommandCodec.decode(CommandCodec.encode(deepest))).isEqualTo(deepest);
        assertThatThrownBy(() -> CommandCodec.encode(tooDeep))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nest deeper than 16");
    }

    /** Bytes cannot make the decoder recurse without bound: 100,000 nested Alls are refused, not a stack overflow. */
    @Test
    void deeplyNestedBytesAreRefused() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(hex("010e" + "03474b31"));
        for (int i = 0; i < 100_000; i++) {
            bytes.writeBytes(hex("0301"));
        }
        bytes.writeBytes(hex("0101"));

        assertThatThrownBy(() -> CommandCodec.decode(bytes.toByteArray()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nest deeper than 16");
    }

    @Test
    void aCorruptRecordBodyIsTheCodecsRefusal() {
        // CreateBucket "b" with a body in record format 9.
        assertThatThrownBy(() -> CommandCodec.decode(hex("0101" + "0162" + "0109")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid encoded command: bucket record: unknown metadata format version 9");
    }

    @Test
    void anOutcomeOfAnotherTypeThanTheCommandsCannotBeEncoded() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Outcome<Boolean> wrong = (Outcome) Outcome.done(Optional.empty());

        assertThatThrownBy(() -> OutcomeCodec.encode(DELETE_PHOTOS, wrong))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a DeleteBucket gives a Boolean, not a java.util.Optional");
    }

    @Test
    void anOptionalOfTheWrongRecordCannotBeEncoded() {
        MetadataCommand.ChangeAccessKey change =
                new MetadataCommand.ChangeAccessKey("GK1", new AccessKeyChange.SetCreateBuckets(true));
        ObjectVersion version = new ObjectVersion("b", "k", "v", WHEN, 0, "\"\"", new ObjectContent.DeleteMarker(),
                Map.of(), Map.of(), null, List.of());
        @SuppressWarnings({"unchecked", "rawtypes"})
        Outcome<Optional<AccessKey>> wrong = (Outcome) Outcome.done(Optional.of(version));

        assertThatThrownBy(() -> OutcomeCodec.encode(change, wrong))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gives a Optional<AccessKey>");
    }

    @Test
    void anUnknownRefusalIsRefused() {
        assertThat(OutcomeCodec.decode(DELETE_PHOTOS, hex("0101" + "06" + "00")))
                .isEqualTo(Outcome.refused(Refusal.CONFLICT, ""));
        assertThatThrownBy(() -> OutcomeCodec.decode(DELETE_PHOTOS, hex("0101" + "07" + "00")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid encoded outcome: unknown refusal 7");
    }

    @Test
    void anUnknownOutcomeTagOrFormatIsRefused() {
        assertThatThrownBy(() -> OutcomeCodec.decode(DELETE_PHOTOS, hex("0102")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid encoded outcome: unknown outcome tag 2");
        assertThatThrownBy(() -> OutcomeCodec.decode(DELETE_PHOTOS, hex("020001")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown format 2");
    }

    private static AccessKeyChange nested(int depth) {
        AccessKeyChange change = new AccessKeyChange.SetCreateBuckets(true);
        for (int i = 0; i < depth; i++) {
            change = new AccessKeyChange.All(List.of(change));
        }
        return change;
    }

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
