package dev.hangar.s3api.web;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.semantics.PostForm;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ContentDisposition;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The {@code multipart/form-data} body of a browser upload, parsed from blocking code as it streams in: the
 * fields up to the part named {@code file}, then that part's bytes as an {@link InputStream}. The body is read
 * through {@link RequestBodyStream} (bounded demand, each buffer released once copied) into one buffer of
 * {@value #BUFFER} bytes; the file is never held whole.
 *
 * <p>Spring's reactive multipart reader is not used: it buffers up to 256 parsed tokens ahead of its reader,
 * and a form field over its in-memory limit makes it release a buffer twice.
 *
 * <p>As on S3: a part is the file when its name is {@code file}; the fields after it are ignored ({@link
 * #finish} reads them away, up to a bound); the fields before it may hold {@value #FIELDS_LIMIT} bytes of
 * names and values. Field values are read as UTF-8, as browsers send them.
 */
final class PostFormReader implements AutoCloseable {
    /** S3's limit on the fields before the file: names and values. */
    static final int FIELDS_LIMIT = 20 * 1024;
    /** The limit on everything before the file's bytes: boundaries, part headers, fields. */
    static final int PRE_DATA_LIMIT = 64 * 1024;
    /** What {@link #finish} reads (and ignores) after the file before it gives up. */
    static final int TRAILER_LIMIT = 64 * 1024;
    static final int BUFFER = 64 * 1024;
    private static final int HEADER_LINE_LIMIT = 8 * 1024;
    private static final String FILE_FIELD = "file";
    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte HYPHEN = '-';

    private final InputStream body;
    /** {@code CRLF--boundary}: what ends every part. */
    private final byte[] delimiter;
    private final byte[] buffer = new byte[BUFFER];
    private int position;
    private int limit;
    private boolean bodyEnded;
    private long consumed;
    private boolean inFile;
    private @Nullable PartStream file;

    /**
     * @param body the raw request body
     * @param boundary the {@code boundary} parameter of the request's {@code Content-Type}
     */
    PostFormReader(InputStream body, String boundary) {
        this.body = body;
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        // The body's first boundary has no line break before it: one is put in front, so that every boundary
        // is a delimiter.
        buffer[0] = CR;
        buffer[1] = LF;
        limit = 2;
        consumed = -2;
    }

    /** Whether a request's {@code Content-Type} makes it a browser upload. */
    static boolean isMultipartForm(@Nullable MediaType contentType) {
        return contentType != null && MediaType.MULTIPART_FORM_DATA.equalsTypeAndSubtype(contentType);
    }

    /**
     * Starts reading a request whose {@code Content-Type} is {@code multipart/form-data}.
     *
     * @throws S3Exception {@code MalformedPOSTRequest} when it names no valid boundary
     */
    static PostFormReader open(ServerHttpRequest request, MediaType contentType) {
        String boundary = contentType.getParameter("boundary");
        if (boundary != null && boundary.length() >= 2 && boundary.startsWith("\"") && boundary.endsWith("\"")) {
            boundary = boundary.substring(1, boundary.length() - 1);
        }
        if (boundary == null || boundary.isEmpty() || boundary.length() > 200
                || !StandardCharsets.US_ASCII.newEncoder().canEncode(boundary)) {
            throw new S3Exception(S3Error.MALFORMED_POST_REQUEST,
                    "The Content-Type of your POST request names no multipart boundary.");
        }
        return new PostFormReader(new RequestBodyStream(request.getBody()), boundary);
    }

    /**
     * Reads the fields up to the file; the form's file stream then reads the file part's bytes. Names are
     * lower-cased, and a field given more than once has its values joined with commas, as S3 compares them.
     *
     * @param context the request facts of the upload's caller
     * @throws S3Exception {@code IncorrectNumberOfFilesInPostRequest} when the body ends without a file,
     *     {@code MaxPostPreDataLengthExceededError} when what comes before it is too large,
     *     {@code MalformedPOSTRequest} when the body is not multipart
     */
    PostForm read(Map<String, List<String>> context) throws IOException {
        new PartStream().transferTo(OutputStream.nullOutputStream());
        Map<String, String> fields = new LinkedHashMap<>();
        int size = 0;
        while (nextPart()) {
            ContentDisposition disposition = readHeaders();
            String name = Objects.requireNonNullElse(disposition.getName(), "").toLowerCase(Locale.ROOT);
            if (name.equals(FILE_FIELD)) {
                inFile = true;
                file = new PartStream();
                return new PostForm(fields, disposition.getFilename(), file, context);
            }
            String value = readValue(FIELDS_LIMIT - size);
            size += name.getBytes(StandardCharsets.UTF_8).length + value.getBytes(StandardCharsets.UTF_8).length;
            if (size > FIELDS_LIMIT) {
                throw new S3Exception(S3Error.MAX_POST_PRE_DATA_LENGTH_EXCEEDED);
            }
            if (!name.isEmpty()) {
                fields.merge(name, value, (first, second) -> first + "," + second);
            }
        }
        throw new S3Exception(S3Error.INCORRECT_NUMBER_OF_FILES_IN_POST_REQUEST);
    }

    /**
     * After a successful upload: reads away what follows the file (the closing boundary, fields S3 ignores), so
     * that the connection can serve another request; gives up past {@value #TRAILER_LIMIT} bytes.
     */
    void finish() throws IOException {
        long skipped = limit - position;
        position = limit;
        while (!bodyEnded && skipped <= TRAILER_LIMIT) {
            int read = body.read(buffer, 0, buffer.length);
            if (read < 0) {
                bodyEnded = true;
            } else {
                skipped += read;
            }
        }
    }

    /** Stops reading the body; the buffers not yet read are released. */
    @Override
    public void close() throws IOException {
        body.close();
    }

    /**
     * After a delimiter: false for the closing one ({@code --}), true when a part follows (after optional
     * white space and a line break).
     */
    private boolean nextPart() throws IOException {
        if (!ensure(2)) {
            throw malformed("The body ended after a boundary.");
        }
        if (buffer[position] == HYPHEN && buffer[position + 1] == HYPHEN) {
            return false;
        }
        String rest = readLine();
        if (!rest.isBlank()) {
            throw malformed("A boundary is followed by more than white space.");
        }
        return true;
    }

    /** The part's headers up to the empty line; only its {@code Content-Disposition} matters here. */
    private ContentDisposition readHeaders() throws IOException {
        ContentDisposition disposition = ContentDisposition.empty();
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-disposition")) {
                try {
                    disposition = ContentDisposition.parse(line.substring(colon + 1).trim());
                } catch (IllegalArgumentException e) {
                    throw malformed("A part's Content-Disposition is malformed: " + e.getMessage());
                }
            }
        }
        return disposition;
    }

    /** One header line, without its line break, read as UTF-8. */
    private String readLine() throws IOException {
        int scanned = 0;
        while (true) {
            for (int index = position + scanned; index + 1 < limit; index++) {
                if (buffer[index] == CR && buffer[index + 1] == LF) {
                    String line = new String(buffer, position, index - position, StandardCharsets.UTF_8);
                    advance(index + 2 - position);
                    return line;
                }
            }
            scanned = Math.max(0, limit - position - 1);
            if (scanned > HEADER_LINE_LIMIT) {
                throw new S3Exception(S3Error.MAX_POST_PRE_DATA_LENGTH_EXCEEDED);
            }
            if (!fill()) {
                throw malformed("The body ended inside a part's headers.");
            }
        }
    }

    private String readValue(int remaining) throws IOException {
        ByteArrayOutputStream value = new ByteArrayOutputStream();
        PartStream part = new PartStream();
        byte[] chunk = new byte[4096];
        for (int read = part.read(chunk); read >= 0; read = part.read(chunk)) {
            if (value.size() + read > remaining) {
                throw new S3Exception(S3Error.MAX_POST_PRE_DATA_LENGTH_EXCEEDED);
            }
            value.write(chunk, 0, read);
        }
        return value.toString(StandardCharsets.UTF_8);
    }

    /** Whether {@code count} bytes are buffered (reading more as needed), false if the body ends first. */
    private boolean ensure(int count) throws IOException {
        while (limit - position < count) {
            if (!fill()) {
                return false;
            }
        }
        return true;
    }

    /** Reads more of the body into the buffer, moving what is unread to its front; false at the body's end. */
    private boolean fill() throws IOException {
        if (bodyEnded) {
            return false;
        }
        if (position > 0) {
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            position = 0;
        }
        if (limit == buffer.length) {
            throw new IllegalStateException("the buffer is full");
        }
        int read = body.read(buffer, limit, buffer.length - limit);
        if (read < 0) {
            bodyEnded = true;
            return false;
        }
        limit += read;
        return true;
    }

    private void advance(int count) {
        position += count;
        consumed += count;
        if (!inFile && consumed > PRE_DATA_LIMIT) {
            throw new S3Exception(S3Error.MAX_POST_PRE_DATA_LENGTH_EXCEEDED);
        }
    }

    /** Where the delimiter starts in the buffered bytes, or -1. */
    private int delimiterIndex() {
        byte first = delimiter[0];
        for (int index = position; index <= limit - delimiter.length; index++) {
            if (buffer[index] == first && matches(index)) {
                return index;
            }
        }
        return -1;
    }

    private boolean matches(int index) {
        for (int offset = 1; offset < delimiter.length; offset++) {
            if (buffer[index + offset] != delimiter[offset]) {
                return false;
            }
        }
        return true;
    }

    private static S3Exception malformed(String message) {
        return new S3Exception(S3Error.MALFORMED_POST_REQUEST, message);
    }

    /** The bytes of the current part, up to the delimiter that ends it, which it consumes. */
    private final class PartStream extends InputStream {
        private boolean ended;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int read = read(one, 0, 1);
            return read < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] target, int offset, int length) throws IOException {
            Objects.checkFromIndexSize(offset, length, target.length);
            if (ended) {
                return -1;
            }
            if (length == 0) {
                return 0;
            }
            while (true) {
                int found = delimiterIndex();
                int available = found >= 0
                        ? found - position
                        // A delimiter may begin in the last bytes: keep them until more is read.
                        : Math.max(0, limit - position - (delimiter.length - 1));
                if (available > 0) {
                    int read = Math.min(length, available);
                    System.arraycopy(buffer, position, target, offset, read);
                    advance(read);
                    return read;
                }
                if (found >= 0) {
                    advance(delimiter.length);
                    ended = true;
                    return -1;
                }
                if (!fill()) {
                    throw new IOException("the body ended inside a part",
                            malformed("The body ended inside a part: its closing boundary is missing."));
                }
            }
        }
    }
}
