package dev.hangar.s3api.semantics;

import dev.hangar.cluster.ReaderLeases;
import dev.hangar.metadata.ObjectVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * The streamed body of a GET: a range of one version's content, whose blocks the request leased
 * when it looked the version up. The lease ends when the body has been written, failed, or was
 * abandoned, so an overwrite or delete racing the GET frees the blocks only after it.
 */
final class LeasedBody implements S3Response.Writer {
    private final ContentStore content;
    private final ObjectVersion version;
    private final Optional<Sealing> sealing;
    private final long offset;
    private final long length;
    private final ReaderLeases.Lease lease;

    LeasedBody(ContentStore content, ObjectVersion version, Optional<Sealing> sealing, long offset, long length,
            ReaderLeases.Lease lease) {
        this.content = content;
        this.version = version;
        this.sealing = sealing;
        this.offset = offset;
        this.length = length;
        this.lease = lease;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        try (lease; InputStream in = content.open(version, sealing, offset, length)) {
            S3Response.ChannelOutput.transfer(in, out);
        }
    }

    @Override
    public void abandon() {
        lease.close();
    }
}
