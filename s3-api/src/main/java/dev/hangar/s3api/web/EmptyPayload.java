package dev.hangar.s3api.web;

import dev.hangar.metadata.Checksum;
import dev.hangar.s3api.semantics.Payload;
import java.io.InputStream;
import java.util.Optional;

/** The body of a request that has none to read (a CORS preflight). */
enum EmptyPayload implements Payload {
    INSTANCE;

    private static final byte[] EMPTY_MD5 = java.util.HexFormat.of().parseHex("d41d8cd98f00b204e9800998ecf8427e");

    @Override
    public InputStream stream() {
        return InputStream.nullInputStream();
    }

    @Override
    public long declaredLength() {
        return 0;
    }

    @Override
    public byte[] md5() {
        return EMPTY_MD5.clone();
    }

    @Override
    public Optional<Checksum> checksum() {
        return Optional.empty();
    }
}
