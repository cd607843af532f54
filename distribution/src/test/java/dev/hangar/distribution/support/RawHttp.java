package dev.hangar.distribution.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP/1.1 over a plain socket, for requests no HTTP client will send: malformed targets, raw bytes above
 * ASCII, broken headers. Each request is sent with the bytes given (a test adds {@code Connection: close}),
 * and the answer is read to the end of the connection.
 */
public final class RawHttp {
    private static final int TIMEOUT_MILLIS = 30_000;

    private RawHttp() {}

    /** An answer as received: its status line, headers (lower-case names) and body. */
    public record Answer(String statusLine, int status, Map<String, String> headers, byte[] body) {
        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public Optional<String> header(String name) {
            return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
        }

        public Optional<String> errorCode() {
            return RawS3.errorCode(bodyText());
        }

        @Override
        public String toString() {
            return statusLine + " " + headers + "\n" + bodyText();
        }
    }

    /** Sends the bytes as they are and reads the answer until the server closes the connection. */
    public static Answer exchange(int port, byte[] request) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (SocketException e) {
                // The server may answer and close before a refused request's body is all sent.
            }
            return parse(readToEnd(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request's bytes: the request line and headers as given (ISO-8859-1, so raw bytes pass), then the body. */
    public static byte[] request(String head, byte[] body) {
        byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = Arrays.copyOf(headBytes, headBytes.length + body.length);
        System.arraycopy(body, 0, request, headBytes.length, body.length);
        return request;
    }

    /** Parses one answer; the body is what follows the header section (the server closes after it). */
    public static Answer parse(byte[] raw) {
        int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        if (end < 0) {
            throw new IllegalStateException("no complete answer: " + new String(raw, StandardCharsets.ISO_8859_1));
        }
        String[] lines = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] body = Arrays.copyOfRange(raw, end + 4, raw.length);
        String length = headers.get("content-length");
        if (length != null && Integer.parseInt(length) < body.length) {
            body = Arrays.copyOf(body, Integer.parseInt(length));
        }
        return new Answer(lines[0], Integer.parseInt(lines[0].split(" ")[1]), headers, body);
    }

    private static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                received.write(buffer, 0, read);
            }
        } catch (SocketException | SocketTimeoutException e) {
            // A reset after the answer, or an answer that never ends: what arrived is the answer.
        }
        return received.toByteArray();
    }

    private static int indexOf(byte[] bytes, byte[] needle) {
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
