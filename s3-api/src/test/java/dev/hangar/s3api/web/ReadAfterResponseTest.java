package dev.hangar.s3api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A keep-alive connection keeps being read when a queued request is answered at once (the case of
 * reactor/reactor-netty#4361): two requests sent in one write, the first answered after a delay and
 * the second at once, then a third request on the same connection, which must be answered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadAfterResponseTest {

    @RepeatedTest(5)
    void aRequestAfterAQueuedOneAnsweredAtOnceIsRead() throws IOException {
        DisposableServer server = ListenerLimits.defaults().applyTo(HttpServer.create().host("127.0.0.1").port(0))
                .handle((request, response) -> request.uri().equals("/slow")
                        ? response.sendString(Mono.delay(Duration.ofMillis(50)).thenReturn("slow"))
                        : response.sendString(Mono.just("fast")))
                .bindNow();
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write((get("/slow") + get("/fast")).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponse(in)).endsWith("slow");
            assertThat(readResponse(in)).endsWith("fast");

            out.write(get("/third").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String third;
            try {
                third = readResponse(in);
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the third request on the connection got no answer in 10 s", e);
            }
            assertThat(third).startsWith("HTTP/1.1 200").endsWith("fast");
        } finally {
            server.disposeNow();
        }
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    /** One response with a Content-Length body (what sendString of a Mono gives), as text. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed within a response head: " + head);
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return text + new String(body, StandardCharsets.US_ASCII);
    }
}
