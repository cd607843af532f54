package dev.hangar.s3api.web;

import java.io.IOException;
import java.io.InputStream;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;

/**
 * The request body as a blocking stream with bounded demand, subscribed on first read: operations
 * that never read their body (GET, HEAD, DELETE) never subscribe, and closing an unread body does
 * nothing.
 */
final class RequestBodyStream extends InputStream {
    private static final int DEMAND = 16;

    private final Publisher<DataBuffer> body;
    private InputStream subscribed;

    RequestBodyStream(Publisher<DataBuffer> body) {
        this.body = body;
    }

    @Override
    public int read() throws IOException {
        return stream().read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        return stream().read(buffer, offset, length);
    }

    @Override
    public void close() throws IOException {
        if (subscribed != null) {
            subscribed.close();
        }
    }

    private InputStream stream() {
        if (subscribed == null) {
            subscribed = DataBufferUtils.subscriberInputStream(body, DEMAND);
        }
        return subscribed;
    }
}
