package dev.hangar.metadata.query;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.blockstore.BlockId;
import dev.hangar.blockstore.BlockRef;
import dev.hangar.metadata.AccessKey;
import dev.hangar.metadata.BucketPermission;
import dev.hangar.metadata.BucketRecord;
import dev.hangar.metadata.Checksum;
import dev.hangar.metadata.ListQuery;
import dev.hangar.metadata.ListedVersion;
import dev.hangar.metadata.MultipartUpload;
import dev.hangar.metadata.ObjectContent;
import dev.hangar.metadata.ObjectListing;
import dev.hangar.metadata.ObjectVersion;
import dev.hangar.metadata.Part;
import dev.hangar.metadata.PartListing;
import dev.hangar.metadata.ServiceConfigNames;
import dev.hangar.metadata.UploadListing;
import dev.hangar.metadata.VersionListing;
import dev.hangar.metadata.VersionQuery;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bytes of format 1, written down: a change of the encoding fails here, on purpose.
 *
 * <p>If encoding fails but decoding passes, the encoder changed: that needs a new format (see
 * {@link QueryCodec}), and members of the previous release must still be answered in the old one
 * until every member runs the new release. If decoding fails, members of different releases can no
 * longer read each other: fix the decoder, not the bytes. The records inside are {@code
 * RecordFormat} bodies; when that format moves on, keep these bytes in the decoding test and add the
 * new ones beside them.
 */
class QueryCodecGoldenTest {
    private static final Instant WHEN = Instant.parse("2026-03-04T05:06:07.123456789Z");
    private static final BlockRef BLOCK = new BlockRef(new BlockId("ffeeddccbbaa99887766554433221100"), 1_048_576,
            0x0BADF00D);
    private static final ObjectVersion CAT = new ObjectVersion("photos", "cats/ünï.jpg", "v2", WHEN, 1_048_576,
            "\"c4t\"", new ObjectContent.Blocks(List.of(BLOCK)), Map.of("content-type", "image/jpeg"), Map.of(),
            new Checksum("CRC32", "AAAAAA=="), List.of());
    private static final ObjectVersion MARKER = new ObjectVersion("photos", "cats/ünï.jpg", "v3", WHEN, 0, "\"\"",
            new ObjectContent.DeleteMarker(), Map.of(), Map.of(), null, List.of());
    private static final MultipartUpload UPLOAD = new MultipartUpload("photos", "日本/big.iso", "u7", WHEN, Map.of(),
            Map.of("camera", "x100"), null);
    private static final Part PART = new Part("u7", 2, WHEN, 1_048_576, "\"p2\"", List.of(BLOCK), null);

    private static Stream<Arguments> queries() {
        return Stream.of(
                golden(new ReadQuery.GetBucket("photos"), "01010670686f746f73"),
                golden(new ReadQuery.ListBuckets(), "0102"),
                golden(new ReadQuery.GetObject("photos", "cats/ünï.jpg"),
                        "01030670686f746f730e636174732fc3bc6ec3af2e6a7067"),
                golden(new ReadQuery.GetVersion("photos", "cats/ünï.jpg", "null"),
                        "01040670686f746f730e636174732fc3bc6ec3af2e6a7067046e756c6c"),
                golden(new ReadQuery.ListObjects("photos", new ListQuery("cats/", "/", null, 1000)),
                        "01050670686f746f7305636174732f01012f00d00f"),
                golden(new ReadQuery.ListVersions("photos", new VersionQuery("", null, "cats/ünï.jpg", "v2", 2)),
                        "01060670686f746f730000010e636174732fc3bc6ec3af2e6a70670102763204"),
                golden(new ReadQuery.GetUpload("photos", "日本/big.iso", "u7"),
                        "01070670686f746f730ee697a5e69cac2f6269672e69736f027537"),
                golden(new ReadQuery.GetPart("u7", 10_000), "0108027537a09c01"),
                golden(new ReadQuery.ListParts("u7", -1, Integer.MAX_VALUE), "010902753701feffffff0f"),
                golden(new ReadQuery.ListUploads("photos", "", "/", "日本/big.iso", null, 1000),
                        "010a0670686f746f730001012f010ee697a5e69cac2f6269672e69736f00d00f"),
                golden(new ReadQuery.GetBucketConfig("photos", "versioning"),
                        "010b0670686f746f730a76657273696f6e696e67"),
                golden(new ReadQuery.GetAccessKey("GK1"), "010c03474b31"),
                golden(new ReadQuery.ListAccessKeys(), "010d"),
                golden(new ReadQuery.GetServiceConfig("kms-key", "key-1"), "010e076b6d732d6b6579056b65792d31"),
                golden(new ReadQuery.ListServiceConfigs("kms-key"), "010f076b6d732d6b6579"));
    }

    private static Stream<Arguments> results() {
        return Stream.of(
                golden(new ReadQuery.GetBucket("photos"),
                        Optional.of(new BucketRecord("photos", WHEN, "eu-west-3")),
                        "0101010670686f746f731401fef6bd9a0d959aef3a0965752d776573742d33"),
                golden(new ReadQuery.GetObject("photos", "dog.jpg"), Optional.empty(), "010300"),
                golden(new ReadQuery.ListObjects("photos", new ListQuery("", "/", null, 2)),
                        new ObjectListing(List.of(CAT), List.of("dogs/"), true, "dogs/"),
                        "0105010670686f746f730e636174732fc3bc6ec3af2e6a70675e02027632fef6bd9a0d959aef3a80"
                                + "80400522633474220101ffeeddccbbaa998877665544332211008080400badf00d010c636f6e7465"
                                + "6e742d747970650a696d6167652f6a7065670001054352433332084141414141413d3d0000000000"
                                + "0105646f67732f010105646f67732f"),
                golden(new ReadQuery.ListVersions("photos", new VersionQuery("cats/", null, null, null, 10)),
                        new VersionListing(List.of(new ListedVersion(MARKER, true), new ListedVersion(CAT, false)),
                                List.of(), false, null, null),
                        "0106020670686f746f730e636174732fc3bc6ec3af2e6a70671a02027633fef6bd9a0d959aef3a00"
                                + "022222020000000000000000010670686f746f730e636174732fc3bc6ec3af2e6a70675e02027632"
                                + "fef6bd9a0d959aef3a8080400522633474220101ffeeddccbbaa998877665544332211008080400b"
                                + "adf00d010c636f6e74656e742d747970650a696d6167652f6a706567000105435243333208414141"
                                + "4141413d3d00000000000000000000"),
                golden(new ReadQuery.GetPart("u7", 2),
                        Optional.of(PART),
                        "010801022b01fef6bd9a0d959aef3a808040042270322201ffeeddccbbaa99887766554433221100"
                                + "8080400badf00d00"),
                golden(new ReadQuery.ListParts("u7", 1, 1),
                        new PartListing(List.of(PART), true, 2),
                        "010901022b01fef6bd9a0d959aef3a808040042270322201ffeeddccbbaa99887766554433221100"
                                + "8080400badf00d000104"),
                golden(new ReadQuery.ListUploads("photos", "", null, null, null, 1),
                        new UploadListing(List.of(UPLOAD), List.of(), true, "日本/big.iso", "u7"),
                        "010a010670686f746f730ee697a5e69cac2f6269672e69736f0275371901fef6bd9a0d959aef3a00"
                                + "010663616d6572610478313030000001010ee697a5e69cac2f6269672e69736f01027537"),
                golden(new ReadQuery.GetBucketConfig("photos", "versioning"),
                        Optional.of("<Status>Enabled</Status>".getBytes(UTF_8)),
                        "010b01183c5374617475733e456e61626c65643c2f5374617475733e"),
                golden(new ReadQuery.GetServiceConfig("kms-key", "key-1"), Optional.of(new byte[] {7}), "010e010107"),
                golden(new ReadQuery.ListServiceConfigs("kms-key"), documents(), "010f0201610101016200"),
                golden(new ReadQuery.ListAccessKeys(),
                        List.of(new AccessKey("GK1", "sealed:root", WHEN),
                                new AccessKey("GK2", "sealed:two", WHEN, false,
                                        Map.of("photos", new BucketPermission(true, false, false)))),
                        "010d0203474b3118020b7365616c65643a726f6f74fef6bd9a0d959aef3a010003474b321f020a73"
                                + "65616c65643a74776ffef6bd9a0d959aef3a00010670686f746f7301"));
    }

    static Stream<Arguments> encodings() {
        return Stream.concat(queries(), results());
    }

    @ParameterizedTest
    @MethodSource("encodings")
    void encodesAsFormatOneDid(Object value, Side side, String hex) {
        assertThat(HexFormat.of().formatHex(side.encode(value))).isEqualTo(hex);
    }

    @ParameterizedTest
    @MethodSource("encodings")
    void decodesWhatFormatOneWrote(Object value, Side side, String hex) {
        Object decoded = side.decode(HexFormat.of().parseHex(hex));

        assertThat(RandomQueries.comparable(decoded)).isEqualTo(RandomQueries.comparable(value));
    }

    /** Two documents, the second empty, put out of order: the bytes hold them in name order. */
    private static SortedMap<String, byte[]> documents() {
        SortedMap<String, byte[]> documents = ServiceConfigNames.newListing();
        documents.put("b", new byte[0]);
        documents.put("a", new byte[] {1});
        return documents;
    }

    private static Arguments golden(ReadQuery<?> query, String hex) {
        return Arguments.argumentSet(query.getClass().getSimpleName(), query, Side.QUERIES, hex);
    }

    private static <T> Arguments golden(ReadQuery<T> query, T result, String hex) {
        return Arguments.argumentSet(query.getClass().getSimpleName() + " result", result, Side.results(query), hex);
    }
}
