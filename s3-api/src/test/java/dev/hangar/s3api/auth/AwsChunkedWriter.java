package dev.hangar.s3api.auth;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Writes aws-chunked bodies by hand, following the AWS specification, for shapes the SDK signer does not
 * produce: chunks of several MiB (the SDK always uses 128 KiB), unsigned chunks with a CRC64NVME trailer
 * (the SDK needs the native CRT library for CRC64NVME), and malformed framing.
 */
final class AwsChunkedWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final @Nullable Authentication signing;
    private @Nullable String previousSignature;

    /** @param signing the request's authentication when chunks are signed, null for unsigned chunks */
    AwsChunkedWriter(@Nullable Authentication signing) {
        this.signing = signing;
        this.previousSignature = signing == null ? null : signing.seedSignature();
    }

    AwsChunkedWriter chunk(byte[] data) {
        out.writeBytes(header(data).getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(data);
        out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return this;
    }

    /** The final zero-length chunk, the trailers if any (signed when the chunks are), and the closing CRLF. */
    byte[] finish(Map<String, String> trailers) {
        out.writeBytes(header(new byte[0]).getBytes(StandardCharsets.ISO_8859_1));
        StringBuilder trailerText = new StringBuilder();
        new LinkedHashMap<>(trailers).forEach((name, value) -> trailerText.append(name).append(':').append(value)
                .append('\n'));
        trailers.forEach((name, value) -> out.writeBytes((name + ":" + value + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1)));
        if (signing != null && !trailers.isEmpty()) {
            String signature = sign("AWS4-HMAC-SHA256-TRAILER\n" + signing.timestamp() + '\n'
                    + signing.credentialScope() + '\n' + previousSignature + '\n'
                    + Signatures.sha256Hex(trailerText.toString()));
            out.writeBytes(("x-amz-trailer-signature:" + signature + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    private String header(byte[] data) {
        String size = Integer.toHexString(data.length);
        if (signing == null) {
            return size + "\r\n";
        }
        String signature = sign("AWS4-HMAC-SHA256-PAYLOAD\n" + signing.timestamp() + '\n' + signing.credentialScope()
                + '\n' + previousSignature + '\n' + Signatures.EMPTY_SHA256 + '\n' + Signatures.sha256Hex(data));
        previousSignature = signature;
        return size + ";chunk-signature=" + signature + "\r\n";
    }

    private String sign(String stringToSign) {
        return Signatures.sign(Objects.requireNonNull(Objects.requireNonNull(signing).signingKey()),
                stringToSign);
    }
}
