package dev.hangar.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hangar.distribution.support.BotocoreSigner;
import dev.hangar.distribution.support.Digests;
import dev.hangar.distribution.support.FormBody;
import dev.hangar.distribution.support.RandomContent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * {@code Expect: 100-continue} with {@code Connection: close}, as the AWS SDK for JavaScript v3 sends large
 * bodies with its default agent, on every operation that carries a body: PutObject, UploadPart,
 * CompleteMultipartUpload, DeleteObjects and a POST upload. Over a plain socket, so that the bytes on the wire
 * are what is checked: the interim {@code 100 Continue} carries no {@code Connection} header (Node's parser
 * takes {@code connection: close} there as the end of the exchange and rejects the final response), the body
 * goes after it, and the final response says {@code connection: close} and is followed by the end of the
 * connection.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ExpectContinueIT extends AbstractS3IT {
    private String bucket;

    @BeforeAll
    void createExpectBucket() {
        bucket = createBucket("expect");
    }

    @Test
    void putObject() throws IOException {
        byte[] body = RandomContent.of(3001, 3 * MIB).bytes();

        Exchange exchange = exchange(SdkHttpMethod.PUT, "/" + bucket + "/put.bin", Map.of(), Map.of(), body);

        exchange.assertContinuedThenClosed(200);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("put.bin")).asByteArray()).isEqualTo(body);
    }

    @Test
    void uploadPartAndCompleteMultipartUpload() throws IOException {
        String uploadId = s3.createMultipartUpload(request -> request.bucket(bucket).key("multipart.bin")).uploadId();
        byte[] part = RandomContent.of(3002, 5 * MIB).bytes();

        Exchange upload = exchange(SdkHttpMethod.PUT, "/" + bucket + "/multipart.bin",
            Map.of("partNumber", "1", "uploadId", uploadId), Map.of(), part);
        upload.assertContinuedThenClosed(200);
        String etag = upload.header("etag");

        byte[] complete = ("<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>" + etag
            + "</ETag></Part></CompleteMultipartUpload>").getBytes(StandardCharsets.UTF_8);
        Exchange completion = exchange(SdkHttpMethod.POST, "/" + bucket + "/multipart.bin",
            Map.of("uploadId", uploadId), Map.of(), complete);
        completion.assertContinuedThenClosed(200);
        assertThat(completion.body()).contains("<CompleteMultipartUploadResult");
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("multipart.bin")).asByteArray())
            .isEqualTo(part);
    }

    @Test
    void deleteObjects() throws IOException {
        s3.putObject(request -> request.bucket(bucket).key("gone"), RequestBody.fromString("gone"));
        byte[] delete = "<Delete><Object><Key>gone</Key></Object></Delete>".getBytes(StandardCharsets.UTF_8);
        String md5 = Base64.getEncoder().encodeToString(Digests.md5().digest(delete));

        Exchange exchange = exchange(SdkHttpMethod.POST, "/" + bucket, Map.of("delete", ""), Map.of("Content-MD5", md5),
            delete);

        exchange.assertContinuedThenClosed(200);
        assertThat(exchange.body()).contains("<Deleted><Key>gone</Key>");
        assertS3Status(() -> s3.headObject(request -> request.bucket(bucket).key("gone")), 404);
    }

    @Test
    void postUpload() throws IOException {
        byte[] file = RandomContent.of(3003, 3 * MIB).bytes();
        Map<String, String> fields = BotocoreSigner.forKey(ACCESS_KEY, SECRET_KEY)
            .presignPost(endpoint().toString(), bucket, "posted.bin", Map.of(), List.of(), 300);
        FormBody form = FormBody.of(fields, "posted.bin", "application/octet-stream", file);

        Exchange exchange = exchange(nextPort(), "POST", "/" + bucket, Map.of("Content-Type", form.contentType()),
            form.bytes());

        exchange.assertContinuedThenClosed(204);
        assertThat(s3.getObjectAsBytes(request -> request.bucket(bucket).key("posted.bin")).asByteArray())
            .isEqualTo(file);
    }

    /** A request signed with SigV4 by the SDK's signer (the body's SHA-256 signed), sent over a socket. */
    private Exchange exchange(SdkHttpMethod method, String path, Map<String, String> query, Map<String, String> headers,
            byte[] body) throws IOException {
        SdkHttpRequest.Builder builder = raw.request(method, path);
        query.forEach(builder::putRawQueryParameter);
        headers.forEach(builder::putHeader);
        SignedRequest signed = raw.sign(builder.build(), body, properties -> { });
        Map<String, String> sent = new LinkedHashMap<>();
        signed.request().headers().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                sent.put(name, String.join(",", values));
            }
        });
        String rawQuery = signed.request().encodedQueryParameters().map(value -> "?" + value).orElse("");
        return exchange(signed.request().port(), method.name(), path + rawQuery, sent, body);
    }

    /**
     * Sends the head with {@code Expect: 100-continue} and {@code Connection: close} to the node at {@code node}
     * (the one a signed request names in its Host), reads the interim response, then sends the body and reads
     * everything up to the end of the connection.
     */
    private static Exchange exchange(int node, String method, String target, Map<String, String> headers, byte[] body)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", node)) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n")
                .append("Host: localhost:").append(node).append("\r\n")
                .append("Expect: 100-continue\r\nConnection: close\r\n")
                .append("Content-Length: ").append(body.length).append("\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            List<String> interim = readHead(in);
            out.write(body);
            out.flush();
            List<String> finalHead = readHead(in);
            byte[] rest = in.readAllBytes();
            return new Exchange(interim, finalHead, new String(rest, StandardCharsets.UTF_8));
        }
    }

    /** The status line and header lines of one response, up to its blank line. */
    private static List<String> readHead(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int read;
        while ((read = in.read()) != -1) {
            if (read == '\n') {
                String text = line.toString(StandardCharsets.US_ASCII).stripTrailing();
                line.reset();
                if (text.isEmpty()) {
                    return lines;
                }
                lines.add(text);
            } else {
                line.write(read);
            }
        }
        throw new IOException("the connection ended inside a response head: " + lines);
    }

    /** What came back: the interim head, the final head, and the final body up to the end of the connection. */
    private record Exchange(List<String> interim, List<String> finalHead, String body) {

        void assertContinuedThenClosed(int status) {
            assertThat(interim).as("the interim response").isNotEmpty();
            assertThat(interim.getFirst()).as("the interim status line").isEqualTo("HTTP/1.1 100 Continue");
            assertThat(interim.stream().skip(1).map(header -> header.toLowerCase(Locale.ROOT)))
                .as("the headers of the interim response").noneMatch(header -> header.startsWith("connection:"));
            assertThat(finalHead.getFirst()).as("the final status line (%s)", body).startsWith("HTTP/1.1 " + status);
            assertThat(header("connection")).as("the final Connection header").isEqualToIgnoringCase("close");
        }

        String header(String name) {
            for (String line : finalHead.subList(1, finalHead.size())) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).strip();
                }
            }
            return null;
        }
    }
}
