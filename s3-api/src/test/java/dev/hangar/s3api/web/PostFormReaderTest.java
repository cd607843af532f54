package dev.hangar.s3api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.semantics.PostForm;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The multipart form of a browser upload, read as it streams: every body is also fed a few bytes per read, so
 * that boundaries, header lines and delimiters fall across reads and across the reader's buffer.
 */
class PostFormReaderTest {
    private static final String BOUNDARY = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    private static final Map<String, List<String>> CONTEXT = Map.of("aws:SourceIp", List.of("192.0.2.1"));

    @ParameterizedTest(name = "at most {0} bytes per read")
    @ValueSource(ints = {1, 7, 1000, Integer.MAX_VALUE})
    void readsTheFieldsThenStreamsTheFile(int bytesPerRead) throws IOException {
        byte[] file = randomBytes(3 * PostFormReader.BUFFER + 17);
        byte[] body = new Body()
                .preamble("This is the preamble, which is ignored.\r\n")
                .field("key", "uploads/${filename}")
                .field("Content-Type", "image/png")
                .field("X-Amz-Meta-Tag", "a")
                .field("x-amz-meta-tag", "b")
                .field("x-amz-meta-utf8", "pr\u00e9sident \u2603")
                .file("photo.png", "application/octet-stream", file)
                .field("after", "ignored")
                .end();

        try (PostFormReader reader = reader(body, bytesPerRead)) {
            PostForm form = reader.read(CONTEXT);

            assertThat(form.fields()).containsOnly(
                    Map.entry("key", "uploads/${filename}"),
                    Map.entry("content-type", "image/png"),
                    Map.entry("x-amz-meta-tag", "a,b"),
                    Map.entry("x-amz-meta-utf8", "pr\u00e9sident \u2603"));
            assertThat(form.filename()).isEqualTo("photo.png");
            assertThat(form.context()).isEqualTo(CONTEXT);
            assertThat(readAll(form.file())).isEqualTo(file);
            assertThat(form.file().read()).isEqualTo(-1);
            reader.finish();
        }
    }

    @Test
    void fileBytesThatResembleTheDelimiterAreKept() throws IOException {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        content.writeBytes("\r\n--".getBytes(StandardCharsets.US_ASCII));
        content.writeBytes(("\r\n--" + BOUNDARY.substring(0, BOUNDARY.length() - 1)).getBytes(StandardCharsets.US_ASCII));
        content.writeBytes("--\r\n\r\n-".getBytes(StandardCharsets.US_ASCII));
        content.writeBytes(("\r\n-" + BOUNDARY).getBytes(StandardCharsets.US_ASCII));
        content.writeBytes("\r".getBytes(StandardCharsets.US_ASCII));
        byte[] file = content.toByteArray();

        for (int bytesPerRead : new int[] {1, 2, 3, 5, 64}) {
            try (PostFormReader reader = reader(new Body().field("key", "k").file("f", "text/plain", file).end(),
                    bytesPerRead)) {
                assertThat(readAll(reader.read(CONTEXT).file())).as("%d bytes per read", bytesPerRead).isEqualTo(file);
            }
        }
    }

    @Test
    void emptyFileAndFileWithoutItsName() throws IOException {
        byte[] body = new Body().field("key", "k").part("Content-Disposition: form-data; name=\"file\"\r\n"
                + "Content-Type: application/octet-stream", new byte[0]).end();
        try (PostFormReader reader = reader(body, 3)) {
            PostForm form = reader.read(CONTEXT);
            assertThat(form.filename()).isNull();
            assertThat(form.file().read()).isEqualTo(-1);
        }
    }

    @Test
    void fileNamesKeepTheirPathAndMayBeEncoded() throws IOException {
        byte[] body = new Body().part("Content-Disposition: form-data; name=\"file\"; "
                + "filename*=UTF-8''pr%C3%A9sident.jpg", new byte[] {1}).end();
        try (PostFormReader reader = reader(body, 1000)) {
            assertThat(reader.read(CONTEXT).filename()).isEqualTo("pr\u00e9sident.jpg");
        }
        body = new Body().part("content-disposition:form-data; name=FILE; filename=\"dir/sub/a b.txt\"",
                new byte[] {1}).end();
        try (PostFormReader reader = reader(body, 1000)) {
            assertThat(reader.read(CONTEXT).filename()).isEqualTo("dir/sub/a b.txt");
        }
    }

    @Test
    void transportPaddingAfterABoundaryIsAllowed() throws IOException {
        String text = "--" + BOUNDARY + "  \t\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\nk\r\n--" + BOUNDARY
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\r\nbytes\r\n--" + BOUNDARY
                + "--";
        try (PostFormReader reader = reader(text.getBytes(StandardCharsets.UTF_8), 2)) {
            PostForm form = reader.read(CONTEXT);
            assertThat(form.fields()).containsOnly(Map.entry("key", "k"));
            assertThat(new String(readAll(form.file()), StandardCharsets.UTF_8)).isEqualTo("bytes");
        }
    }

    @Test
    void aFormWithoutFileIsRefused() {
        byte[] body = new Body().field("key", "k").field("policy", "p").end();
        assertS3Error(() -> reader(body, 5).read(CONTEXT), S3Error.INCORRECT_NUMBER_OF_FILES_IN_POST_REQUEST);
    }

    @Test
    void fieldsBeforeTheFileAreLimitedToTwentyKilobytes() throws IOException {
        byte[] exact = new Body().field("x-amz-meta-a", "v".repeat(PostFormReader.FIELDS_LIMIT - 12))
                .file("f", "text/plain", new byte[] {1}).end();
        try (PostFormReader reader = reader(exact, 100)) {
            assertThat(reader.read(CONTEXT).fields()).hasSize(1);
        }
        byte[] oneField = new Body().field("x-amz-meta-a", "v".repeat(PostFormReader.FIELDS_LIMIT - 11))
                .file("f", "text/plain", new byte[] {1}).end();
        assertS3Error(() -> reader(oneField, 100).read(CONTEXT), S3Error.MAX_POST_PRE_DATA_LENGTH_EXCEEDED);
        Body many = new Body();
        for (int i = 0; i < 30; i++) {
            many.field("x-amz-meta-" + i, "v".repeat(1000));
        }
        byte[] manyFields = many.file("f", "text/plain", new byte[] {1}).end();
        assertS3Error(() -> reader(manyFields, 100).read(CONTEXT), S3Error.MAX_POST_PRE_DATA_LENGTH_EXCEEDED);
    }

    @Test
    void endlessPartsWithoutNamesOrValuesAreCutOff() {
        Body body = new Body();
        for (int i = 0; i < 5000; i++) {
            body.part("X-Nothing: here", new byte[0]);
        }
        byte[] bytes = body.file("f", "text/plain", new byte[] {1}).end();
        assertS3Error(() -> reader(bytes, 1000).read(CONTEXT), S3Error.MAX_POST_PRE_DATA_LENGTH_EXCEEDED);
    }

    @Test
    void anOverlongHeaderLineIsCutOff() {
        byte[] body = new Body().part("X-Long: " + "x".repeat(10_000), new byte[0]).file("f", "text/plain",
                new byte[] {1}).end();
        assertS3Error(() -> reader(body, 1000).read(CONTEXT), S3Error.MAX_POST_PRE_DATA_LENGTH_EXCEEDED);
    }

    @Test
    void bodiesThatAreNotMultipartAreMalformed() throws IOException {
        assertS3Error(() -> reader("key=value&policy=x".getBytes(StandardCharsets.UTF_8), 4).read(CONTEXT),
                S3Error.MALFORMED_POST_REQUEST);
        String headersCut = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"key\"";
        assertS3Error(() -> reader(headersCut.getBytes(StandardCharsets.UTF_8), 4).read(CONTEXT),
                S3Error.MALFORMED_POST_REQUEST);
        String junkAfterBoundary = "--" + BOUNDARY + "junk\r\n\r\nvalue\r\n--" + BOUNDARY + "--";
        assertS3Error(() -> reader(junkAfterBoundary.getBytes(StandardCharsets.UTF_8), 4).read(CONTEXT),
                S3Error.MALFORMED_POST_REQUEST);
    }

    @Test
    void aFileWithoutItsClosingBoundaryFailsAtItsEnd() throws IOException {
        String cut = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\r\n"
                + "the body ends here";
        try (PostFormReader reader = reader(cut.getBytes(StandardCharsets.UTF_8), 3)) {
            InputStream file = reader.read(CONTEXT).file();
            Throwable thrown = catchThrowable(() -> readAll(file));
            assertThat(thrown).isInstanceOf(IOException.class).hasCauseInstanceOf(S3Exception.class);
            assertThat(((S3Exception) thrown.getCause()).error()).isEqualTo(S3Error.MALFORMED_POST_REQUEST);
        }
    }

    @Test
    void finishReadsWhatFollowsTheFileUpToABound() throws IOException {
        byte[] body = new Body().file("f", "text/plain", new byte[] {1, 2}).field("late", "x".repeat(1000)).end();
        CountingStream counting = new CountingStream(body);
        try (PostFormReader reader = new PostFormReader(counting, BOUNDARY)) {
            readAll(reader.read(CONTEXT).file());
            reader.finish();
        }
        assertThat(counting.ended).isTrue();

        byte[] endless = new Body().file("f", "text/plain", new byte[] {1}).field("late", "x".repeat(1 << 20)).end();
        CountingStream large = new CountingStream(endless);
        try (PostFormReader reader = new PostFormReader(large, BOUNDARY)) {
            readAll(reader.read(CONTEXT).file());
            reader.finish();
        }
        assertThat(large.ended).isFalse();
        assertThat(large.read).isLessThan(PostFormReader.TRAILER_LIMIT + 2L * PostFormReader.BUFFER);
    }

    private static PostFormReader reader(byte[] body, int bytesPerRead) {
        return new PostFormReader(new TrickleStream(body, bytesPerRead), BOUNDARY);
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        for (int read = in.read(chunk); read >= 0; read = in.read(chunk)) {
            out.write(chunk, 0, read);
        }
        return out.toByteArray();
    }

    private static byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static void assertS3Error(ThrowingCallable call, S3Error error) {
        Throwable thrown = catchThrowable(call);
        if (thrown instanceof IOException && thrown.getCause() instanceof S3Exception cause) {
            thrown = cause;
        }
        assertThat(thrown).as("the S3 error thrown").isInstanceOf(S3Exception.class);
        assertThat(((S3Exception) thrown).error()).as("S3 error of: " + thrown.getMessage()).isEqualTo(error);
    }

    /** A multipart/form-data body with {@link #BOUNDARY}. */
    private static final class Body {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Body preamble(String text) {
            bytes.writeBytes(text.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        Body field(String name, String value) {
            return part("Content-Disposition: form-data; name=\"" + name + "\"", value.getBytes(StandardCharsets.UTF_8));
        }

        Body file(String filename, String contentType, byte[] content) {
            return part("Content-Disposition: form-data; name=\"file\"; filename=\"" + filename + "\"\r\nContent-Type: "
                    + contentType, content);
        }

        Body part(String headers, byte[] content) {
            bytes.writeBytes(("--" + BOUNDARY + "\r\n" + headers + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            bytes.writeBytes(content);
            bytes.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
            return this;
        }

        byte[] end() {
            bytes.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
            return bytes.toByteArray();
        }
    }

    /** Hands out at most a few bytes per read, as a network does. */
    private static final class TrickleStream extends InputStream {
        private final ByteArrayInputStream in;
        private final int bytesPerRead;

        TrickleStream(byte[] bytes, int bytesPerRead) {
            this.in = new ByteArrayInputStream(bytes);
            this.bytesPerRead = bytesPerRead;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            return in.read(buffer, offset, Math.min(length, bytesPerRead));
        }
    }

    private static final class CountingStream extends InputStream {
        private final ByteArrayInputStream in;
        long read;
        boolean ended;

        CountingStream(byte[] bytes) {
            this.in = new ByteArrayInputStream(bytes);
        }

        @Override
        public int read() {
            int value = in.read();
            if (value < 0) {
                ended = true;
            } else {
                read++;
            }
            return value;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            int count = in.read(buffer, offset, length);
            if (count < 0) {
                ended = true;
            } else {
                read += count;
            }
            return count;
        }
    }
}
