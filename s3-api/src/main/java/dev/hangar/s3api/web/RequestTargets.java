package dev.hangar.s3api.web;

import dev.hangar.s3api.S3Error;
import dev.hangar.s3api.S3Exception;
import dev.hangar.s3api.semantics.S3Service;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Looks at each request on the S3 listener as Netty decoded it, before Reactor Netty and Spring do, for three
 * things they would get wrong:
 *
 * <ul>
 *   <li>a request Netty could not decode (a malformed request line or header, a bad Content-Length or chunk
 *       size, a header section or request line too long): Reactor Netty answers an empty 4xx, which no S3
 *       client can read; it gets S3's XML error instead;
 *   <li>a target with raw bytes above 0x7F: Netty makes each byte a character (ISO-8859-1), so a raw UTF-8
 *       {@code é} would name the key {@code Ã©}, and a SigV4 signature over the real key would not match.
 *       Those bytes are percent-encoded in place, which is what they stand for: the key is then their UTF-8
 *       text, and bytes that are not UTF-8 are refused as InvalidURI like {@code %FF} is;
 *   <li>a target {@link URI} cannot parse (a bare or malformed {@code %}, a raw space, control character,
 *       {@code |}, {@code ^} or {@code "}, ...): Spring's Reactor adapter makes a {@code java.net.URI} of every
 *       request and answers an empty 400 when that fails; S3's is {@code 400 InvalidURI}.
 * </ul>
 *
 * A refused request's connection is closed after the answer: its body, if it has one, is dropped rather than
 * read as the start of a next request.
 */
final class RequestTargets extends ChannelInboundHandlerAdapter {
    private static final String NAME = "hangar.requestTargets";
    private static final char[] HEX_DIGITS = "0123456789ABCDEF".toCharArray();

    private final Supplier<S3Service> service;
    /** Whether the current request was refused: its body, up to its end, is dropped. */
    private boolean discarding;

    private RequestTargets(Supplier<S3Service> service) {
        this.service = service;
    }

    /** Installs a handler on every connection of the server, right after its HTTP codec. */
    static UnaryOperator<HttpServer> installer(Supplier<S3Service> service) {
        return server -> server.doOnChannelInit((observer, channel, remote) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(NAME) == null) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, NAME, new RequestTargets(service));
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        if (discarding && message instanceof HttpContent) {
            discarding = !(message instanceof LastHttpContent);
            ReferenceCountUtil.release(message);
            return;
        }
        if (message instanceof HttpRequest request) {
            S3Exception refusal = refusal(request);
            if (refusal != null) {
                discarding = !(message instanceof LastHttpContent);
                ReferenceCountUtil.release(message);
                refuse(context, request, refusal);
                return;
            }
        }
        context.fireChannelRead(message);
    }

    /** Why the request is refused, or null (after its target's raw bytes, if any, were percent-encoded). */
    private static S3Exception refusal(HttpRequest request) {
        DecoderResult decoded = request.decoderResult();
        if (decoded.isFailure()) {
            return switch (decoded.cause()) {
                case TooLongHttpHeaderException tooLong -> new S3Exception(S3Error.REQUEST_HEADER_SECTION_TOO_LARGE);
                case TooLongHttpLineException tooLong -> new S3Exception(S3Error.INVALID_URI,
                        "Couldn't parse the specified URI: the request line is longer than this server accepts.");
                default -> new S3Exception(S3Error.BAD_REQUEST,
                        "The request is not well-formed HTTP/1.1: " + decoded.cause().getMessage());
            };
        }
        if (isChunkedWithoutLength(request) && !takesAnUnknownLength(request)) {
            // Refused here, at its head, rather than by the operation: the operation refuses it too, but only
            // after Netty may have met a broken chunk and answered an empty 400 first (a race the S3 handler's
            // thread can lose). S3 wants the length of every body it takes, but that of an unsigned PUT.
            return new S3Exception(S3Error.MISSING_CONTENT_LENGTH);
        }
        String target = percentEncodeRawBytes(request.uri());
        if (!target.equals(request.uri())) {
            request.setUri(target);
        }
        if (!parses(target)) {
            return new S3Exception(S3Error.INVALID_URI, "Couldn't parse the specified URI: it is not a valid URI "
                    + "(a '%' not followed by two hex digits, or a character that must be percent-encoded).");
        }
        return null;
    }

    /**
     * A PUT or POST whose body comes in HTTP chunks declaring no length at all: neither Content-Length nor, for an
     * aws-chunked body, {@code x-amz-decoded-content-length}. No S3 operation takes one.
     */
    private static boolean isChunkedWithoutLength(HttpRequest request) {
        String method = request.method().name();
        return (method.equals("PUT") || method.equals("POST"))
                && HttpUtil.isTransferEncodingChunked(request)
                && !request.headers().contains(HttpHeaderNames.CONTENT_LENGTH)
                && !request.headers().contains("x-amz-decoded-content-length");
    }

    /**
     * A PUT whose payload is not signed: no {@code x-amz-content-sha256}, as on an anonymous or a presigned
     * request, or {@code UNSIGNED-PAYLOAD}. S3 takes such a body without a length (PutObject does; the
     * operations that need the length still refuse it). A payload hash, or an aws-chunked body, needs the
     * length the signature covers.
     */
    static boolean takesAnUnknownLength(HttpRequest request) {
        if (!request.method().name().equals("PUT")) {
            return false;
        }
        String contentSha256 = request.headers().get("x-amz-content-sha256");
        return contentSha256 == null || contentSha256.strip().equals("UNSIGNED-PAYLOAD");
    }

    /** The target with every character above 0x7F, which Netty made of one raw byte, percent-encoded. */
    static String percentEncodeRawBytes(String target) {
        int first = 0;
        while (first < target.length() && target.charAt(first) < 0x80) {
            first++;
        }
        if (first == target.length()) {
            return target;
        }
        StringBuilder encoded = new StringBuilder(target.length() + 16).append(target, 0, first);
        for (int i = first; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c < 0x80) {
                encoded.append(c);
            } else {
                int octet = c & 0xFF;
                encoded.append('%').append(HEX_DIGITS[octet >> 4]).append(HEX_DIGITS[octet & 0xF]);
            }
        }
        return encoded.toString();
    }

    /** Whether Spring can make a {@code java.net.URI} of the target, as it does of every request. */
    static boolean parses(String target) {
        try {
            new URI(target.startsWith("/") ? "http://localhost" + target : target);
            return true;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private void refuse(ChannelHandlerContext context, HttpRequest request, S3Exception error) {
        String requestId = Exchanges.requestId();
        String target = request.uri();
        int query = target.indexOf('?');
        String resource = query < 0 ? target : target.substring(0, query);
        byte[] body = request.method().equals(HttpMethod.HEAD)
                ? new byte[0]
                : service.get().errorDocument(error, resource, null, null, requestId);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(error.error().status()), Unpooled.wrappedBuffer(body));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "application/xml")
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set("x-amz-request-id", requestId)
                .set("x-amz-id-2", requestId)
                .set(HttpHeaderNames.SERVER, "Hangar")
                .set(HttpHeaderNames.DATE, service.get().httpDate());
        context.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
}
