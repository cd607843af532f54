package dev.hangar.distribution.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A multipart/form-data body as a browser sends a POST upload: the fields before the file, the file, then any
 * fields after it (which S3 ignores).
 *
 * @param boundary the boundary, for the {@code Content-Type: multipart/form-data; boundary=...} header
 * @param bytes the encoded body
 */
public record FormBody(String boundary, byte[] bytes) {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One form field. */
    public record Field(String name, String value) {}

    /** The fields in their map's order, then the file. */
    public static FormBody of(Map<String, String> fields, String filename, String contentType, byte[] file) {
        return of(fields, filename, contentType, file, List.of());
    }

    public static FormBody of(Map<String, String> fields, String filename, String contentType, byte[] file,
            List<Field> after) {
        String boundary = newBoundary();
        ByteArrayOutputStream body = new ByteArrayOutputStream(file.length + 4096);
        fields.forEach((name, value) -> writeField(body, boundary, name, value));
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + filename
            + "\"\r\nContent-Type: " + contentType + "\r\n\r\n");
        body.writeBytes(file);
        write(body, "\r\n");
        after.forEach(field -> writeField(body, boundary, field.name(), field.value()));
        write(body, "--" + boundary + "--\r\n");
        return new FormBody(boundary, body.toByteArray());
    }

    /** The fields and no file part at all. */
    public static FormBody withoutFile(Map<String, String> fields) {
        String boundary = newBoundary();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        fields.forEach((name, value) -> writeField(body, boundary, name, value));
        write(body, "--" + boundary + "--\r\n");
        return new FormBody(boundary, body.toByteArray());
    }

    /** The value of the request's {@code Content-Type} header. */
    public String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    private static String newBoundary() {
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        return "----HangarFormBoundary" + HexFormat.of().formatHex(random);
    }

    private static void writeField(ByteArrayOutputStream body, String boundary, String name, String value) {
        write(body, "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value
            + "\r\n");
    }

    private static void write(ByteArrayOutputStream body, String text) {
        body.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }
}
