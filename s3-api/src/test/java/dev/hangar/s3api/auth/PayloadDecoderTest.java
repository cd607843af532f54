package dev.hangar.s3api.auth;

import static dev.hangar.s3api.auth.S3Assertions.assertPayloadError;
import static dev.hangar.s3api.auth.S3Assertions.assertS3Error;
import static dev.hangar.s3api.auth.SdkRequests.verifier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hangar.metadata.Checksum;
import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.auth.SdkRequests.Signed;
import dev.hangar.s3api.checksum.ChecksumAlgorithm;
import dev.hangar.s3api.checksum.ChecksumHasher;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;

class PayloadDecoderTest {
    /** The chunk size of the SDK's aws-chunked signer. */
    private static final int SDK_CHUNK = 128 * 1024;
    private static final PayloadDecoder DECODER = new PayloadDecoder();

    /** One way the SDK can send a PUT, with the payload mode it must produce. */
    record Upload(String name, PayloadMode mode, UnaryOperator<SdkRequests> configure) {
        Signed sign(byte[] body) {
            return configure.apply(SdkRequests.put("bucket", "a b/ü+c=d&e", body)).sign();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Upload> uploads() {
        return Stream.of(
                new Upload("signed sha256", PayloadMode.SIGNED_SHA256, request -> request.payloadSigning(true)),
                new Upload("unsigned", PayloadMode.UNSIGNED_PAYLOAD, request -> request.https().payloadSigning(false)),
                new Upload("unsigned + crc32 header", PayloadMode.UNSIGNED_PAYLOAD, request -> request.https()
                        .payloadSigning(false).checksum(DefaultChecksumAlgorithm.CRC32)),
                new Upload("signed sha256 + sha1 header", PayloadMode.SIGNED_SHA256, request -> request
                        .payloadSigning(true).checksum(DefaultChecksumAlgorithm.SHA1)),
                new Upload("streaming signed", PayloadMode.STREAMING_SIGNED, request -> request.payloadSigning(true)
                        .chunked()),
                new Upload("streaming signed + crc32 trailer", PayloadMode.STREAMING_SIGNED_TRAILER, request -> request
                        .payloadSigning(true).chunked().checksum(DefaultChecksumAlgorithm.CRC32)),
                new Upload("streaming signed + sha256 trailer", PayloadMode.STREAMING_SIGNED_TRAILER, request -> request
                        .payloadSigning(true).chunked().checksum(DefaultChecksumAlgorithm.SHA256)),
                new Upload("streaming unsigned + crc32c trailer", PayloadMode.STREAMING_UNSIGNED_TRAILER,
                        request -> request.https().payloadSigning(false).chunked()
                                .checksum(DefaultChecksumAlgorithm.CRC32C)),
                new Upload("streaming unsigned + sha1 trailer", PayloadMode.STREAMING_UNSIGNED_TRAILER,
                        request -> request.https().payloadSigning(false).chunked()
                                .checksum(DefaultChecksumAlgorithm.SHA1)));
    }

    static Stream<Arguments> uploadsBySize() {
        return uploads().flatMap(upload -> Stream.of(0, 1, 1000, SDK_CHUNK - 1, SDK_CHUNK, SDK_CHUNK + 1,
                3 * SDK_CHUNK + 17).map(size -> Arguments.of(upload, size)));
    }

    @ParameterizedTest(name = "{0}, {1} bytes")
    @MethodSource("uploadsBySize")
    void decodesWhatTheSdkSent(Upload upload, int size) throws IOException {
        byte[] data = randomBytes(size, size);
        Signed signed = upload.sign(data);
        Authentication authentication = verifier().verify(signed.request());
        assertThat(authentication.payloadMode()).isEqualTo(upload.mode());

        VerifiedBody body = open(authentication, signed);

        assertThat(readAll(body, 8192)).isEqualTo(data);
        assertThat(body.isComplete()).isTrue();
        assertThat(body.decodedLength()).isEqualTo(size);
        assertThat(body.md5()).isEqualTo(md5(data));
        assertThat(body.md5Hex()).isEqualTo(HexFormat.of().formatHex(md5(data)));
        assertThat(body.checksum()).isEqualTo(expectedChecksum(signed, data));
    }

    @ParameterizedTest
    @MethodSource("uploads")
    void decodesWhateverTheReadSizes(Upload upload) throws IOException {
        byte[] data = randomBytes(2 * SDK_CHUNK + 333, 5);
        Signed signed = upload.sign(data);

        assertThat(readOneByteAtATime(open(signed))).isEqualTo(data);
        for (int bufferSize : new int[] {1, 2, 3, 7, 4096, SDK_CHUNK + 5, 1 << 20}) {
            assertThat(readAll(open(signed), bufferSize)).as("buffer of %d", bufferSize).isEqualTo(data);
        }
    }

    @Nested
    class StreamingSigned {
        private final byte[] data = randomBytes(3 * SDK_CHUNK + 100, 1);
        private final Signed signed = SdkRequests.put("bucket", "key", data).payloadSigning(true).chunked().sign();

        @Test
        void rejectsAChangedByteInAChunkBeforeHandingOutTheNextChunk() {
            byte[] tampered = signed.body().clone();
            int firstDataByte = indexOf(tampered, "\r\n") + 2;
            tampered[firstDataByte + 1000] ^= 1;
            VerifiedBody body = open(signed.withBody(tampered));
            ByteArrayOutputStream delivered = new ByteArrayOutputStream();

            assertPayloadError(() -> copy(body, delivered, 4096), S3Error.SIGNATURE_DOES_NOT_MATCH);
            // Only bytes of the forged chunk itself were handed out, never bytes after it.
            assertThat(delivered.size()).isLessThanOrEqualTo(SDK_CHUNK);
        }

        @Test
        void rejectsAChangedChunkSignature() {
            String text = new String(signed.body(), StandardCharsets.ISO_8859_1);
            int signatureStart = text.indexOf("chunk-signature=") + "chunk-signature=".length();
            char original = text.charAt(signatureStart);
            String tampered = text.substring(0, signatureStart) + (original == 'a' ? 'b' : 'a')
                    + text.substring(signatureStart + 1);

            assertPayloadError(() -> readAll(open(signed.withBody(tampered.getBytes(StandardCharsets.ISO_8859_1))),
                    8192), S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void rejectsADroppedChunk() {
            ChunkFrames frames = ChunkFrames.split(signed.body());
            assertThat(frames.dataFrames()).hasSize(4);

            assertPayloadError(() -> readAll(open(signed.withBody(frames.withoutFrame(1).join())), 8192),
                    S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void rejectsReorderedChunks() {
            ChunkFrames frames = ChunkFrames.split(signed.body());

            assertPayloadError(() -> readAll(open(signed.withBody(frames.swapped(0, 1).join())), 8192),
                    S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void rejectsAReplayedChunkSignatureFromAnotherRequest() {
            // Same data, signed one second later: every chunk signature differs because the seed differs.
            Signed other = SdkRequests.put("bucket", "key", data).payloadSigning(true).chunked()
                    .signedAt(SdkRequests.NOW.plusSeconds(1)).sign();

            assertPayloadError(() -> readAll(open(verifier().verify(signed.request()), signed.withBody(other.body())),
                    8192), S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void rejectsAMissingChunkSignature() {
            String text = new String(signed.body(), StandardCharsets.ISO_8859_1);
            String stripped = text.replaceFirst(";chunk-signature=[0-9a-f]{64}", "");

            assertPayloadError(() -> readAll(open(signed.withBody(stripped.getBytes(StandardCharsets.ISO_8859_1))),
                    8192), S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void rejectsTruncatedBodies() {
            byte[] body = signed.body();
            int firstHeaderEnd = indexOf(body, "\r\n");
            for (int length : new int[] {0, 3, firstHeaderEnd, firstHeaderEnd + 1, firstHeaderEnd + 500,
                    body.length - ChunkFrames.split(body).ending().length, body.length - 3, body.length - 1}) {
                byte[] truncated = Arrays.copyOf(body, length);
                assertPayloadError(() -> readAll(open(signed.withBody(truncated)), 8192), S3Error.INCOMPLETE_BODY);
            }
        }

        @Test
        void rejectsAChunkLongerThanDeclared() {
            ChunkFrames frames = ChunkFrames.split(signed.body());
            byte[] first = frames.dataFrames().getFirst();
            byte[] longer = new byte[first.length + 1];
            System.arraycopy(first, 0, longer, 0, first.length - 2);
            longer[first.length - 2] = 'x';
            longer[first.length - 1] = '\r';
            longer[first.length] = '\n';
            List<byte[]> dataFrames = new ArrayList<>(frames.dataFrames());
            dataFrames.set(0, longer);

            assertPayloadError(() -> readAll(open(signed.withBody(new ChunkFrames(dataFrames, frames.ending()).join())),
                    8192), S3Error.INCOMPLETE_BODY);
        }

        @Test
        void rejectsADecodedLengthThatDiffers() {
            Authentication authentication = verifier().verify(signed.request());
            Signed shorter = signed.withHeader("x-amz-decoded-content-length", Integer.toString(data.length - 1));
            Signed longer = signed.withHeader("x-amz-decoded-content-length", Integer.toString(data.length + 1));

            assertPayloadError(() -> readAll(open(authentication, shorter), 8192), S3Error.INCOMPLETE_BODY);
            assertPayloadError(() -> readAll(open(authentication, longer), 8192), S3Error.INCOMPLETE_BODY);
        }

        @Test
        void rejectsMalformedChunkSizes() {
            for (String header : List.of("zz;chunk-signature=", "-1;chunk-signature=", ";chunk-signature=",
                    "1000000000000000;chunk-signature=")) {
                String text = new String(signed.body(), StandardCharsets.ISO_8859_1)
                        .replaceFirst("^[0-9a-f]+;chunk-signature=", header);
                assertPayloadError(() -> readAll(open(signed.withBody(text.getBytes(StandardCharsets.ISO_8859_1))),
                        8192), S3Error.INCOMPLETE_BODY);
            }
        }

        @Test
        void rejectsTrailersInAModeWithoutThem() {
            ChunkFrames frames = ChunkFrames.split(signed.body());
            String ending = frames.endingText();
            String withTrailer = ending.substring(0, ending.length() - 2) + "x-amz-checksum-crc32:AAAAAA==\r\n\r\n";

            assertPayloadError(() -> readAll(open(signed.withBody(frames.withEnding(withTrailer).join())), 8192),
                    S3Error.INCOMPLETE_BODY);
        }

        @Test
        void keepsFailingOnceFailed() throws IOException {
            byte[] tampered = signed.body().clone();
            tampered[tampered.length / 2] ^= 1;
            VerifiedBody body = open(signed.withBody(tampered));
            Throwable first = org.assertj.core.api.Assertions.catchThrowable(() -> readAll(body, 8192));

            assertThat(first).isInstanceOf(PayloadVerificationException.class);
            assertThatThrownBy(body::read).isSameAs(first);
            assertThatThrownBy(body::decodedLength).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(body::checksum).isInstanceOf(IllegalStateException.class);
        }
    }

    @Nested
    class Trailers {

        @Test
        void rejectsAWrongUnsignedTrailerChecksum() {
            byte[] data = randomBytes(1000, 2);
            Signed signed = unsignedTrailer(data, DefaultChecksumAlgorithm.CRC32);
            ChunkFrames frames = ChunkFrames.split(signed.body());
            String ending = frames.endingText();
            String wrong = ending.replaceFirst("x-amz-checksum-crc32:[^\r]+", "x-amz-checksum-crc32:AAAAAA==");

            String message = assertPayloadError(() -> readAll(open(signed.withBody(frames.withEnding(wrong).join())),
                    8192), S3Error.BAD_DIGEST);
            assertThat(message).isEqualTo("The CRC32 you specified did not match the calculated checksum.");
        }

        @Test
        void rejectsAChangedByteUnderAnUnsignedTrailer() {
            byte[] data = randomBytes(1000, 2);
            Signed signed = unsignedTrailer(data, DefaultChecksumAlgorithm.CRC32C);
            byte[] tampered = signed.body().clone();
            tampered[indexOf(tampered, "\r\n") + 10] ^= 1;

            String message = assertPayloadError(() -> readAll(open(signed.withBody(tampered)), 8192),
                    S3Error.BAD_DIGEST);
            assertThat(message).isEqualTo("The CRC32C you specified did not match the calculated checksum.");
        }

        @Test
        void rejectsAChangedSignedTrailer() {
            byte[] data = randomBytes(1000, 3);
            Signed signed = SdkRequests.put("bucket", "key", data).payloadSigning(true).chunked()
                    .checksum(DefaultChecksumAlgorithm.CRC32).sign();
            ChunkFrames frames = ChunkFrames.split(signed.body());
            String wrong = frames.endingText().replaceFirst("x-amz-checksum-crc32:[^\r]+",
                    "x-amz-checksum-crc32:AAAAAA==");

            assertPayloadError(() -> readAll(open(signed.withBody(frames.withEnding(wrong).join())), 8192),
                    S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void rejectsAMissingTrailerSignature() {
            byte[] data = randomBytes(10, 3);
            Signed signed = SdkRequests.put("bucket", "key", data).payloadSigning(true).chunked()
                    .checksum(DefaultChecksumAlgorithm.CRC32).sign();
            ChunkFrames frames = ChunkFrames.split(signed.body());
            String unsigned = frames.endingText().replaceFirst("x-amz-trailer-signature:[0-9a-f]+\r\n", "");

            assertPayloadError(() -> readAll(open(signed.withBody(frames.withEnding(unsigned).join())), 8192),
                    S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void rejectsAMissingOrInvalidTrailer() {
            byte[] data = randomBytes(10, 4);
            Signed signed = unsignedTrailer(data, DefaultChecksumAlgorithm.CRC32);
            ChunkFrames frames = ChunkFrames.split(signed.body());
            String missing = frames.endingText().replaceFirst("x-amz-checksum-crc32:[^\r]+\r\n", "");
            String invalid = frames.endingText().replaceFirst("x-amz-checksum-crc32:[^\r]+",
                    "x-amz-checksum-crc32:AAAA");

            assertPayloadError(() -> readAll(open(signed.withBody(frames.withEnding(missing).join())), 8192),
                    S3Error.INCOMPLETE_BODY);
            assertPayloadError(() -> readAll(open(signed.withBody(frames.withEnding(invalid).join())), 8192),
                    S3Error.INVALID_REQUEST);
        }

        @Test
        void verifiesACrc64NvmeTrailer() throws IOException {
            // The SDK computes CRC64NVME only with the native CRT library, absent here. Given the value in an
            // x-amz-checksum-crc64nvme header and x-amz-trailer naming it, the SDK still moves it into a trailer
            // and signs the framing; the value itself is checked against the algorithm's vectors elsewhere.
            byte[] data = randomBytes(SDK_CHUNK + 3, 6);
            String crc64 = base64Checksum(ChecksumAlgorithm.CRC64NVME, data);
            for (boolean signedChunks : new boolean[] {true, false}) {
                SdkRequests request = SdkRequests.put("bucket", "key", data).chunked()
                        .header("x-amz-trailer", "x-amz-checksum-crc64nvme")
                        .header("x-amz-checksum-crc64nvme", crc64);
                Signed signed = (signedChunks ? request.payloadSigning(true) : request.https().payloadSigning(false))
                        .sign();
                assertThat(new String(signed.body(), StandardCharsets.ISO_8859_1))
                        .contains("x-amz-checksum-crc64nvme:" + crc64);

                VerifiedBody body = open(signed);

                assertThat(readAll(body, 8192)).isEqualTo(data);
                assertThat(body.checksum()).contains(new Checksum("CRC64NVME", crc64));
            }
        }

        @Test
        void decodesAHandWrittenUnsignedTrailerBody() throws IOException {
            byte[] data = randomBytes(5000, 8);
            String crc64 = base64Checksum(ChecksumAlgorithm.CRC64NVME, data);
            byte[] body = new AwsChunkedWriter(null).chunk(Arrays.copyOf(data, 4000))
                    .chunk(Arrays.copyOfRange(data, 4000, 5000))
                    .finish(Map.of("x-amz-checksum-crc64nvme", crc64));
            Map<String, List<String>> headers = Map.of(
                    "x-amz-content-sha256", List.of("STREAMING-UNSIGNED-PAYLOAD-TRAILER"),
                    "x-amz-trailer", List.of("x-amz-checksum-crc64nvme"),
                    "x-amz-decoded-content-length", List.of("5000"));
            Authentication anonymous = Authentication.anonymous(PayloadMode.STREAMING_UNSIGNED_TRAILER, null);

            VerifiedBody verified = DECODER.open(anonymous, headers, new ByteArrayInputStream(body));

            assertThat(readAll(verified, 100)).isEqualTo(data);
            assertThat(verified.checksum()).contains(new Checksum("CRC64NVME", crc64));
        }

        private Signed unsignedTrailer(byte[] data, software.amazon.awssdk.checksums.spi.ChecksumAlgorithm algorithm) {
            return SdkRequests.put("bucket", "key", data).https().payloadSigning(false).chunked().checksum(algorithm)
                    .sign();
        }
    }

    @Nested
    class WholeBody {

        @Test
        void rejectsABodyThatDoesNotMatchItsSignedSha256() {
            byte[] data = randomBytes(2000, 9);
            Signed signed = SdkRequests.put("bucket", "key", data).payloadSigning(true).sign();
            byte[] tampered = data.clone();
            tampered[1999] ^= (byte) 0x80;

            assertPayloadError(() -> readAll(open(signed.withBody(tampered)), 8192),
                    S3Error.X_AMZ_CONTENT_SHA256_MISMATCH);
        }

        @Test
        void rejectsABodyShorterOrLongerThanContentLength() {
            byte[] data = randomBytes(2000, 10);
            Signed signed = SdkRequests.put("bucket", "key", data).https().payloadSigning(false).sign();

            assertPayloadError(() -> readAll(open(signed.withBody(Arrays.copyOf(data, 1999))), 8192),
                    S3Error.INCOMPLETE_BODY);
            assertPayloadError(() -> readAll(open(signed.withBody(Arrays.copyOf(data, 2001))), 8192),
                    S3Error.INCOMPLETE_BODY);
        }

        @Test
        void acceptsARightContentMd5AndRejectsAWrongOne() throws IOException {
            byte[] data = randomBytes(3000, 11);
            String rightMd5 = Base64.getEncoder().encodeToString(md5(data));
            String wrongMd5 = Base64.getEncoder().encodeToString(md5(new byte[1]));

            for (Upload upload : uploads().toList()) {
                Signed right = upload.configure().apply(SdkRequests.put("bucket", "key", data)
                        .header("Content-MD5", rightMd5)).sign();
                Signed wrong = upload.configure().apply(SdkRequests.put("bucket", "key", data)
                        .header("Content-MD5", wrongMd5)).sign();

                assertThat(readAll(open(right), 8192)).as(upload.name()).isEqualTo(data);
                String message = assertPayloadError(() -> readAll(open(wrong), 8192), S3Error.BAD_DIGEST);
                assertThat(message).isEqualTo("The Content-MD5 you specified did not match what we received.");
            }
        }

        @Test
        void rejectsAMalformedContentMd5WhenOpening() {
            Signed signed = SdkRequests.put("bucket", "key", new byte[10]).https().payloadSigning(false).sign();
            Authentication authentication = verifier().verify(signed.request());

            for (String malformed : List.of("not base64!", Base64.getEncoder().encodeToString(new byte[15]), "")) {
                assertS3Error(() -> open(authentication, signed.withHeader("Content-MD5", malformed)),
                        S3Error.INVALID_DIGEST);
            }
        }

        @ParameterizedTest
        @EnumSource(ChecksumAlgorithm.class)
        void verifiesEachChecksumHeader(ChecksumAlgorithm algorithm) throws IOException {
            byte[] data = randomBytes(70_000, algorithm.ordinal());
            String value = base64Checksum(algorithm, data);
            Signed signed = SdkRequests.put("bucket", "key", data).header(algorithm.headerName(), value).https()
                    .payloadSigning(false).sign();
            VerifiedBody body = open(signed);

            assertThat(readAll(body, 8192)).isEqualTo(data);
            assertThat(body.checksum()).contains(new Checksum(algorithm.name(), value));

            byte[] tampered = data.clone();
            tampered[0] ^= 1;
            String message = assertPayloadError(() -> readAll(open(signed.withBody(tampered)), 8192),
                    S3Error.BAD_DIGEST);
            assertThat(message).isEqualTo("The " + algorithm.name() + " you specified did not match the calculated "
                    + "checksum.");
        }

        @Test
        void computesTheChecksumNamedByTheSdkAlgorithmHeaderAlone() throws IOException {
            byte[] data = randomBytes(500, 12);
            Signed signed = SdkRequests.put("bucket", "key", data).header("x-amz-sdk-checksum-algorithm", "crc32c")
                    .https().payloadSigning(false).sign();
            VerifiedBody body = open(signed);

            readAll(body, 8192);

            assertThat(body.checksum()).contains(new Checksum("CRC32C", base64Checksum(ChecksumAlgorithm.CRC32C,
                    data)));
        }

        @Test
        void reportsNoChecksumWhenNoneWasAskedFor() throws IOException {
            Signed signed = SdkRequests.put("bucket", "key", new byte[3]).https().payloadSigning(false).sign();
            VerifiedBody body = open(signed);

            readAll(body, 8192);

            assertThat(body.checksum()).isEmpty();
        }

        @Test
        void rejectsInconsistentChecksumHeadersWhenOpening() {
            Signed signed = SdkRequests.put("bucket", "key", new byte[10]).https().payloadSigning(false).sign();
            Authentication authentication = verifier().verify(signed.request());
            String crc32 = base64Checksum(ChecksumAlgorithm.CRC32, new byte[10]);
            String sha1 = base64Checksum(ChecksumAlgorithm.SHA1, new byte[10]);

            assertS3Error(() -> open(authentication, signed.withHeader("x-amz-checksum-crc32", crc32)
                    .withHeader("x-amz-checksum-sha1", sha1)), S3Error.INVALID_REQUEST);
            assertS3Error(() -> open(authentication, signed.withHeader("x-amz-checksum-crc32", "AAAA")),
                    S3Error.INVALID_REQUEST);
            assertS3Error(() -> open(authentication, signed.withHeader("x-amz-checksum-crc32", crc32)
                    .withHeader("x-amz-sdk-checksum-algorithm", "SHA1")), S3Error.INVALID_REQUEST);
            assertS3Error(() -> open(authentication, signed.withHeader("x-amz-sdk-checksum-algorithm", "MD5")),
                    S3Error.INVALID_REQUEST);
            assertS3Error(() -> open(authentication, signed.withHeader("x-amz-trailer", "x-amz-checksum-crc32")),
                    S3Error.INVALID_REQUEST);
            assertS3Error(() -> open(authentication, signed.withHeader("content-length", "ten")),
                    S3Error.INVALID_ARGUMENT);
        }

        @Test
        void rejectsUnsupportedOrSeveralTrailers() {
            Signed signed = SdkRequests.put("bucket", "key", new byte[10]).https().payloadSigning(false).chunked()
                    .checksum(DefaultChecksumAlgorithm.CRC32).sign();
            Authentication authentication = verifier().verify(signed.request());

            assertS3Error(() -> open(authentication, signed.withHeader("x-amz-trailer", "x-amz-checksum-md5")),
                    S3Error.INVALID_REQUEST);
            assertS3Error(() -> open(authentication, signed.withHeader("x-amz-trailer",
                    "x-amz-checksum-crc32,x-amz-checksum-sha1")), S3Error.INVALID_REQUEST);
            assertS3Error(() -> open(authentication, signed.withHeader("x-amz-checksum-sha1",
                    base64Checksum(ChecksumAlgorithm.SHA1, new byte[10]))), S3Error.INVALID_REQUEST);
        }
    }

    @Nested
    class Streaming {

        @Test
        void passesAMultiMebibyteChunkThroughWithoutHoldingIt() throws IOException {
            // The SDK always writes 128 KiB chunks; other clients write up to several MiB, built here by hand.
            byte[] data = randomBytes(8 << 20, 13);
            Signed template = SdkRequests.put("bucket", "key", new byte[0]).payloadSigning(true).chunked().sign();
            Authentication authentication = verifier().verify(template.request());
            byte[] body = new AwsChunkedWriter(authentication).chunk(data).finish(Map.of());
            Map<String, List<String>> headers = new LinkedHashMap<>(template.request().headers());
            headers.put("x-amz-decoded-content-length", List.of(Integer.toString(data.length)));
            CountingInputStream raw = new CountingInputStream(new ByteArrayInputStream(body));
            VerifiedBody verified = DECODER.open(authentication, headers, raw);

            byte[] buffer = new byte[4096];
            int first = verified.read(buffer);

            assertThat(first).isPositive();
            assertThat(raw.count()).as("raw bytes consumed for the first read").isLessThan(64 * 1024);
            ByteArrayOutputStream rest = new ByteArrayOutputStream();
            rest.write(buffer, 0, first);
            copy(verified, rest, 64 * 1024);
            assertThat(rest.toByteArray()).isEqualTo(data);
            assertThat(verified.decodedLength()).isEqualTo(data.length);
        }

        @Test
        void rejectsAForgedMultiMebibyteChunkAtItsEnd() {
            byte[] data = randomBytes(4 << 20, 14);
            Signed template = SdkRequests.put("bucket", "key", new byte[0]).payloadSigning(true).chunked().sign();
            Authentication authentication = verifier().verify(template.request());
            byte[] body = new AwsChunkedWriter(authentication).chunk(data).finish(Map.of());
            body[body.length / 2] ^= 1;
            Map<String, List<String>> headers = new LinkedHashMap<>(template.request().headers());
            headers.put("x-amz-decoded-content-length", List.of(Integer.toString(data.length)));

            assertPayloadError(() -> readAll(DECODER.open(authentication, headers, new ByteArrayInputStream(body)),
                    65536), S3Error.SIGNATURE_DOES_NOT_MATCH);
        }

        @Test
        void decodesHandWrittenSignedChunksWithASignedTrailer() throws IOException {
            // Cross-checks the hand-written encoder used above against the verifier, on a shape the SDK also
            // writes (signed chunks + signed crc32 trailer), but with uneven chunk sizes.
            byte[] data = randomBytes(100_000, 15);
            Signed template = SdkRequests.put("bucket", "key", new byte[0]).payloadSigning(true).chunked()
                    .checksum(DefaultChecksumAlgorithm.CRC32).sign();
            Authentication authentication = verifier().verify(template.request());
            String crc32 = base64Checksum(ChecksumAlgorithm.CRC32, data);
            byte[] body = new AwsChunkedWriter(authentication)
                    .chunk(Arrays.copyOfRange(data, 0, 8192))
                    .chunk(Arrays.copyOfRange(data, 8192, 99_999))
                    .chunk(Arrays.copyOfRange(data, 99_999, 100_000))
                    .finish(Map.of("x-amz-checksum-crc32", crc32));
            Map<String, List<String>> headers = new LinkedHashMap<>(template.request().headers());
            headers.remove("x-amz-decoded-content-length");

            VerifiedBody verified = DECODER.open(authentication, headers, new ByteArrayInputStream(body));

            assertThat(readAll(verified, 1000)).isEqualTo(data);
            assertThat(verified.checksum()).contains(new Checksum("CRC32", crc32));
        }
    }

    private static VerifiedBody open(Signed signed) {
        return open(verifier().verify(signed.request()), signed);
    }

    private static VerifiedBody open(Authentication authentication, Signed signed) {
        return DECODER.open(authentication, signed.request().headers(), new ByteArrayInputStream(signed.body()));
    }

    private static Optional<Checksum> expectedChecksum(Signed signed, byte[] data) {
        for (ChecksumAlgorithm algorithm : ChecksumAlgorithm.values()) {
            boolean declared = signed.request().headers().containsKey(algorithm.headerName())
                    || signed.request().firstHeader("x-amz-trailer").filter(algorithm.headerName()::equals).isPresent();
            if (declared) {
                // Computed by the SDK's own implementation, independent of ours.
                SdkChecksum sdk = SdkChecksum.forAlgorithm(DefaultChecksumAlgorithm.fromValue(algorithm.name()));
                sdk.update(data, 0, data.length);
                return Optional.of(new Checksum(algorithm.name(),
                        Base64.getEncoder().encodeToString(sdk.getChecksumBytes())));
            }
        }
        return Optional.empty();
    }

    static byte[] readAll(InputStream body, int bufferSize) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        copy(body, out, bufferSize);
        return out.toByteArray();
    }

    private static byte[] readOneByteAtATime(InputStream body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int value;
        while ((value = body.read()) >= 0) {
            out.write(value);
        }
        return out.toByteArray();
    }

    private static void copy(InputStream body, ByteArrayOutputStream out, int bufferSize) throws IOException {
        byte[] buffer = new byte[bufferSize];
        int count;
        while ((count = body.read(buffer, 0, buffer.length)) >= 0) {
            out.write(buffer, 0, count);
        }
    }

    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static String base64Checksum(ChecksumAlgorithm algorithm, byte[] data) {
        ChecksumHasher hasher = algorithm.newHasher();
        hasher.update(data, 0, data.length);
        return hasher.digestBase64();
    }

    private static byte[] md5(byte[] data) {
        try {
            return MessageDigest.getInstance("MD5").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int indexOf(byte[] bytes, String text) {
        return new String(bytes, StandardCharsets.ISO_8859_1).indexOf(text);
    }

    /** Counts the raw bytes the decoder has pulled, to show it streams rather than reading ahead. */
    private static final class CountingInputStream extends FilterInputStream {
        private long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int value = super.read();
            if (value >= 0) {
                count++;
            }
            return value;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int read = super.read(buffer, offset, length);
            if (read > 0) {
                count += read;
            }
            return read;
        }

        long count() {
            return count;
        }
    }
}
