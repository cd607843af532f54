package dev.hangar.metadata.command;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bytes of format 1, written down: a change of the encoding fails here, on purpose.
 *
 * <p>If encoding fails but decoding passes, the encoder changed: that needs a new format (see
 * {@link CommandCodec}'s compatibility rule), and these bytes stay, to be decoded forever. The
 * same holds when {@link dev.hangar.metadata.rocksdb.RecordFormat} moves a record kind to a new
 * format: keep these bytes in the decoding test, and add the new ones beside them. If decoding
 * fails, entries already in logs can no longer be read: fix the decoder, not the bytes.
 */
class CommandCodecGoldenTest {
    private static final Instant WHEN = Instant.parse("2026-03-04T05:06:07.123456789Z");
    private static final Instant LATER = Instant.parse("2030-01-01T00:00:00Z");
    private static final BlockRef BLOCK = new BlockRef(new BlockId("00112233445566778899aabbccddeeff"), 5_242_880,
            0xCAFEBABE);
    private static final MultipartUpload UPLOAD = new MultipartUpload("photos", "big.iso", "u1", WHEN,
            Map.of("content-type", "application/octet-stream"), Map.of(), "SHA256");
    private static final ObjectVersion INLINE = new ObjectVersion("photos", "ünï/日本.txt", "v1", WHEN, 5,
            "\"abc\"", new ObjectContent.Inline("hello".getBytes(UTF_8)), Map.of("content-type", "text/plain"),
            Map.of("author", "zoë"), null, List.of(), Map.of("project", "hangar"),
            new ObjectLock(RetentionMode.GOVERNANCE, LATER, true), "public-read", "GK1");
    private static final ObjectVersion COMPLETED = new ObjectVersion("photos", "big.iso", "null", WHEN, 5_242_880,
            "\"d41d8cd98f00b204e9800998ecf8427e-1\"", new ObjectContent.Blocks(List.of(BLOCK)), Map.of(), Map.of(),
            new Checksum("SHA256", "abc=-1"), List.of(5_242_880L));
    private static final AccessKey KEY = new AccessKey("GK1", "sealed:secret", WHEN, false,
            Map.of("photos", new BucketPermission(true, true, false)), true);

    static Stream<Arguments> commands() {
        return Stream.of(
                golden(new MetadataCommand.CreateBucket(new BucketRecord("photos", WHEN, "eu-west-3")),
                        "01010670686f746f731401fef6bd9a0d959aef3a0965752d776573742d33"),
                golden(new MetadataCommand.DeleteBucket("photos"),
                        "01020670686f746f73"),
                golden(new MetadataCommand.PutBucketConfig("photos", "versioning",
                        "<Status>Enabled</Status>".getBytes(UTF_8)),
                        "01030670686f746f730a76657273696f6e696e67183c5374617475733e456e61626c65643c2f5374"
                                + "617475733e"),
                golden(new MetadataCommand.DeleteBucketConfig("photos", "cors"),
                        "01040670686f746f7304636f7273"),
                golden(new MetadataCommand.PutVersion(INLINE, new Precondition.IfEtagMatches("\"abc\""),
                        LockCheck.NONE),
                        "01050670686f746f7310c3bc6ec3af2fe697a5e69cac2e7478746e02027631fef6bd9a0d959aef3a"
                                + "05052261626322000568656c6c6f010c636f6e74656e742d747970650a746578742f706c61696e01"
                                + "06617574686f72047a6fc3ab0000010770726f6a6563740668616e676172010180e2de8d0e000101"
                                + "0b7075626c69632d726561640103474b31020522616263220000"),
                golden(new MetadataCommand.PutVersion(INLINE.withVersionId("null"), new Precondition.None(),
                        LockCheck.at(WHEN, false)),
                        "01050670686f746f7310c3bc6ec3af2fe697a5e69cac2e7478747002046e756c6cfef6bd9a0d959a"
                                + "ef3a05052261626322000568656c6c6f010c636f6e74656e742d747970650a746578742f706c6169"
                                + "6e0106617574686f72047a6fc3ab0000010770726f6a6563740668616e676172010180e2de8d0e00"
                                + "01010b7075626c69632d726561640103474b310001fef6bd9a0d959aef3a00"),
                golden(new MetadataCommand.DeleteVersion("photos", "cat.txt", "null", LockCheck.at(WHEN, true),
                        new VersionMatch(WHEN, "\"abc\"", false)),
                        "01060670686f746f73076361742e747874046e756c6c01fef6bd9a0d959aef3a0101fef6bd9a0d95"
                                + "9aef3a05226162632200"),
                golden(new MetadataCommand.DeleteVersion("photos", "cat.txt", "v2", LockCheck.NONE, null),
                        "01060670686f746f73076361742e747874027632000000"),
                golden(new MetadataCommand.ChangeVersion("photos", "cat.txt", "v1",
                        new VersionChange.SetTags(Map.of("b", "2", "a", "1"))),
                        "01070670686f746f73076361742e74787402763100020161013101620132"),
                golden(new MetadataCommand.ChangeVersion("photos", "cat.txt", "v1",
                        new VersionChange.SetAcl(null)),
                        "01070670686f746f73076361742e7478740276310100"),
                golden(new MetadataCommand.ChangeVersion("photos", "cat.txt", "v1",
                        new VersionChange.SetLegalHold(true)),
                        "01070670686f746f73076361742e7478740276310201"),
                golden(new MetadataCommand.ChangeVersion("photos", "cat.txt", "v1",
                        new VersionChange.SetRetention(RetentionMode.COMPLIANCE, LATER, WHEN, false)),
                        "01070670686f746f73076361742e747874027631030280e2de8d0e00fef6bd9a0d959aef3a00"),
                golden(new MetadataCommand.ChangeVersion("photos", "cat.txt", "v1",
                        new VersionChange.SetRetention(null, null, WHEN, true)),
                        "01070670686f746f73076361742e7478740276310300fef6bd9a0d959aef3a01"),
                golden(new MetadataCommand.CreateUpload(UPLOAD),
                        "01080670686f746f73076269672e69736f0275313a01fef6bd9a0d959aef3a010c636f6e74656e74"
                                + "2d74797065186170706c69636174696f6e2f6f637465742d73747265616d000106534841323536"),
                golden(new MetadataCommand.PutPart(UPLOAD,
                        new Part("u1", 1, WHEN, 5_242_880, "\"p1\"", List.of(BLOCK), null)),
                        "01090670686f746f73076269672e69736f0275313a01fef6bd9a0d959aef3a010c636f6e74656e74"
                                + "2d74797065186170706c69636174696f6e2f6f637465742d73747265616d00010653484132353601"
                                + "2d01fef6bd9a0d959aef3a8080c00204227031220100112233445566778899aabbccddeeff8080c0"
                                + "02cafebabe00"),
                golden(new MetadataCommand.CompleteUpload(UPLOAD, COMPLETED, new Precondition.IfAbsent()),
                        "010a0670686f746f73076269672e69736f0275313a01fef6bd9a0d959aef3a010c636f6e74656e74"
                                + "2d74797065186170706c69636174696f6e2f6f637465742d73747265616d0001065348413235366c"
                                + "02046e756c6cfef6bd9a0d959aef3a8080c002242264343164386364393866303062323034653938"
                                + "303039393865636638343237652d3122010100112233445566778899aabbccddeeff8080c002cafe"
                                + "babe00000106534841323536066162633d2d31018080c0020000000001"),
                golden(new MetadataCommand.AbortUpload(UPLOAD),
                        "010b0670686f746f73076269672e69736f0275313a01fef6bd9a0d959aef3a010c636f6e74656e74"
                                + "2d74797065186170706c69636174696f6e2f6f637465742d73747265616d000106534841323536"),
                golden(new MetadataCommand.PutAccessKey(KEY),
                        "010c03474b3123030d7365616c65643a736563726574fef6bd9a0d959aef3a00010670686f746f73"
                                + "0301"),
                golden(new MetadataCommand.DeleteAccessKey("GK1"),
                        "010d03474b31"),
                golden(new MetadataCommand.ChangeAccessKey("GK1", new AccessKeyChange.All(List.of(
                        new AccessKeyChange.SetBucketPermission("photos", new BucketPermission(true, false, true)),
                        new AccessKeyChange.SetBucketPermission("old", null),
                        new AccessKeyChange.SetCreateBuckets(false),
                        new AccessKeyChange.ReplaceSecret("plain", "sealed:x")))),
                        "010e03474b310304000670686f746f73010500036f6c640001000205706c61696e087365616c6564"
                                + "3a78"),
                golden(new MetadataCommand.PutServiceConfig("kms-key", "key-1", new byte[] {1, 2, 3}),
                        "010f076b6d732d6b6579056b65792d3103010203"),
                golden(new MetadataCommand.DeleteServiceConfig("kms-key", "key-1"),
                        "0110076b6d732d6b6579056b65792d31"));
    }

    static Stream<Arguments> outcomes() {
        return Stream.of(
                golden(new MetadataCommand.DeleteBucket("photos"), Outcome.done(true),
                        "010001"),
                golden(new MetadataCommand.DeleteVersion("photos", INLINE.key(), "v1", LockCheck.NONE, null),
                        Outcome.done(Optional.of(INLINE)),
                        "0100010670686f746f7310c3bc6ec3af2fe697a5e69cac2e7478746e02027631fef6bd9a0d959aef"
                                + "3a05052261626322000568656c6c6f010c636f6e74656e742d747970650a746578742f706c61696e"
                                + "0106617574686f72047a6fc3ab0000010770726f6a6563740668616e676172010180e2de8d0e0001"
                                + "010b7075626c69632d726561640103474b31"),
                golden(new MetadataCommand.DeleteVersion("photos", "cat.txt", "v1", LockCheck.NONE, null),
                        Outcome.done(Optional.empty()),
                        "010000"),
                golden(new MetadataCommand.ChangeAccessKey("GK1", new AccessKeyChange.SetCreateBuckets(true)),
                        Outcome.done(Optional.of(KEY)),
                        "01000103474b3123030d7365616c65643a736563726574fef6bd9a0d959aef3a00010670686f746f"
                                + "730301"),
                golden(new MetadataCommand.DeleteServiceConfig("kms-key", "key-1"), Outcome.done(false),
                        "010000"),
                golden(new MetadataCommand.PutVersion(COMPLETED, new Precondition.IfAbsent(), LockCheck.NONE),
                        Outcome.refused(Refusal.PRECONDITION_FAILED, "At least one of the pre-conditions you specified"
                                + " did not hold"),
                        "0101023d4174206c65617374206f6e65206f6620746865207072652d636f6e646974696f6e732079"
                                + "6f752073706563696669656420646964206e6f7420686f6c64"));
    }

    @ParameterizedTest
    @MethodSource("commands")
    void encodesAsFormatOneDid(MetadataCommand<?> command, String hex) {
        assertThat(HexFormat.of().formatHex(CommandCodec.encode(command))).isEqualTo(hex);
    }

    @ParameterizedTest
    @MethodSource("commands")
    void decodesWhatFormatOneWrote(MetadataCommand<?> command, String hex) {
        assertThat(CommandCodec.decode(HexFormat.of().parseHex(hex))).isEqualTo(command);
    }

    @ParameterizedTest
    @MethodSource("outcomes")
    <R> void encodesOutcomesAsFormatOneDid(MetadataCommand<R> command, Outcome<R> outcome, String hex) {
        assertThat(HexFormat.of().formatHex(OutcomeCodec.encode(command, outcome))).isEqualTo(hex);
    }

    @ParameterizedTest
    @MethodSource("outcomes")
    <R> void decodesOutcomesFormatOneWrote(MetadataCommand<R> command, Outcome<R> outcome, String hex) {
        assertThat(OutcomeCodec.decode(command, HexFormat.of().parseHex(hex))).isEqualTo(outcome);
    }

    private static Arguments golden(MetadataCommand<?> command, String hex) {
        return Arguments.argumentSet(command.getClass().getSimpleName(), command, hex);
    }

    private static <R> Arguments golden(MetadataCommand<R> command, Outcome<R> outcome, String hex) {
        return Arguments.argumentSet(command.getClass().getSimpleName() + " " + outcome.getClass().getSimpleName(),
                command, outcome, hex);
    }
}
